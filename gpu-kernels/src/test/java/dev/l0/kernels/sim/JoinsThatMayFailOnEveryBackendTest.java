package dev.l0.kernels.sim;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two SOACs of which one may fail (index out of bounds, integer division by zero) run as one pass
 * ({@code dev.l0.opt.fusion.Fusion}'s failure rule): on the simulator (blocks of 1 and 32 threads)
 * and the JVM backend each gives the interpreter's result where nothing fails, and fails in the
 * interpreter's operation at its position where the one that may fail does, in the one kernel the
 * join makes.
 */
class JoinsThatMayFailOnEveryBackendTest {
  /** A sum and a fold that divides: one redomap ({@code FUSE-HORIZONTAL}). */
  private static final String SUM_AND_QUOTIENT =
      """
      fun {int, int} main([int] a) = {reduce(op +, 0, a), reduce(fn int (int x, int y) => x / y, 1, a)}
      """;

  /** A reduction that divides, of the kept values of a filter: one filtermap (filter-reduce). */
  private static final String KEPT_AND_A_QUOTIENT_SUM =
      """
      fun {[int], int} main([int] xs, int d) =
        let ws = filter(fn bool (int x) => x > 0, xs) in
        {ws, reduce(fn int (int a, int b) => a + b / (b - d), 0, ws)}
      """;

  /** A map that indexes, beside one that cannot fail: one map ({@code FUSE-CLUSTER}). */
  private static final String SCALED_AND_LOOKED_UP =
      """
      fun {[int], [int]} main([int] xs, [int] is) =
        let sum1 = reduce(op +, 0, xs) in
        let sum2 = reduce(op +, 0, filter(fn bool (int x) => x > 0, xs)) in
        {map(fn int (int x) => x * sum1, xs), map(fn int (int x) => is[x] + sum2, xs)}
      """;

  @Test
  void aReductionThatMayFailJoinsOneThatCannot() {
    EveryBackend.assertRunsAs(List.of("redomap"), SUM_AND_QUOTIENT, "join.l0", "[7, 2, -3, 1]");
    EveryBackend.assertFailsAs(List.of("redomap"), SUM_AND_QUOTIENT, "join.l0", "[7, 2, 0, 1, 0]");
  }

  @Test
  void aReductionThatMayFailFoldsIntoTheFiltersPass() {
    String xs = "[3, -1, 4, 1, -5, 9, 2, -6, 5, 3, 5, 8, -9, 7]";
    EveryBackend.assertRunsAs(List.of("filtermap"), KEPT_AND_A_QUOTIENT_SUM, "join.l0", xs + " 6");
    EveryBackend.assertFailsAs(List.of("filtermap"), KEPT_AND_A_QUOTIENT_SUM, "join.l0", xs + " 4");
  }

  @Test
  void aMapThatMayFailJoinsOneThatCannotInItsCluster() {
    EveryBackend.assertRunsAs(
        List.of("redomap", "map"), SCALED_AND_LOOKED_UP, "join.l0", "[1, 0, 2] [5, 6, 7]");
    EveryBackend.assertFailsAs(
        List.of("redomap", "map"), SCALED_AND_LOOKED_UP, "join.l0", "[1, 3, 2, 4] [5, 6, 7]");
  }
}
