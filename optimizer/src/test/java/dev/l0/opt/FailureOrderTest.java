package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.opt.fusion.FailureOrder;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two plans of {@link FailureOrder}: the fused plan fuses a producer and a consumer that may
 * both fail and records it, its failure-order plan keeps them apart, a failing run of the fused
 * plan fails as the interpreter does (through the rerun), and a plan whose fusions cannot change
 * the order of failures needs no rerun and says nothing of one.
 */
class FailureOrderTest {
  private static final String LOOKED_UP_THEN_DIVIDED =
      """
      fun [int] main([int] xs, [int] a) =
        let ys = map(fn int (int x) => a[x], xs) in
        map(fn int (int y) => 10 / y, ys)
      """;

  @Test
  void aProducerAndAConsumerThatMayBothFailFuseAndTheFailureOrderPlanKeepsThemApart() {
    Compiled c = Compiled.of(LOOKED_UP_THEN_DIVIDED);
    assertEquals(List.of("map"), c.kernelStructures(), c.optimized()::explain);
    assertTrue(c.optimized().reordersFailures());
    assertEquals(List.of("map", "map"), c.failureOrderStructures(), c.optimized()::explain);
    assertFalse(c.optimized().failureOrderPlan().reordersFailures());
    assertTrue(
        c.optimized()
            .explain()
            .contains(
                "failure order: a failing run reruns with the failure-order plan, 2 kernels\n"),
        c.optimized()::explain);
    // Row 0 divides by zero in the fused map; the interpreter reports row 1's index first.
    c.assertSameFailure("main", "[0, 5] [0, 1]");
    c.assertSameResult("main", "[0, 1] [3, 4]");
  }

  @Test
  void theFailureOrderPlanCompiledDirectlyIsTheKeptOne() {
    OptimizedProgram kept =
        Optimizer.optimize(
            TypeChecker.check(L0Parser.parse(LOOKED_UP_THEN_DIVIDED, "order.l0")),
            FailureOrder.KEPT);
    assertEquals(2, kept.kernelPlan().kernels().size(), kept::explain);
    assertFalse(kept.reordersFailures());
    assertSame(kept, kept.failureOrderPlan());
  }

  @Test
  void aFusionWhereOnlyOneSideMayFailNeedsNoRerun() {
    Compiled c =
        Compiled.of(
            """
            fun [int] main([int] xs, [int] a) =
              let ys = map(fn int (int x) => a[x], xs) in
              map(fn int (int y) => y * 2, ys)
            """);
    assertEquals(List.of("map"), c.kernelStructures(), c.optimized()::explain);
    assertFalse(c.optimized().reordersFailures());
    assertSame(c.optimized(), c.optimized().failureOrderPlan());
    assertFalse(c.optimized().explain().contains("failure order"), c.optimized()::explain);
    c.assertSameFailure("main", "[0, 5] [0, 1]");
  }
}
