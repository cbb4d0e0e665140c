package dev.l0.kernels.sim;

import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's filter clusters run as the kernels the clustering makes, on the simulator (blocks of 1
 * and 32 threads) and the JVM backend, with the interpreter's results bit for bit: a map feeding a
 * filter feeding a map is one filtermap (flags, a scan of counts and a scatter, with both maps'
 * work fused in), normalize2 is the paper's two loops, {sum1, gts, sum2} and {ys1, ys2}, and
 * closest points and quadtree are the loop counts Fig. 7 reports, several filters of one array in
 * one filtermap kernel; a sum of kept values that are also returned is folded in the filter's own
 * pass.
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

  /**
   * One level of seed 002's closest points (§5, Fig. 7), each half's closest pair by brute force
   * where the paper recurses (a call of a recursive function runs on the host, so a backend runs
   * the kernels of a body inlined into {@code main}).
   */
  public static final String CLOSEST_POINTS =
      """
      fun real dist(real ax, real ay, real bx, real by) = sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by))
      fun real brute([real] xs, [real] ys) =
        reduce(fn real (real a, real b) => if a < b then a else b, 1e308,
               map(fn real (real x, real y) =>
                     reduce(fn real (real a, real b) => if a < b then a else b, 1e308,
                            map(fn real (real u, real v) => if x = u && y = v then 1e308 else dist(x, y, u, v), zip(xs, ys))),
                   zip(xs, ys)))
      fun real main([real] xs, [real] ys) =
        let pivot = ys[0] in
        let {ax, ay} = unzip(filter(fn bool (real x, real y) => y >= pivot, zip(xs, ys))) in
        let {bx, by} = unzip(filter(fn bool (real x, real y) => y < pivot, zip(xs, ys))) in
        let above = brute(ax, ay) in
        let below = brute(bx, by) in
        let border = if above < below then above else below in
        let {abx, aby} = unzip(filter(fn bool (real x, real y) => y >= pivot && y < pivot + border, zip(xs, ys))) in
        let {bbx, bby} = unzip(filter(fn bool (real x, real y) => y < pivot && y >= pivot - border, zip(xs, ys))) in
        let cs = map(fn real (real x, real y) =>
                   reduce(fn real (real a, real b) => if a < b then a else b, 1e308,
                          map(fn real (real u, real v) => dist(x, y, u, v), zip(bbx, bby))),
                 zip(abx, aby)) in
        let bord = reduce(fn real (real a, real b) => if a < b then a else b, 1e308, cs) in
        if border < bord then border else bord
      """;

  @Test
  void quadtreeIsTwoKernelsTheFourQuartersInOnePass() {
    List<String> points = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      points.add("{%d.5, %d.25}".formatted((i * 37) % 41 - 20, (i * 53) % 29 - 14));
    }
    assertRunsAs(
        List.of("redomap", "filtermap"),
        TestPrograms.text(TestPrograms.ILP_QUADTREE),
        points.toString());
    assertRunsAs(
        List.of("redomap", "filtermap"),
        TestPrograms.text(TestPrograms.ILP_QUADTREE),
        "[{1.0, 2.0}]");
  }

  @Test
  void closestPointsFiltersEachPairOfHalvesInOnePass() {
    List<String> xs = new ArrayList<>();
    List<String> ys = new ArrayList<>();
    for (int i = 0; i < 90; i++) {
      xs.add("%d.5".formatted((i * 37) % 41 - 20));
      ys.add("%d.25".formatted((i * 53) % 29 - 14));
    }
    assertRunsAs(
        List.of("filtermap", "redomap", "redomap", "filtermap", "redomap"),
        CLOSEST_POINTS,
        xs + " " + ys);
  }

  /** The kept values of a filter cluster, and their sum: one pass (filter-reduce). */
  public static final String KEPT_AND_THEIR_SUM =
      """
      fun {[real], real} main([real] xs) =
        let ys = map(fn real (real x) => x * 1.5 - 2.0, xs) in
        let zs = filter(fn bool (real y) => y > 0.0, ys) in
        {zs, reduce(op +, 0.0, zs)}
      """;

  @Test
  void aSumOfKeptValuesIsFoldedInTheFiltersKernel() {
    List<String> xs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      xs.add("%d.0".formatted((i * 37) % 23 - 11));
    }
    // Whole numbers and halves: every order of the parallel sum gives the left fold's bits.
    assertRunsAs(List.of("filtermap"), KEPT_AND_THEIR_SUM, xs.toString());
    assertRunsAs(List.of("filtermap"), KEPT_AND_THEIR_SUM, "[]");
  }

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
