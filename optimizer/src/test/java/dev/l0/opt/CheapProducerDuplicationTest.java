package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cost-aware duplication ({@code FUSE-DUPLICATE-CHEAP-PRODUCER}, thesis §7.1.3 and ch. 10): a map
 * of cheap straight-line scalar code with several consumers fuses into each of them and disappears,
 * with results bit-identical to the reference interpreter (the thesis's R1 Fig. 42 and R2 Fig. 44
 * maps); a producer over the cost bound, or holding a loop, another SOAC, an operation that may
 * fail, or a use other than as a SOAC's input, is computed once. The consumers are a map and a
 * scan, which seed 002's clustering never joins into one map ({@code FUSE-CLUSTER}), so that the
 * duplication decides alone.
 */
class CheapProducerDuplicationTest {
  private static final String XS = "[1.5, 0.25, 3e5, 7.0]";
  private static final String YS = "[-0.5, 0.1, 2.25]";

  /**
   * Fig. 42: per row a log and a multiplication, per element an addition, a subtraction, a
   * multiplication and an exp.
   */
  private static final String R1_FIG_42 =
      """
      fun {[[real]], [[real]]} main([real] x, [real] y, real c) =
        let varX = map(fn [real] (real xi) =>
                         let l = 0.5 * log(xi) in
                         map(fn real (real yj) => exp(2.0 * (l + yj - c)), y), x) in
        {map(fn [real] ([real] row) => map(fn real (real v) => v * 0.25, row), varX),
         map(fn [real] ([real] row) => map(fn real (real v) => v + 1.0, row), varX)}
      """;

  /**
   * Fig. 44: one map computes two arrays, sharing one multiplication per element; a sum reads one,
   * a maximum the other.
   */
  private static final String R2_FIG_44 =
      """
      fun {real, real} main([real] a, [real] b, [real] c, [real] d, real mux) =
        let {s, t} = unzip(map(fn {real, real} ({real, real, real, real} r) =>
                               let {x, y, z, w} = r in
                               let baix = x * mux in
                               {z * exp(-baix), (w - baix) / y},
                             zip(a, b, c, d))) in
        {reduce(op +, 0.0, s), reduce(fn real (real p, real q) => if p < q then q else p, -1e308, t)}
      """;

  @Test
  void r1Fig42MapFusesIntoItsTwoConsumers() {
    Compiled c = Compiled.of(R1_FIG_42);
    // Its two consumers, maps whose rows are arrays (the check of their rows may fail), then join.
    assertEquals(List.of("map{map, map}"), c.kernelStructures(), c.optimized().explain());
    assertTrue(
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel "))
            .allMatch(
                l ->
                    !l.startsWith("kernel ")
                        || l.startsWith("kernels:")
                        || l.contains("FUSE-DUPLICATE-CHEAP-PRODUCER")),
        c.optimized().explain());
    c.assertSameResult("main", XS + " " + YS + " 0.75");
    c.assertSameResult("main", "[] " + YS + " 0.75");
  }

  @Test
  void r2Fig44MapFusesIntoBothReductionsWhichThenJoin() {
    Compiled c = Compiled.of(R2_FIG_44);
    assertEquals(List.of("redomap"), c.kernelStructures(), c.optimized().explain());
    String kernel =
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel 1: "))
            .findFirst()
            .orElseThrow();
    assertTrue(
        kernel.contains("FUSE-DUPLICATE-CHEAP-PRODUCER") && kernel.contains("FUSE-HORIZONTAL"),
        kernel);
    c.assertSameResult(
        "main", "[0.5, -2.0, 1e3] [3.0, 0.1, -7.5] [1.0, 2.0, 3.0] [4.0, -5.0, 6e-300] 0.3");
    c.assertSameResult("main", "[] [] [] [] 0.3");
  }

  @Test
  void aProducerOverTheCostBoundIsComputedOnce() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] a) =
          let e = map(fn real (real x) => exp(exp(exp(exp(exp(x))))), a) in
          {map(fn real (real v) => v * 2.0, e), scan(op +, 0.0, e)}
        """);
    assertEquals(List.of("map", "map", "scan"), c.kernelStructures(), c.optimized().explain());
  }

  @Test
  void aProducerUnderTheCostBoundWithTheSameConsumersFuses() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] a) =
          let e = map(fn real (real x) => exp(exp(exp(exp(x)))), a) in
          {map(fn real (real v) => v * 2.0, e), scan(op +, 0.0, e)}
        """);
    assertEquals(List.of("map", "scanomap"), c.kernelStructures(), c.optimized().explain());
    c.assertSameResult("main", "[0.5, -1.0, 0.0]");
  }

  @Test
  void aProducerHoldingALoopIsComputedOnce() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([real] a) =
          let e = map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a) in
          {map(fn real (real v) => v * 2.0, e), scan(op +, 0.0, e)}
        """);
    assertEquals(List.of("map", "map", "scan"), c.kernelStructures(), c.optimized().explain());
  }

  @Test
  void aProducerHoldingAReductionIsComputedOnce() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real]} main([[real]] m) =
          let e = map(fn real ([real] row) => reduce(op +, 0.0, row), m) in
          {map(fn real (real v) => v * 2.0, e), scan(op +, 0.0, e)}
        """);
    assertEquals(3, c.kernelStructures().size(), c.optimized().explain());
  }

  @Test
  void aProducerThatMayFailIsComputedOnce() {
    Compiled c =
        Compiled.of(
            """
        fun {[int], [int]} main([int] a, int k) =
          let e = map(fn int (int x) => x / k, a) in
          {map(fn int (int v) => v * 2, e), scan(op +, 0, e)}
        """);
    assertEquals(List.of("map", "map", "scan"), c.kernelStructures(), c.optimized().explain());
  }

  @Test
  void aProducerWhoseOutputIsAlsoAResultIsComputedOnce() {
    Compiled c =
        Compiled.of(
            """
        fun {[real], [real], [real]} main([real] a) =
          let e = map(fn real (real x) => x * 3.0, a) in
          {e, map(fn real (real v) => v * 2.0, e), scan(op +, 0.0, e)}
        """);
    assertEquals(List.of("map", "map", "scan"), c.kernelStructures(), c.optimized().explain());
  }
}
