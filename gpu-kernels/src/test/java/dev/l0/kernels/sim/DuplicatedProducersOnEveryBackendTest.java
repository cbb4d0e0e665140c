package dev.l0.kernels.sim;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The thesis's R1 (Fig. 42) and R2 (Fig. 44) maps, which the optimiser duplicates into their
 * consumers ({@code FUSE-DUPLICATE-CHEAP-PRODUCER}), run as the fewer kernels that makes on the
 * simulator (blocks of 1 and 32 threads) and the JVM backend, with the interpreter's results bit
 * for bit. R2's sum adds whole numbers, so that every order of the parallel reduction gives the
 * interpreter's left fold exactly.
 */
class DuplicatedProducersOnEveryBackendTest {
  @Test
  void r1Fig42MapRunsInsideItsTwoConsumersKernels() {
    // The two consumers, copies of the map inside, then join (FUSE-CLUSTER): one kernel.
    assertRunsAs(
        List.of("map"),
        """
        fun {[[f64]], [[f64]]} main([f64] x, [f64] y, f64 c) =
          let varX = map(fn [f64] (f64 xi) =>
                           let l = 0.5 * log(xi) in
                           map(fn f64 (f64 yj) => exp(2.0 * (l + yj - c)), y), x) in
          {map(fn [f64] ([f64] row) => map(fn f64 (f64 v) => v * 0.25, row), varX),
           map(fn [f64] ([f64] row) => map(fn f64 (f64 v) => v + 1.0, row), varX)}
        """,
        "[1.5, 0.25, 3e5, 7.0, 2.0] [-0.5, 0.1, 2.25] 0.75");
  }

  @Test
  void r2Fig44MapAndItsTwoReductionsRunAsOneKernel() {
    assertRunsAs(
        List.of("redomap"),
        """
        fun {f64, f64} main([f64] a, [f64] b, [f64] c, [f64] d, f64 mux) =
          let {s, t} = unzip(map(fn {f64, f64} ({f64, f64, f64, f64} r) =>
                                 let {x, y, z, w} = r in
                                 let baix = x * mux in
                                 {z * exp(-baix), (w - baix) / y},
                               zip(a, b, c, d))) in
          {reduce(op +, 0.0, s), reduce(fn f64 (f64 p, f64 q) => if p < q then q else p, -1e308, t)}
        """,
        "[0.5, -2.0, 1e3, 4.0] [3.0, 0.1, -7.5, 2.0] [1.0, 2.0, 3.0, 5.0] [4.0, -5.0, 6e-300, 1.0] 0.0");
  }

  private static void assertRunsAs(List<String> kernels, String source, String input) {
    EveryBackend.assertRunsAs(kernels, source, "duplicated.l0", input);
  }
}
