package dev.l0.kernels.sim;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SOACs that may both fail run fused or joined, and a run that fails reruns with the plan that
 * keeps the order of failures ({@code dev.l0.opt.fusion.FailureOrder}): on the simulator (blocks of
 * 1 and 32 threads) and the JVM backend each program gives the interpreter's result in the fused
 * plan's kernels where nothing fails, and where it fails, the interpreter's error (operation and
 * position), also where the second SOAC fails on an earlier row than the first; the kernels that
 * ran are the fused plan's, then the failure-order plan's up to the one that fails.
 */
class FailureOrderOnEveryBackendTest {
  /** A producer that indexes, a consumer that divides: one map ({@code FUSE-MAP-MAP}). */
  private static final String LOOKED_UP_THEN_DIVIDED =
      """
      fun [int] main([int] xs, [int] a) =
        let ys = map(fn int (int x) => a[x], xs) in
        map(fn int (int y) => 10 / y, ys)
      """;

  /** Two maps of one array that may both fail: one map ({@code FUSE-CLUSTER}). */
  private static final String TWO_LOOKUPS =
      """
      fun {[int], [int]} main([int] xs, [int] a, [int] b) =
        {map(fn int (int x) => a[x], xs), map(fn int (int x) => 10 / b[x], xs)}
      """;

  /** Two reductions of maps that may both fail: one redomap ({@code FUSE-HORIZONTAL}). */
  private static final String TWO_SUMS =
      """
      fun {int, int} main([int] xs, [int] a) =
        {reduce(op +, 0, map(fn int (int x) => a[x], xs)), reduce(op +, 0, map(fn int (int x) => 10 / x, xs))}
      """;

  /** Seed 002's normalize2 on integers: both maps divide, the paper's two loops. */
  private static final String NORMALIZE2_ON_INTEGERS =
      """
      fun {[int], [int]} main([int] xs) =
        let sum1 = reduce(op +, 0, xs) in
        let gts = filter(fn bool (int x) => x > 0, xs) in
        let sum2 = reduce(op +, 0, gts) in
        let ys1 = map(fn int (int x) => x / sum1, xs) in
        let ys2 = map(fn int (int x) => x / sum2, xs) in
        {ys1, ys2}
      """;

  @Test
  void aConsumerFailingOnAnEarlierRowThanItsProducerFailsAsTheProducer() {
    EveryBackend.assertRunsAs(List.of("map"), LOOKED_UP_THEN_DIVIDED, "order.l0", "[0, 1] [3, 4]");
    // Row 0 divides by zero in the fused map; the producer's row 1 is out of bounds first.
    EveryBackend.assertFailsAs(
        List.of("map", "map"), LOOKED_UP_THEN_DIVIDED, "order.l0", "[0, 5] [0, 1]");
  }

  @Test
  void siblingMapsThatMayBothFailJoinAndFailAsTheFirst() {
    EveryBackend.assertRunsAs(List.of("map"), TWO_LOOKUPS, "order.l0", "[0, 1] [4, 5] [1, 2]");
    // The second map divides by zero on row 0, the first indexes out of bounds on row 1.
    EveryBackend.assertFailsAs(
        List.of("map", "map"), TWO_LOOKUPS, "order.l0", "[0, 5] [0, 1] [0, 1]");
    // Only the second fails: the failure-order plan runs both maps.
    EveryBackend.assertFailsAs(
        List.of("map", "map", "map"), TWO_LOOKUPS, "order.l0", "[0, 1] [0, 1] [1, 0]");
  }

  @Test
  void reductionsThatMayBothFailJoinAndFailAsTheFirst() {
    EveryBackend.assertRunsAs(List.of("redomap"), TWO_SUMS, "order.l0", "[1, 2] [4, 5, 6]");
    // The second divides by zero on row 0, the first indexes out of bounds on row 1.
    EveryBackend.assertFailsAs(
        List.of("redomap", "redomap"), TWO_SUMS, "order.l0", "[0, 5] [0, 1]");
  }

  @Test
  void normalize2OnIntegersIsTwoKernelsAndFailsAsTheInterpreter() {
    EveryBackend.assertRunsAs(
        List.of("redomap", "map"), NORMALIZE2_ON_INTEGERS, "order.l0", "[3, -1, 4, 1, -5, 9]");
    // sum2 = 0: the second map fails on row 0; the first does not fail.
    EveryBackend.assertFailsAs(
        List.of("redomap", "map", "redomap", "map", "map"),
        NORMALIZE2_ON_INTEGERS,
        "order.l0",
        "[-1, -2]");
  }
}
