package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Horizontal fusion changes no float result on a backend: the min, the max and the sum of one
 * array, joined into one redomap kernel, equal bit for bit each reduction run as its own kernel, on
 * the simulator (small blocks, so the multi-block tree runs) and on the JVM backend, for sizes
 * around the chunk size; nor does joining a map to them ({@code FUSE-HORIZONTAL-MAP}): the one
 * screma kernel gives the reductions' and the map's own kernels' results; nor does joining the
 * reductions and the map of two arrays whose sizes a zip checks, one kernel reading both.
 */
class HorizontalFusionSimulationTest {
  private static final String MIN =
      "reduce(fn f64 (f64 x, f64 y) => if x < y then x else y, 1e308, a)";
  private static final String MAX =
      "reduce(fn f64 (f64 x, f64 y) => if x < y then y else x, -1e308, a)";
  private static final String SUM = "reduce(op +, 0.0, a)";
  private static final String SHIFTED = "map(fn f64 (f64 x) => x * 0.5 - 1.0, a)";

  private static Program program(String returnType, String body) {
    return L0Parser.parse("fun " + returnType + " main([f64] a) = " + body, "horizontal.l0");
  }

  private static Value run(Program program, KernelExecutor backend, Value array) {
    return HostRunner.compile(program, backend).call("main", List.of(array));
  }

  private static double first(Value array) {
    return ((ScalarValue.Float) ((Value.Array) array).elements().get(0)).value();
  }

  /** {@code n} doubles of mixed signs and magnitudes. */
  private static Value reals(int n) {
    return reals(n, n);
  }

  /** {@code n} doubles of mixed signs and magnitudes, drawn from {@code seed}. */
  private static Value reals(int n, long seed) {
    Random random = new Random(seed);
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      elements.add(
          ScalarValue.f64((random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(12) - 6)));
    }
    return new Value.Array(ScalarType.F64, elements);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 255, 4097, 20_000})
  void joinedReductionsEqualTheirOwnKernelsBitForBit(int n) {
    Program joined = program("{f64, f64, f64}", "{" + MIN + ", " + MAX + ", " + SUM + "}");
    assertEquals(1, Optimizer.optimize(TypeChecker.check(joined)).kernelPlan().kernels().size());
    Value array = reals(n);
    for (KernelExecutor backend : List.of(new SimulatorExecutor(4), new JvmKernelExecutor())) {
      List<Value> alone = new ArrayList<>();
      for (String reduction : List.of(MIN, MAX, SUM)) {
        alone.add(run(program("f64", reduction), backend, array));
      }
      assertEquals(
          new Value.Tuple(alone),
          run(joined, backend, array),
          backend.name() + " with " + n + " elements");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 255, 4097, 20_000})
  void reductionsJoinedWithAMapEqualTheirOwnKernelsBitForBit(int n) {
    Program joined =
        program(
            "{f64, [f64], f64, f64}", "{" + MIN + ", " + SHIFTED + ", " + MAX + ", " + SUM + "}");
    assertEquals(
        List.of("screma"),
        Optimizer.optimize(TypeChecker.check(joined)).kernelPlan().kernels().stream()
            .map(k -> k.kind().keyword())
            .toList());
    Value array = reals(n);
    for (KernelExecutor backend : List.of(new SimulatorExecutor(4), new JvmKernelExecutor())) {
      List<Value> alone = new ArrayList<>();
      alone.add(run(program("f64", MIN), backend, array));
      alone.add(run(program("[f64]", SHIFTED), backend, array));
      alone.add(run(program("f64", MAX), backend, array));
      alone.add(run(program("f64", SUM), backend, array));
      assertEquals(
          new Value.Tuple(alone),
          run(joined, backend, array),
          backend.name() + " with " + n + " elements");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 255, 4097, 20_000})
  void reductionsAndAMapOfTwoArraysOfOneSizeJoinedEqualTheirOwnKernelsBitForBit(int n) {
    Program joined =
        L0Parser.parse(
            "fun {f64, f64, [f64], f64} main([f64] a, [f64] b) = "
                + "let z = zip(a, b) in let {x, y} = z[0] in {"
                + MIN
                + ", "
                + SUM.replace(", a)", ", b)")
                + ", "
                + SHIFTED.replace(", a)", ", b)")
                + ", x + y}",
            "two-arrays.l0");
    assertEquals(
        List.of("screma"),
        Optimizer.optimize(TypeChecker.check(joined)).kernelPlan().kernels().stream()
            .map(k -> k.kind().keyword())
            .toList());
    Value a = reals(n);
    Value b = reals(n, -n);
    for (KernelExecutor backend : List.of(new SimulatorExecutor(4), new JvmKernelExecutor())) {
      List<Value> alone = new ArrayList<>();
      alone.add(run(program("f64", MIN), backend, a));
      alone.add(run(program("f64", SUM), backend, b));
      alone.add(run(program("[f64]", SHIFTED), backend, b));
      alone.add(ScalarValue.f64(first(a) + first(b)));
      assertEquals(
          new Value.Tuple(alone),
          HostRunner.compile(joined, backend).call("main", List.of(a, b)),
          backend.name() + " with " + n + " elements");
    }
  }
}
