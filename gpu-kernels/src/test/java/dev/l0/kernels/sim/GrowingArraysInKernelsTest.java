package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.KernelExplanation;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Loops inside kernel threads whose array accumulator grows with no bound the host can compute
 * before the launch (rows appended that depend on the data or on the array itself, a trip count the
 * data decides), or changes its rows by a map over rows the body computes from the array (a
 * binomial tree's shrinking steps), run as kernels on the simulator (blocks of 1, 8 and 32 threads)
 * and the JVM backend, with the interpreter's results and failures; a thread that outgrows the
 * first per-thread capacity makes the host rerun with a larger one ({@link CapacityReruns}).
 */
public class GrowingArraysInKernelsTest {
  private static final List<KernelExecutor> BACKENDS =
      List.of(
          new SimulatorExecutor(1),
          new SimulatorExecutor(8),
          new SimulatorExecutor(32),
          new JvmKernelExecutor(2));

  /**
   * Appends {@code iota(i)} for {@code i < x}: {@code 1 + x(x-1)/2} rows, 4951 for {@code x = 100}.
   */
  private static final String IOTA_PER_ITERATION =
      """
      fun [i32] main([i32] xs) =
        map(fn i32 (i32 x) =>
              loop (acc = [x]) = for i < x do
                concat(acc, iota(i))
              in reduce(op +, 0, acc) * 10 + size(0, acc), xs)
      """;

  /** Programs whose growing arrays have no host bound, each with inputs. */
  public static final List<List<String>> PROGRAMS_AND_INPUTS =
      List.of(
          List.of(IOTA_PER_ITERATION, "[1, 2, 0, 5, -3]"),
          // 4951 rows for x = 100: past the first capacity (1 + 64 rows), so the host reruns four
          // times
          List.of(IOTA_PER_ITERATION, "[3, 100, 7, 1, 2, 40, 0, 9, 11]"),
          // the accumulator doubles by the rows a filter keeps of it, over a trip count the host
          // knows
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) =>
                  loop (acc = [x, x + 1]) = for i < size(0, xs) do
                    concat(acc, filter(fn bool (i32 y) => y % 2 = 0, map(fn i32 (i32 z) => z + i, acc)))
                  in reduce(op +, 0, acc) * 1000 + size(0, acc), xs)
          """,
              "[1, 2, 3, 5, 8, 13, 21]"),
          // it shrinks by one filter and grows by another, over a trip count the data decides
          List.of(
              """
          fun [i64] main([i64] xs) =
            map(fn i64 (i64 x) =>
                  loop (acc = filter(fn bool (i64 y) => y < x, map(fn i64 (i32 j) => i64(j), iota(7)))) = for i < i32(x % 9i64) do
                    concat(filter(fn bool (i64 y) => y != i64(i), acc), filter(fn bool (i64 y) => y % 3i64 != 0i64, acc))
                  in reduce(op +, 0i64, acc) * 1000i64 + i64(size(0, acc)), xs)
          """,
              "[0i64, 1i64, 6i64, 8i64, 13i64, 17i64, 26i64, 34i64]"),
          // rows of a two-dimensional accumulator, 436 of them for x = 30
          List.of(
              """
          fun [f64] main([f64] xs) =
            map(fn f64 (f64 x) =>
                  loop (acc = [[x, 1.0]]) = for i < i32(x) do
                    concat(acc, replicate(i, [x, f64(i)]))
                  in reduce(op +, 0.0, map(fn f64 ([f64] r) => r[0] * r[1], acc)), xs)
          """,
              "[0.0, 2.0, 5.0, 1.5, 30.0]"),
          // a binomial tree's backward steps: the accumulator shrinks by one row per iteration, a
          // map over iota(size(acc) - 1) (it failed as a map result of the wrong shape before)
          List.of(
              """
          fun [f64] main(i32 n, [f64] xs) =
            map(fn f64 (f64 x) =>
                  let v = loop (v = map(fn f64 (i32 i) => x * f64(i), iota(n + 1))) = for s < n do
                            map(fn f64 (i32 i) => 0.5 * v[i] + 0.25 * v[i + 1], iota(size(v) - 1))
                          in v
                  in v[0], xs)
          """,
              "20 [1.0, -2.5, 0.0, 3.25]"),
          // it doubles by a map over iota(size(acc) * 2): 3072 rows for x = 10, past the first
          // capacity (3 + 64 rows), so the host reruns
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) =>
                  let v = loop (v = replicate(3, x)) = for j < x do
                            map(fn i32 (i32 i) => v[i / 2] + i, iota(size(v) * 2))
                          in v
                  in reduce(op +, 0, v) * 10000 + size(v), xs)
          """,
              "[0, 1, 4, 10, 2]"),
          // one initial row, then n rows in every iteration (n from outside the loop)
          List.of(
              """
          fun [i32] main(i32 n, [i32] xs) =
            map(fn i32 (i32 x) =>
                  let v = loop (v = [x]) = for j < 2 do
                            map(fn i32 (i32 i) => v[0] + i * j, iota(n))
                          in v
                  in reduce(op +, 0, v) * 100 + size(v), xs)
          """,
              "3 [1, 2, -7]"),
          // rows of a two-dimensional accumulator dropped by a map over the rows that remain
          List.of(
              """
          fun [f64] main([f64] xs) =
            map(fn f64 (f64 x) =>
                  let m = loop (m = replicate(5, [x, 1.0])) = for j < 3 do
                            map(fn [f64] (i32 i) => [m[i, 0] + m[i + 1, 1], f64(j)], iota(size(m) - 1))
                          in m
                  in m[1, 0] + m[1, 1] * 100.0 + f64(size(m)) * 1000.0, xs)
          """,
              "[1.0, 2.5, -4.0]"),
          // a square accumulator that loses a row and a column in every iteration: its inner
          // size shrinks too (a region laid out for the first size, the live size in a local)
          List.of(
              """
          fun [i32] main(i32 n, [i32] xs) =
            map(fn i32 (i32 x) =>
                  let m = loop (m = map(fn [i32] (i32 i) => map(fn i32 (i32 k) => x * i + k, iota(n)),
                                        iota(n))) = for j < 3 do
                            map(fn [i32] (i32 i) =>
                                  map(fn i32 (i32 k) => m[i, k] + m[i + 1, k + 1] - j,
                                      iota(size(1, m) - 1)),
                                iota(size(m) - 1))
                          in m
                  in (m[0, 0] + 7 * m[1, 1] + 3 * m[0, 1]) * 100 + size(1, m) * 10 + size(m), xs)
          """,
              "5 [1, 2, -3, 0]"),
          // rows that grow inside a loop of a fixed number of them (each row appended to itself):
          // the inner size grows while the outer stays (it failed as a map result of the wrong
          // shape before)
          List.of(
              """
          fun [[[i32]]] main(i32 n, [i32] xs) =
            map(fn [[i32]] (i32 x) =>
                  loop (m = replicate(2, replicate(1, x))) = for i < n do
                    map(fn [i32] ([i32] r) => concat(r, r), m)
                  in m, xs)
          """,
              "3 [1, 2]"),
          // rows that grow by one element per iteration, past the first capacity (1 + 64
          // elements), so the host reruns; the rows a filter keeps change too
          List.of(
              """
          fun [i32] main(i32 n, [i32] xs) =
            map(fn i32 (i32 x) =>
                  let m = loop (m = map(fn [i32] (i32 i) => [x + i], iota(3))) = for j < n do
                            map(fn [i32] ([i32] r) => concat(r, [r[0] + j]),
                                filter(fn bool ([i32] r) => r[0] + j != 97, m))
                          in m
                  in reduce(op +, 0, map(fn i32 ([i32] r) => reduce(op +, 0, r), m)) * 1000
                     + size(1, m) * 10 + size(0, m), xs)
          """,
              "95 [1, 2, 0]"),
          // rows made anew by an array literal and by a reshape: longer than the first rows
          List.of(
              """
          fun [[[i32]]] main(i32 n, [i32] xs) =
            map(fn [[i32]] (i32 x) =>
                  loop (m = replicate(2, [x])) = for i < n do
                    map(fn [i32] ([i32] r) => [r[0], i], m)
                  in m, xs)
          """,
              "3 [1, 2]"),
          List.of(
              """
          fun [[[i32]]] main(i32 n, [i32] xs) =
            map(fn [[i32]] (i32 x) =>
                  loop (m = replicate(4, [x])) = for i < n do
                    reshape((2, 2), reshape((4), map(fn [i32] ([i32] r) => map(op +(i), r), m)))
                  in m, xs)
          """,
              "3 [1, 2]"),
          // the grown array indexed past its end where the data says: the interpreter's failure
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) =>
                  let grown = loop (acc = [x]) = for i < x do concat(acc, iota(i)) in acc
                  in grown[x * 3], xs)
          """,
              "[2, 5, 1, 9]"));

  @Test
  void loopsWhoseArraysGrowFromTheDataRunAsKernelsWithTheInterpretersResults() {
    for (List<String> programAndInput : PROGRAMS_AND_INPUTS) {
      Program program = L0Parser.parse(programAndInput.get(0), "grow.l0");
      List<Value> args = arguments(program, programAndInput.get(1));
      String interpreted =
          RandomProgramSimulationTest.outcome(() -> new Interpreter(program).call("main", args));
      for (KernelExecutor backend : BACKENDS) {
        List<String> runs = new ArrayList<>();
        HostRunner runner =
            HostRunner.compile(
                program, KernelArrayProgramsOnEveryBackendTest.recording(backend, runs));
        assertEquals(
            interpreted,
            RandomProgramSimulationTest.outcome(() -> runner.call("main", args)),
            backend.name() + ": " + programAndInput);
        assertTrue(
            !runs.isEmpty() && runs.stream().allMatch(kind -> kind.startsWith("map")),
            backend.name() + " ran the map as a kernel: " + runs);
      }
    }
  }

  @Test
  void aThreadThatOutgrowsTheFirstCapacityOverflowsAndTheRerunGivesTheResult() {
    KernelGroup group = group(IOTA_PER_ITERATION, LaunchConfiguration.DEFAULT);
    SimtSimulator simulator = SimtSimulator.of(group);
    Map<String, Value> inputs =
        Map.of(
            group.inputs().get(0).name(),
            ValueReader.read(
                    "[3, 100, 7]",
                    List.of(
                        L0Parser.parse(IOTA_PER_ITERATION, "grow.l0")
                            .function("main")
                            .orElseThrow()
                            .params()
                            .get(0)
                            .type()),
                    "input")
                .get(0));
    SimulationResult first = simulator.runAtScale(inputs, 32, 1);
    assertTrue(
        first.error().isPresent() && first.error().get().capacityOverflow(), first.toString());
    assertEquals("concat", first.error().get().operation());
    assertEquals("grow.l0:4:11", first.error().get().pos().toString());
    // 4951 rows need the scale 256: capacities of 65, 257, 1025 and 4097 rows overflow
    long scale = 1;
    int reruns = 0;
    SimulationResult result = first;
    while (result.error().isPresent() && result.error().get().capacityOverflow()) {
      scale *= CapacityReruns.GROWTH;
      reruns++;
      result = simulator.runAtScale(inputs, 32, scale);
    }
    assertEquals(4, reruns);
    assertTrue(result.error().isEmpty() && result.report().issues().isEmpty(), result.toString());
    assertEquals(result.outputs(), simulator.run(inputs, 32).outputs());
  }

  @Test
  void pastTheLastRerunTheRunFailsNamingTheConcat() {
    Program program =
        L0Parser.parse(
            """
        fun [i32] main([i32] xs) =
          map(fn i32 (i32 x) =>
                loop (acc = [x]) = for i < x do
                  concat(acc, acc)
                in size(0, acc), xs)
        """,
            "doubling.l0");
    HostRunner runner = HostRunner.compile(program, new JvmKernelExecutor(2));
    List<Value> small = arguments(program, "[3, 4]");
    assertEquals(new Interpreter(program).call("main", small), runner.call("main", small));
    L0ResourceError limit =
        assertThrows(
            L0ResourceError.class, () -> runner.call("main", arguments(program, "[3, 40]")));
    assertTrue(
        limit
            .getMessage()
            .startsWith(
                "doubling.l0:4:11: concat: the array a loop inside a kernel grows"
                    + " by this concat outgrew its per-thread capacity, also at 65536 times its first capacity"),
        limit.getMessage());
  }

  @Test
  void explainSaysTheKernelGrowsAnArrayAndRerunsWithALargerCapacity() {
    String growing = explanation(IOTA_PER_ITERATION);
    assertTrue(
        growing.contains(
            "growing ones with a first capacity of their initial rows plus about 64, rerun with 4x"
                + " the capacity when a thread outgrows it (at most 8 reruns)"),
        growing);
    // appending at most 3 rows per iteration over a trip count the host knows: exact room, no
    // reruns
    String bounded =
        explanation(
            """
        fun [i32] main([i32] xs) =
          map(fn i32 (i32 x) =>
                loop (acc = iota(2)) = for i < size(0, xs) do
                  concat(acc, filter(fn bool (i32 y) => y < x, iota(3)))
                in reduce(op +, 0, acc), xs)
        """);
    assertTrue(bounded.contains("per-thread arrays: ") && !bounded.contains("growing"), bounded);
  }

  private static String explanation(String source) {
    KernelPlan plan =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "grow.l0"))).kernelPlan();
    return KernelExplanation.explain(
        plan, plan.kernels().get(0), LaunchConfiguration.THREAD_PER_ROW);
  }

  private static KernelGroup group(String source, LaunchConfiguration configuration) {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "grow.l0")));
    return KernelLowering.lower(
        optimized.kernelPlan(), optimized.kernelPlan().kernels().get(0), configuration);
  }

  private static List<Value> arguments(Program program, String input) {
    return ValueReader.read(
        input,
        program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
        "input");
  }
}
