package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.opt.ir.Exp;
import dev.l0.testing.TestPrograms;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden tests on the thesis's appendix programs: the kernel counts and structure the thesis
 * reports (Fig. 39, §10) or better, and the same results as the interpreter.
 */
class AppendixProgramsTest {

  @Test
  void blackScholesBecomesOneMap() {
    Compiled p0 = Compiled.of(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES));
    assertEquals(List.of("map"), p0.kernelStructures());
    assertEquals(List.of("blackscholes"), p0.optimized().entries());
    Value prices =
        p0.assertSameResult(
            "blackscholes",
            "[{true, 58.0, 65.0, 0.25, 0.08, 0.3}, {false, 58.0, 65.0, 0.25, 0.08, 0.3}, "
                + "{true, 100.0, 90.0, 1.5, 0.05, 0.2}, {false, 42.0, 40.0, 0.5, 0.1, 0.25}]");
    assertEquals(4, ((Value.Array) prices).length());
    assertTrue(p0.optimized().explain().endsWith("kernels: 1\n"));
  }

  @Test
  void matrixMultiplicationBecomesOneTwoDimensionalMapOverARedomapWithNoAssertionInside() {
    Compiled p1 = Compiled.of(TestPrograms.load(TestPrograms.P1_MATMUL));
    assertEquals(List.of("map{map{redomap}}"), p1.kernelStructures());
    assertTrue(
        p1.statementsInsideLoops().stream().noneMatch(s -> s.exp() instanceof Exp.Assert),
        () -> "an assertion is left inside the kernel:\n" + p1.optimized().explain());
    Value product =
        p1.assertSameResult("main", "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10], [11, 12]]");
    assertEquals(ScalarValue.i32(58), ((Value.Array) ((Value.Array) product).get(0)).get(0));
  }

  @Test
  void matrixMultiplicationOfMismatchedSizesStillFails() {
    Compiled p1 = Compiled.of(TestPrograms.load(TestPrograms.P1_MATMUL));
    L0RuntimeError failure =
        assertThrows(
            L0RuntimeError.class,
            () -> p1.assertSameResult("main", "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10]]"));
    assertEquals("zip", failure.operation());
  }

  @Test
  void shortestPathsStepIsFullyFused() {
    Compiled p2 = Compiled.of(TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS));
    assertEquals(List.of("main", "shortest"), p2.optimized().entries());
    assertEquals(List.of("map{map{redomap}}", "map{map{redomap}}"), p2.kernelStructures());
    p2.assertSameResult("main", "");
    p2.assertSameResult("shortest", "[[0, 5, 9, 2], [5, 0, 1, 7], [9, 1, 0, 3], [2, 7, 3, 0]]");
  }

  @Test
  void argumentsOfTheWrongTypeAreRejectedBeforeRunning() {
    Compiled p1 = Compiled.of(TestPrograms.load(TestPrograms.P1_MATMUL));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> p1.optimized().call("main", List.of(ScalarValue.i32(1), ScalarValue.i32(2))));
    assertTrue(e.getMessage().contains("argument 1 of main"), e.getMessage());
  }
}
