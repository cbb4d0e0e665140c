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
 * around the chunk size.
 */
class HorizontalFusionSimulationTest {
  private static final String MIN =
      "reduce(fn f64 (f64 x, f64 y) => if x < y then x else y, 1e308, a)";
  private static final String MAX =
      "reduce(fn f64 (f64 x, f64 y) => if x < y then y else x, -1e308, a)";
  private static final String SUM = "reduce(op +, 0.0, a)";

  private static Program program(String returnType, String body) {
    return L0Parser.parse("fun " + returnType + " main([f64] a) = " + body, "horizontal.l0");
  }

  private static Value run(Program program, KernelExecutor backend, Value array) {
    return HostRunner.compile(program, backend).call("main", List.of(array));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 255, 4097, 20_000})
  void joinedReductionsEqualTheirOwnKernelsBitForBit(int n) {
    Program joined = program("{f64, f64, f64}", "{" + MIN + ", " + MAX + ", " + SUM + "}");
    assertEquals(1, Optimizer.optimize(TypeChecker.check(joined)).kernelPlan().kernels().size());
    Random random = new Random(n);
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      elements.add(
          ScalarValue.f64((random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(12) - 6)));
    }
    Value array = new Value.Array(ScalarType.F64, elements);
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
}
