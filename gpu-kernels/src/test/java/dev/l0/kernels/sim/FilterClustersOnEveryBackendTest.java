package dev.l0.kernels.sim;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's filter clusters run as the kernels the clustering makes, on the simulator (blocks of 1
 * and 32 threads) and the JVM backend, with the interpreter's results bit for bit: a map feeding a
 * filter feeding a map is one filtermap (flags, a scan of counts and a scatter, with both maps'
 * work fused in), and normalize2 is the paper's two loops, {sum1, gts, sum2} and {ys1, ys2}.
 */
public class FilterClustersOnEveryBackendTest {
  /** A map feeding a filter feeding a map. */
  public static final String MAP_FILTER_MAP =
      """
      fun [int] main([int] xs) =
        let ys = map(fn int (int x) => x * 3 + 1, xs) in
        let zs = filter(fn bool (int y) => y % 2 = 0, ys) in
        map(fn int (int z) => z - 7, zs)
      """;

  /** Seed 002's normalize2 (§1), on reals so that no division fails. */
  public static final String NORMALIZE2 =
      """
      fun {[real], [real]} main([real] xs) =
        let sum1 = reduce(op +, 0.0, xs) in
        let gts = filter(fn bool (real x) => x > 0.0, xs) in
        let sum2 = reduce(op +, 0.0, gts) in
        let ys1 = map(fn real (real x) => x / sum1, xs) in
        let ys2 = map(fn real (real x) => x / sum2, xs) in
        {ys1, ys2}
      """;

  @Test
  void mapFilterMapIsOneFiltermapKernel() {
    List<Integer> xs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      xs.add((i * 37) % 23 - 11);
    }
    assertRunsAs(List.of("filtermap"), MAP_FILTER_MAP, xs.toString());
    assertRunsAs(List.of("filtermap"), MAP_FILTER_MAP, "[]");
    assertRunsAs(List.of("filtermap"), MAP_FILTER_MAP, "[1, 3, 5]");
  }

  @Test
  void normalize2IsTwoKernels() {
    // Whole numbers and halves: every order of the parallel sums gives the left fold's bits.
    assertRunsAs(
        List.of("redomap", "map"),
        NORMALIZE2,
        "[1.5, -2.0, 3.0, 0.5, -4.5, 8.0, 2.0, -1.0, 6.5, 7.0, -3.0, 0.0, 9.5, 1.0, 2.5, -8.0, 4.0]");
  }

  private static void assertRunsAs(List<String> kernels, String source, String input) {
    EveryBackend.assertRunsAs(kernels, source, "clusters.l0", input);
  }
}
