package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Horizontal fusion (seed 001's with-loop fusion, {@code FUSE-HORIZONTAL}): independent reductions
 * over arrays of one outer size (one array, or arrays whose types name one size, or whose sizes an
 * assertion in scope shows equal) become one redomap, one pass over the arrays, with every result
 * bit-identical to the reference interpreter; reductions that depend on each other, that may both
 * fail, or whose sizes nothing shows equal, stay apart. One that may fail joins one that cannot:
 * the pass fails where it does, with its error. A reduction and a map over arrays of one outer size
 * ({@code FUSE-HORIZONTAL-MAP}) become one screma, whose pass yields the accumulators and the map's
 * array, under the same conditions, and two maps of scalar rows that the clustering left apart
 * ({@code FUSE-HORIZONTAL-MAPS}) one map.
 */
class HorizontalFusionTest {
  private static final String REALS = "[3.5, -1.25, 1e300, -0.1, 7.0, 2.5e-300, 0.3]";

  @Test
  void minMaxAndSumOfOneArrayAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real, real} main([real] a) =
          {reduce(fn real (real x, real y) => if x < y then x else y, 1e308, a),
           reduce(fn real (real x, real y) => if x < y then y else x, -1e308, a),
           reduce(op +, 0.0, map(fn real (real x) => x * x, a))}
        """);
    assertEquals(List.of("redomap"), c.kernelStructures());
    assertEquals(
        1, c.optimized().kernelPlan().kernels().get(0).inputs().size(), "the array is read once");
    String kernel =
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel 1: "))
            .findFirst()
            .orElseThrow();
    assertTrue(
        kernel.endsWith("; fused by FUSE-MAP-REDOMAP, FUSE-HORIZONTAL")
            || kernel.endsWith("; fused by FUSE-HORIZONTAL, FUSE-MAP-REDOMAP"),
        kernel);
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  @Test
  void reductionsOfTwoArraysWhoseSizesNothingShowsEqualStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real} main([real] a, [real] b) = {reduce(op +, 0.0, a), reduce(op +, 0.0, b)}
        """);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures());
    c.assertSameResult("main", REALS + " [1.5, 2.5]");
  }

  /**
   * {@code xs} and {@code ys} have differently named sizes, which the assertion of the {@code zip}
   * (whose first row is read) checks equal: their reductions are one pass over both arrays, and
   * where the sizes differ the assertion fails before it, as it did.
   */
  @Test
  void reductionsOfTwoArraysThatAZipShowsOfOneSizeAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real, real} main([real] xs, [real] ys) =
          let z = zip(xs, ys) in
          let {x, y} = z[0] in
          {reduce(op +, 0.0, xs), reduce(fn real (real a, real b) => if a < b then b else a, -1e308, ys), x * y}
        """);
    assertEquals(List.of("redomap"), c.kernelStructures(), c.optimized()::explain);
    assertEquals(
        2, c.optimized().kernelPlan().kernels().get(0).inputs().size(), "both arrays, one pass");
    assertTrue(firstKernel(c).endsWith("; fused by FUSE-HORIZONTAL"), firstKernel(c));
    c.assertSameResult("main", REALS + " " + REALS.replace("-", ""));
    assertFailsInTheZip(c, REALS + " [1.0, 2.0]");
  }

  /**
   * A zip inside a loop checks its sizes before the loop, hoisted as {@code no_iteration || n = m}:
   * that shows the sizes equal inside the loop only, so the reductions beside it stay apart, and
   * with no iteration arrays of different sizes give their sums.
   */
  @Test
  void reductionsOfArraysThatOnlyALoopsHoistedZipCheckShowsOfOneSizeStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real, real} main([real] xs, [real] ys, int k) =
          let r = loop (acc = 0.0) = for i < k do
            (let z = zip(xs, ys) in
             let {x, y} = z[i] in
             acc + x * y) in acc in
          {reduce(op +, 0.0, xs), reduce(op +, 0.0, ys), r}
        """);
    assertTrue(c.optimized().explain().contains(" || "), c.optimized()::explain);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1.0, 2.0] [3.0] 0");
    c.assertSameResult("main", REALS + " " + REALS + " 2");
  }

  /**
   * On arrays of different sizes, the optimised program fails where the interpreter does, in the
   * zip's check (whose message the optimiser's assertion words its own way).
   */
  private static void assertFailsInTheZip(Compiled c, String args) {
    L0RuntimeError e = assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", args));
    assertEquals("zip", e.operation(), e::getMessage);
  }

  /** A scan's prefixes have its input's size: their maximum and the input's sum are one pass. */
  @Test
  void reductionsOfAScanAndOfItsInputAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real} main([real] xs) =
          let ps = scan(op +, 0.0, xs) in
          {reduce(fn real (real a, real b) => if a < b then b else a, -1e308, ps), reduce(op +, 0.0, xs)}
        """);
    assertEquals(List.of("scan", "redomap"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(c.optimized().explain().contains("redomap in main: (ps_"), c.optimized()::explain);
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  /** A reduction of one array and a map of another of one size, shown by a zip, are one pass. */
  @Test
  void aReductionAndAMapOfTwoArraysOfOneSizeAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [real], real} main([real] xs, [real] ys) =
          let z = zip(xs, ys) in
          let {x, y} = z[0] in
          {reduce(op +, 0.0, xs), map(fn real (real y) => y * 0.5, ys), x - y}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(firstKernel(c).endsWith("; fused by FUSE-HORIZONTAL-MAP"), firstKernel(c));
    c.assertSameResult("main", REALS + " " + REALS.replace("-", ""));
    assertFailsInTheZip(c, "[1.0] [1.0, 2.0]");
  }

  @Test
  void aReductionAndAMapOfArraysWhoseSizesNothingShowsEqualStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [real]} main([real] xs, [real] ys) =
          {reduce(op +, 0.0, xs), map(fn real (real y) => y * 0.5, ys)}
        """);
    assertEquals(List.of("reduce", "map"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", REALS + " [1.0, 2.0]");
  }

  @Test
  void aReductionOfAnotherArrayOfOneSizeThatReadsTheFirstsResultStaysApart() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real} main([real] xs, [real] ys) =
          let z = zip(xs, ys) in
          let {x, y} = z[0] in
          let s = reduce(op +, 0.0, xs) in
          {reduce(fn real (real a, real b) => a + b * s, 0.0, ys), x + y}
        """);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", REALS + " " + REALS);
  }

  @Test
  void aReductionThatReadsAnotherOnesResultStaysApart() {
    Compiled c =
        Compiled.of(
            """
        fun real main([real] a) =
          let s = reduce(op +, 0.0, a) in
          reduce(fn real (real x, real y) => x + y * s, 0.0, a)
        """);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures());
    c.assertSameResult("main", REALS);
  }

  @Test
  void aReductionThatMayFailJoinsOneThatCannotAndFailsAsItDid() {
    Compiled c =
        Compiled.of(
            """
        fun {int, int} main([int] a) = {reduce(op +, 0, a), reduce(fn int (int x, int y) => x / y, 1, a)}
        """);
    assertEquals(List.of("redomap"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2, -3]");
    c.assertSameFailure("main", "[1, 0, 2]");
  }

  @Test
  void twoReductionsThatMayBothFailJoinAndFailAsTheFailureOrderPlan() {
    Compiled c =
        Compiled.of(
            """
        fun {int, int} main([int] a, [int] is) =
          {reduce(fn int (int x, int y) => x + is[y], 0, a), reduce(fn int (int x, int y) => x / y, 1, a)}
        """);
    assertEquals(List.of("redomap"), c.kernelStructures(), c.optimized()::explain);
    assertEquals(List.of("reduce", "reduce"), c.failureOrderStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2] [5, 6, 7]");
    c.assertSameFailure("main", "[0, 7] [5, 6, 7]");
  }

  /** The line of {@code explain} of the first kernel. */
  private static String firstKernel(Compiled c) {
    return c.optimized()
        .explain()
        .lines()
        .filter(l -> l.startsWith("kernel 1: "))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aReductionAndAMapOfOneArrayAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {f64, [f64]} main([f64] xs) =
          let s = reduce(op +, 0.0, xs) in
          let ys = map(fn f64 (f64 x) => x * 2.0, xs) in
          {s, ys}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(firstKernel(c).endsWith("; fused by FUSE-HORIZONTAL-MAP"), firstKernel(c));
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  @Test
  void aReductionAndAMapOfOneMapProducerAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [real]} main([real] xs) =
          let zs = map(fn real (real x) => x * x + 1.0, xs) in
          {reduce(op +, 0.0, zs), map(fn real (real z) => z / 3.0, zs)}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(firstKernel(c).contains("FUSE-HORIZONTAL-MAP"), firstKernel(c));
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  @Test
  void minMaxSumAndAMapOfOneArrayAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [real], real, real} main([real] a) =
          {reduce(fn real (real x, real y) => if x < y then x else y, 1e308, a),
           map(fn real (real x) => x - 0.5, a),
           reduce(fn real (real x, real y) => if x < y then y else x, -1e308, a),
           reduce(op +, 0.0, a)}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertEquals(
        1, c.optimized().kernelPlan().kernels().get(0).inputs().size(), "the array is read once");
    assertTrue(firstKernel(c).contains("FUSE-HORIZONTAL"), firstKernel(c));
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  @Test
  void aReductionAndAMapOfArrayRowsOfAKnownSizeAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [[real]]} main([real] xs, [real] ws) =
          let s = reduce(op +, 0.0, xs) in
          let ys = map(fn [real] (real x) => map(fn real (real w) => x * w, ws), xs) in
          {s, ys}
        """);
    assertEquals(List.of("screma{map}"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(firstKernel(c).endsWith("; fused by FUSE-HORIZONTAL-MAP"), firstKernel(c));
    c.assertSameResult("main", REALS + " [2.0, -0.5, 3.25]");
    c.assertSameResult("main", REALS + " []");
    c.assertSameResult("main", "[] [1.0]");
  }

  @Test
  void aMapOfArrayRowsThatMayFailJoinsAReductionThatCannotAndFailsAsItDid() {
    Compiled c =
        Compiled.of(
            """
        fun {int, [[int]]} main([int] xs, [int] ws) =
          {reduce(op +, 0, xs), map(fn [int] (int x) => map(fn int (int w) => w / x, ws), xs)}
        """);
    assertEquals(List.of("screma{map}"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2, -3] [6, 7]");
    c.assertSameFailure("main", "[1, 0, 2] [6, 7]");
  }

  @Test
  void aMapThatReadsTheReductionsResultStaysApart() {
    Compiled c =
        Compiled.of(
            """
        fun [real] main([real] a) =
          let s = reduce(op +, 0.0, a) in
          map(fn real (real x) => x - s, a)
        """);
    assertEquals(List.of("reduce", "map"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", REALS);
  }

  @Test
  void aMapThatMayFailJoinsAReductionThatCannotAndFailsAsItDid() {
    Compiled c =
        Compiled.of(
            """
        fun {int, [int]} main([int] a) = {reduce(op +, 0, a), map(fn int (int x) => 12 / x, a)}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2, -3]");
    c.assertSameFailure("main", "[1, 0, 2]");
  }

  @Test
  void aMapAndAReductionThatMayBothFailJoinAndFailAsTheFailureOrderPlan() {
    Compiled c =
        Compiled.of(
            """
        fun {int, [int]} main([int] a) =
          {reduce(fn int (int x, int y) => x / y, 1, a), map(fn int (int x) => 12 / x, a)}
        """);
    assertEquals(List.of("screma"), c.kernelStructures(), c.optimized()::explain);
    assertEquals(List.of("reduce", "map"), c.failureOrderStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2, -3]");
    c.assertSameFailure("main", "[1, 0, 2]");
  }

  /** Maps of two arrays whose sizes a zip checks equal, sharing no input, are one map. */
  @Test
  void mapsOfTwoArraysThatAZipShowsOfOneSizeAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real], real} main([real] xs, [real] ys) =
          let z = zip(xs, ys) in
          let {x, y} = z[0] in
          {map(fn real (real v) => v * 2.0, xs), map(fn real (real v) => v + 1.0, ys), x + y}
        """);
    assertEquals(List.of("map"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(firstKernel(c).endsWith("; fused by FUSE-HORIZONTAL-MAPS"), firstKernel(c));
    c.assertSameResult("main", REALS + " " + REALS.replace("-", ""));
    assertFailsInTheZip(c, "[1.0] [1.0, 2.0]");
  }

  /**
   * A scan shares its input with one map and its prefixes feed another: the clustering puts the
   * scan with the map of its input, and the two maps, of one size, join after it.
   */
  @Test
  void mapsOfAScanAndOfItsInputAreOnePass() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] xs) =
          let ps = scan(op +, 0.0, xs) in
          {map(fn real (real p) => p * 0.5, ps), map(fn real (real x) => x - 1.0, xs)}
        """);
    assertEquals(List.of("scan", "map"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(
        c.optimized().explain().contains("; fused by FUSE-HORIZONTAL-MAPS"),
        c.optimized()::explain);
    c.assertSameResult("main", REALS);
    c.assertSameResult("main", "[]");
  }

  @Test
  void mapsOfArraysWhoseSizesNothingShowsEqualStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] xs, [real] ys) =
          {map(fn real (real v) => v * 2.0, xs), map(fn real (real v) => v + 1.0, ys)}
        """);
    assertEquals(List.of("map", "map"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", REALS + " [1.0, 2.0]");
  }

  @Test
  void aMapOfAnotherArrayOfOneSizeThatReadsTheFirstsResultStaysApart() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] xs) =
          let ps = scan(op +, 0.0, xs) in
          let ys = map(fn real (real x) => x - 1.0, xs) in
          {ys, map(fn real (real p) => p * ys[0], ps)}
        """);
    assertEquals(List.of("scan", "map", "map"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", REALS);
  }
}
