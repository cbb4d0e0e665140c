package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random programs with per-thread arrays inside kernels ({@link RandomPrograms#kernelArrayProgram}:
 * reductions and scans of arrays, loops that filter or append to their array accumulator (also
 * without a bound the host knows, {@link GrowingArraysInKernelsTest}), in-place updates,
 * array-valued map bodies) run with every kernel on the simulator, for block sizes 1 and 32: no
 * kernel falls back to the evaluator, both block sizes give the same outcome, and that outcome is
 * the interpreter's (a failure in the same operation), except that a program with a float reduction
 * or scan is held to the reduction order ({@code ReductionOrder}) rather than to the interpreter's
 * left fold. The number of programs is the system property {@code l0.kernelArrayPrograms} (default
 * 250); seeds 0 to N-1, so a failure names its program.
 */
class KernelArrayProgramsOnEveryBackendTest {
  private static final int PROGRAMS = Integer.getInteger("l0.kernelArrayPrograms", 250);

  /**
   * The backends every program runs on: the simulator with blocks of 1 and of 32 threads, and the
   * JVM backend.
   */
  private static final List<KernelExecutor> BACKENDS =
      List.of(new SimulatorExecutor(1), new SimulatorExecutor(32), new JvmKernelExecutor(2));

  /**
   * The programs of issue 13, two chained loops that update their arrays in place (the Brownian
   * bridge's shape: each loop's array lives in its initial value's scratch), an array literal whose
   * rows may be irregular, a loop that appends a filtered array to its accumulator and one that
   * doubles it, with inputs.
   */
  private static final List<List<String>> PROGRAMS_AND_INPUTS =
      List.of(
          List.of(
              """
          fun [f64] main([f64] xs) =
            map(fn f64 (f64 x) =>
                  let acc0 = copy(replicate(16, 0.0)) in
                  loop (acc = acc0) = for i < 16 do
                    let acc[i] = x * f64(i) in acc
                  in reduce(op +, 0.0, acc), xs)
          """,
              "[1.0, 2.5, -3.0]"),
          List.of(
              """
          fun [f64] main([f64] xs) =
            map(fn f64 (f64 x) =>
                  let w = replicate(8, 0.0) in
                  let w[0] = x in
                  loop (w) = for i < 7 do
                    let w[i + 1] = w[i] * 0.5 + x in w
                  in
                  loop (w) = for s < 7 do
                    let t = 7 - s in
                    let w[t] = w[t] - w[t - 1] in w
                  in reduce(op +, 0.0, w) + w[7], xs)
          """,
              "[1.0, 2.5, -3.0]"),
          List.of(
              """
          fun bool h20([real] a21) =
            reduce(fn bool (bool p74, bool p75) => p74 && p75, (0 = 0),
              (loop (acc71 = replicate(7, (0 = 1))) = for i72 < size(0, a21) do
                 filter(fn bool (bool p73) => p73, acc71)
               in acc71))

          fun [bool] main([real] x6) =
            map(fn bool (real y) => h20(replicate(8, y)), x6)
          """,
              "[1.0, 2.0]"),
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) => let a = [filter(fn bool (i32 y) => y < x, iota(2)), iota(1)] in reduce(op +, 0, a[0]), xs)
          """,
              "[1, 1]"),
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) => let a = [filter(fn bool (i32 y) => y < x, iota(2)), iota(1)] in reduce(op +, 0, a[0]), xs)
          """,
              "[1, 2]"),
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) =>
                  loop (acc = iota(2)) = for i < size(0, xs) do
                    concat(acc, filter(fn bool (i32 y) => y < x, iota(3)))
                  in reduce(op +, 0, acc) * 100 + size(0, acc), xs)
          """,
              "[1, 3, 0]"),
          List.of(
              """
          fun [i32] main([i32] xs) =
            map(fn i32 (i32 x) =>
                  loop (acc = filter(fn bool (i32 y) => y < x, iota(3))) = for i < 3 do
                    concat(acc, acc)
                  in reduce(op +, 0, acc) * 100 + size(0, acc), xs)
          """,
              "[1, 3, 0]"));

  @Test
  void theIssuesProgramsRunAsKernelsWithTheInterpretersResults() {
    for (List<String> programAndInput : PROGRAMS_AND_INPUTS) {
      Program program = L0Parser.parse(programAndInput.get(0), "issue13.l0");
      List<Value> args =
          ValueReader.read(
              programAndInput.get(1),
              program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
              "input");
      String interpreted =
          RandomProgramSimulationTest.outcome(() -> new Interpreter(program).call("main", args));
      for (KernelExecutor backend : BACKENDS) {
        HostRunner runner = HostRunner.compile(program, backend);
        assertEquals(
            interpreted,
            RandomProgramSimulationTest.outcome(() -> runner.call("main", args)),
            backend.name() + ": " + programAndInput.get(0));
      }
    }
  }

  /**
   * A top-level loop whose array accumulator grows by as many rows as a filter keeps (no bound
   * before it runs) runs on the host, and its body's map and filter run as kernels once per
   * iteration on every backend, with the interpreter's result.
   */
  @Test
  void aHostLoopWhoseArrayGrowsFromTheDataRunsItsBodysSoacsAsKernels() {
    Program program =
        L0Parser.parse(
            """
        fun [i32] main([i32] xs) =
          loop (acc = xs) = for i < 3 do
            concat(acc, filter(fn bool (i32 x) => x % 3 != i, map(fn i32 (i32 x) => x * 2 + i, acc)))
          in acc
        """,
            "hostloop.l0");
    List<Value> args =
        ValueReader.read(
            "[1, 2, 5, 7]",
            program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            "input");
    Value interpreted = new Interpreter(program).call("main", args);
    for (KernelExecutor backend : BACKENDS) {
      List<String> runs = new ArrayList<>();
      assertEquals(
          interpreted,
          HostRunner.compile(program, recording(backend, runs)).call("main", args),
          backend.name());
      assertTrue(runs.size() >= 3, backend.name() + " ran the loop body's kernels " + runs);
    }
  }

  /**
   * A map inside a kernel's thread over no rows, whose function's result has a size only its code
   * tells (a concat of replicates): each thread's empty result keeps the size the function gives on
   * the zero row, {@code [0][1]}, as in the interpreter, on every backend (a random program of
   * {@link RandomProgramSimulationTest} once gave {@code [0][0]} there).
   */
  @Test
  void aThreadsMapOverNoRowsKeepsTheInnerSizeOfItsFunctionsResult() {
    Program program =
        L0Parser.parse(
            """
        fun [f64] h1(i64 p) = concat(replicate(0, 0.0), replicate(1, 0.0))
        fun [[f64]] h0(f64 x) = map(h1, replicate(0, 2i64))
        fun [[[f64]]] main(f64 a) = map(h0, replicate(3, a))
        """,
            "emptyrows.l0");
    List<Value> args =
        ValueReader.read(
            "1.0",
            program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            "input");
    Value interpreted = new Interpreter(program).call("main", args);
    assertEquals(
        "[empty([0][1]f64), empty([0][1]f64), empty([0][1]f64)]", ValueWriter.write(interpreted));
    for (KernelExecutor backend : BACKENDS) {
      List<String> runs = new ArrayList<>();
      Value result = HostRunner.compile(program, recording(backend, runs)).call("main", args);
      assertEquals(ValueWriter.write(interpreted), ValueWriter.write(result), backend.name());
      assertEquals(interpreted, result, backend.name());
      assertEquals(List.of("map"), runs, backend.name() + " ran the map as a kernel");
    }
  }

  /** {@code backend}, adding the kind of each kernel it runs to {@code runs}. */
  static KernelExecutor recording(KernelExecutor backend, List<String> runs) {
    return EveryBackend.watching(backend, runs::add, error -> {});
  }

  @Test
  void everyKernelRunsOnEveryBackendWithTheInterpretersResult() {
    List<String> problems = new ArrayList<>();
    int kernels = 0;
    for (int seed = 0; seed < PROGRAMS; seed++) {
      ProgramCase c = RandomPrograms.kernelArrayProgram(seed);
      OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
      kernels += optimized.kernelPlan().kernels().size();
      problems.addAll(problemsOnEveryBackend("seed " + seed, c, optimized));
    }
    System.out.println(
        "kernel array programs: "
            + PROGRAMS
            + " programs, "
            + kernels
            + " kernels, "
            + problems.size()
            + " problems");
    assertEquals(List.of(), problems.stream().limit(3).toList(), problems.size() + " problems");
  }

  /**
   * How {@code c}, optimised to {@code optimized}, fails to run on every backend as the others and
   * the interpreter do (where no float reduction's order differs from the interpreter's): a kernel
   * that does not lower, or an outcome unlike the first backend's or the interpreter's; each
   * problem named by {@code label}.
   */
  static List<String> problemsOnEveryBackend(
      String label, ProgramCase c, OptimizedProgram optimized) {
    List<String> problems = new ArrayList<>();
    String interpreted =
        RandomProgramSimulationTest.outcome(
            () -> new Interpreter(c.program()).call(c.entry(), c.args()));
    boolean floatReduction = RandomProgramSimulationTest.hasFloatReduction(optimized.internal());
    String first = null;
    for (KernelExecutor backend : BACKENDS) {
      String name = backend.name() + " #" + BACKENDS.indexOf(backend);
      HostRunner runner;
      try {
        runner = new HostRunner(optimized, backend);
      } catch (L0CompileError notLowered) {
        problems.add(label + " does not lower: " + notLowered.getMessage() + "\n" + c);
        break;
      }
      String simulated =
          RandomProgramSimulationTest.outcome(() -> runner.call(c.entry(), c.args()));
      if (first == null) {
        first = simulated;
      } else if (!first.equals(simulated)) {
        problems.add(
            label
                + ": "
                + name
                + " gives "
                + simulated
                + ", the first backend "
                + first
                + "\n"
                + c);
      }
      if ((!floatReduction || interpreted.startsWith("failure"))
          && !interpreted.equals(simulated)) {
        problems.add(
            label
                + ": "
                + name
                + " gives "
                + simulated
                + ", the interpreter "
                + interpreted
                + "\n"
                + c);
      }
    }
    return problems;
  }
}
