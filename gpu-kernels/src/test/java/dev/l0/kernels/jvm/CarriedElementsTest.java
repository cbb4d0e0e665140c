package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.InterleavedRows;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Loops inside a thread that read back the element their previous iteration stored keep it in a
 * local ({@link CarriedElements}): which loops do (the Java declares the locals), and that the
 * results stay the interpreter's bit for bit, on forward and backward sweeps and on LocVolCalib.
 */
class CarriedElementsTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  /**
   * A forward sweep ({@code b[i]} from {@code b[i - 1]}, one division per step, as a tridiagonal
   * solve's) and a backward one ({@code c[i]} from {@code c[i + 1]}).
   */
  private static final String SWEEPS =
      """
      fun [f64] main ([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) =>
              let n = size(0, ys) in
              loop (b = map(fn f64 (f64 y) => y + x, ys)) = for s < n - 1 do
                let i = s + 1 in
                let b[i] = b[i] - x / b[i - 1] in b
              in
              loop (c = copy(b)) = for s < n - 1 do
                let i = n - 2 - s in
                let c[i] = (c[i] - 0.25 * c[i + 1]) / b[i] in c
              in c[0] + b[n - 1],
            xs)
      """;

  /** A sweep that also writes the element it reads back: memory and a local could differ. */
  private static final String OVERWRITTEN =
      """
      fun [f64] main ([f64] xs, [f64] ys) =
        map(fn f64 (f64 x) =>
              let n = size(0, ys) in
              loop (b = map(fn f64 (f64 y) => y + x, ys)) = for s < n - 1 do
                let i = s + 1 in
                let b[i] = b[i] - x / b[i - 1] in
                let b[s] = b[s] * 0.5 in b
              in b[n - 1],
            xs)
      """;

  @Test
  void forwardAndBackwardSweepsKeepTheElementInALocalWithTheInterpretersBits() {
    String source =
        JvmGroupRunner.javaSource(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(SWEEPS, "sweeps.l0")).get(0));
    assertEquals(2, count(source, "boolean stored\\$\\d+ = false;"), source);
    assertTrue(source.contains("carried$0 = "), source);
    assertSameAsInterpreter(SWEEPS, values(6, 1), values(100, 2));
    assertSameAsInterpreter(SWEEPS, values(3, 3), values(2, 4));
    assertSameAsInterpreter(SWEEPS, values(3, 5), values(1, 6));
  }

  @Test
  void aLoopThatAlsoStoresToThePartItReadsBackReadsMemory() {
    String source =
        JvmGroupRunner.javaSource(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(
                    L0Parser.parse(OVERWRITTEN, "overwritten.l0"))
                .get(0));
    assertFalse(source.contains("carried$"), source);
    assertSameAsInterpreter(OVERWRITTEN, values(4, 7), values(50, 8));
  }

  @Test
  void locVolCalibsTridiagonalSweepsKeepTheirElementsInLocalsWithTheInterpretersBits()
      throws IOException {
    Program program = locVolCalib();
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    KernelPlan plan = optimized.kernelPlan();
    KernelPlan.Kernel main = plan.kernels().get(0);
    Kernel kernel =
        KernelLowering.lower(plan, main, LaunchConfiguration.THREAD_PER_ROW).kernels().get(0);
    // bb and yy forward, yy backward: in the solve along y and the one along x, for each of the
    // rows they run at once (InterleavedRows), and in the solve along x's copy for a grid without
    // rows (the lowering's path for a map over zero rows)
    assertEquals(
        3 * 2 * InterleavedRows.ROWS + 3,
        count(JvmGroupRunner.javaSource(kernel), "boolean stored\\$\\d+ = false;"),
        kernel.name());
    // outer, numX (long enough to run the volatility map lane-wise), numY, numT, s0, t, alpha,
    // nu, beta
    List<Value> args =
        List.of(
            ScalarValue.i32(3),
            ScalarValue.i32(InnerLoopStages.MIN_ITERATIONS + 6),
            ScalarValue.i32(9),
            ScalarValue.i32(5),
            ScalarValue.f64(0.03),
            ScalarValue.f64(5.0),
            ScalarValue.f64(0.2),
            ScalarValue.f64(0.6),
            ScalarValue.f64(0.5));
    assertEquals(
        new Interpreter(program).call("main", args),
        HostRunner.compile(program, JVM).call("main", args));
  }

  private static Program locVolCalib() throws IOException {
    String resource = "/programs/finpar/LocVolCalib.l0";
    try (InputStream in = CarriedElementsTest.class.getResourceAsStream(resource)) {
      return L0Parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
    }
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static void assertSameAsInterpreter(String text, double[] xs, double[] ys) {
    Program program = L0Parser.parse(text, "carried.l0");
    List<Value> args = List.of(Value.Array.ofF64(xs), Value.Array.ofF64(ys));
    assertEquals(
        new Interpreter(program).call("main", args),
        HostRunner.compile(program, JVM).call("main", args));
  }

  /** {@code n} values of both signs and many magnitudes, a zero and a NaN among them. */
  private static double[] values(int n, long seed) {
    java.util.Random random = new java.util.Random(seed);
    double[] values = new double[n];
    for (int k = 0; k < n; k++) {
      values[k] =
          k == 3
              ? 0.0
              : k == 5 ? Double.NaN : (random.nextDouble() + 0.1) * Math.pow(10, k % 5 - 2);
    }
    return values;
  }
}
