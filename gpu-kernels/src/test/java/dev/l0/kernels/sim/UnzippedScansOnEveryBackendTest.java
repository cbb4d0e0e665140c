package dev.l0.kernels.sim;

import dev.l0.ir.Program;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code unzip} of a scan over zipped arrays, written as the thesis writes it (the operator takes
 * the tuples' components as separate parameters, or whole tuples it takes apart with {@code let}),
 * runs as one scan kernel on the simulator (blocks of 1 and 32 threads) and the JVM backend with
 * the interpreter's results, over no rows and over more rows than one chunk holds, and prints as
 * CUDA C that {@code nvcc} compiles where it is installed.
 */
class UnzippedScansOnEveryBackendTest {
  private static final String SPREAD_OPERATOR =
      """
      fun {[i32], [f64]} main([i32] xs, [f64] ys) =
        unzip(scan(fn {i32, f64} (i32 a, f64 b, i32 c, f64 d) => {a + c, b + d},
                   {0, 0.0}, zip(xs, ys)))
      """;

  private static final String TUPLE_OPERATOR_BOUND_BY_LET =
      """
      fun {[i32], [i32]} main([i32] xs, [i32] ys) =
        let {a, b} = unzip(scan(fn {i32, i32} ({i32, i32} x, {i32, i32} y) =>
                                  let {x0, x1} = x in
                                  let {y0, y1} = y in
                                  {x0 + y0, max(x1, y1)},
                                {0, -2147483648}, zip(xs, ys))) in
        {a, b}
      """;

  @Test
  void anUnzippedScanWithASpreadOperatorRunsAsOneScanKernel() {
    assertRunsAs(SPREAD_OPERATOR, "[] []");
    assertRunsAs(SPREAD_OPERATOR, "[1, 2, 3, -4] [0.5, 0.25, 1.0, -2.0]");
    assertRunsAs(SPREAD_OPERATOR, integers(5000, 7) + " " + halves(5000));
  }

  @Test
  void anUnzippedScanWithATupleOperatorRunsAsOneScanKernel() {
    assertRunsAs(TUPLE_OPERATOR_BOUND_BY_LET, "[] []");
    assertRunsAs(TUPLE_OPERATOR_BOUND_BY_LET, "[1, 2, 3] [5, -1, 9]");
    assertRunsAs(TUPLE_OPERATOR_BOUND_BY_LET, integers(5000, 7) + " " + integers(5000, 1013));
  }

  private static void assertRunsAs(String source, String input) {
    Program program = EveryBackend.assertRunsAs(List.of("scan"), source, "unzipped.l0", input);
    EveryBackend.assertPrintsCompilableCuda(program, "unzipped");
  }

  /** {@code n} integers that cycle through {@code -modulus/2 .. modulus/2}, as an L0 array. */
  private static String integers(int n, int modulus) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      text.append(i == 0 ? "" : ", ").append((i * 31) % modulus - modulus / 2);
    }
    return text.append(']').toString();
  }

  /** {@code n} multiples of one half, whose partial sums are exact in every order. */
  private static String halves(int n) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      text.append(i == 0 ? "" : ", ").append((i % 9 - 4) * 0.5);
    }
    return text.append(']').toString();
  }
}
