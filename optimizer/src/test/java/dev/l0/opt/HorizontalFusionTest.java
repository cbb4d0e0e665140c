package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Horizontal fusion (seed 001's with-loop fusion, {@code FUSE-HORIZONTAL}): independent reductions
 * over one array become one redomap, one pass over the array, with every result bit-identical to
 * the reference interpreter; reductions that depend on each other, or that may both fail, stay
 * apart. One that may fail joins one that cannot: the pass fails where it does, with its error. A
 * reduction and a map of one array ({@code FUSE-HORIZONTAL-MAP}) become one screma, whose pass
 * yields the accumulators and the map's array, under the same conditions.
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
  void reductionsOfTwoArraysOfOneSizeThatShareNoInputStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {real, real} main([real] a, [real] b) = {reduce(op +, 0.0, a), reduce(op +, 0.0, b)}
        """);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures());
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
  void twoReductionsThatMayFailStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {int, int} main([int] a, [int] is) =
          {reduce(fn int (int x, int y) => x + is[y], 0, a), reduce(fn int (int x, int y) => x / y, 1, a)}
        """);
    assertEquals(List.of("reduce", "reduce"), c.kernelStructures(), c.optimized()::explain);
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
  void aMapAndAReductionThatMayBothFailStayApart() {
    Compiled c =
        Compiled.of(
            """
        fun {int, [int]} main([int] a) =
          {reduce(fn int (int x, int y) => x / y, 1, a), map(fn int (int x) => 12 / x, a)}
        """);
    assertEquals(List.of("reduce", "map"), c.kernelStructures(), c.optimized()::explain);
    c.assertSameResult("main", "[1, 2, -3]");
    c.assertSameFailure("main", "[1, 0, 2]");
  }
}
