package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0RuntimeError;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.pass.CommonSubexpressions;
import dev.l0.opt.pass.Fixpoint;
import dev.l0.opt.pass.Hoister;
import dev.l0.opt.pass.Inliner;
import dev.l0.opt.pass.Simplifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rebinder (thesis ch. 6): CSE by hash-consing and hoisting of invariant bindings with the
 * restrictions of §6.1.1.
 */
class RebinderTest {
  private static final Fixpoint REBIND =
      new Fixpoint(
          "rebind", List.of(new Simplifier(), new CommonSubexpressions(), new Hoister()), 20);

  @Test
  void commonSubexpressionsAreComputedOnce() {
    Internal p = Internal.of("fun real main(real x) = (x * x) + (x * x)").after(REBIND);
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.MUL));
  }

  @Test
  void identicalSoacsAreComputedOnce() {
    Internal p =
        Internal.of(
                """
        fun real main([real] a) = reduce(op +, 0.0, a) * reduce(op +, 0.0, a)
        """)
            .after(REBIND);
    assertEquals(1, p.count(e -> e.isReduce()));
  }

  @Test
  void lambdaInvariantBindingsMoveOutOfTheLambda() {
    Internal p =
        Internal.of("fun [real] main([real] a, real s) = map(fn real (real x) => x + exp(s), a)")
            .after(REBIND);
    assertEquals(1, p.topLevel().stream().filter(s -> s.exp() instanceof Exp.BuiltinCall).count());
  }

  @Test
  void loopInvariantBindingsMoveOutOfTheLoop() {
    Internal p =
        Internal.of(
                """
        fun real main(int n, real s) = loop (acc = 0.0) = for i < n do acc + exp(s) in acc
        """)
            .after(REBIND);
    assertEquals(1, p.topLevel().stream().filter(s -> s.exp() instanceof Exp.BuiltinCall).count());
  }

  @Test
  void bindingsConsumedInsideTheLoopStayInside() {
    Internal p =
        Internal.of(
                """
        fun [[int]] main([int] xs, [int] ys) =
          map(fn [int] (int i) => let a = map(fn int (int y) => y + 1, ys) in let b = a with [0] <- i in b, xs)
        """)
            .after(REBIND);
    assertEquals(1, p.topLevel().stream().filter(s -> s.exp().isMap()).count());
    assertEquals(
        2, p.count(e -> e.isMap()), "the inner map, consumed in each iteration, stays inside");
  }

  private static final String ROWS_PLUS_VECTOR =
      """
      fun [[real]] main([[real]] a, [real] b) = map(fn [real] ([real] r) => map(op +, zip(r, b)), a)
      """;

  @Test
  void invariantAssertionsLeaveTheLambdaGuardedByItsWidth() {
    Compiled c = Compiled.of(ROWS_PLUS_VECTOR);
    assertEquals(
        0, c.statementsInsideLoops().stream().filter(s -> s.exp() instanceof Exp.Assert).count());
    c.assertSameResult("main", "[[1.0, 2.0], [3.0, 4.0]] [10.0, 20.0]");
  }

  @Test
  void aHoistedAssertionStillHoldsNothingOverAnEmptyArrayAndStillFailsOtherwise() {
    Compiled c = Compiled.of(ROWS_PLUS_VECTOR);
    c.assertSameResult("main", "[] [10.0]");
    L0RuntimeError e =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", "[[1.0, 2.0]] [10.0]"));
    assertEquals("zip", e.operation());
  }

  /**
   * The zip's size assertion leaves the loop guarded by its trip count, so the reduce over the zip,
   * which needs the assertion's certificate, stays in the loop: hoisted, it ran on arrays of
   * different sizes where the loop runs zero times (an internal error, or reads out of bounds in a
   * kernel).
   */
  @Test
  void aSoacNeedingAGuardedAssertionStaysInTheLoop() {
    Compiled c =
        Compiled.of(
            "fun int main([int] a, [int] b, int m) =\n"
                + "  loop (s = 0) = for i < m do s + reduce(op +, 0, map(op +, zip(a, b))) in s");
    assertEquals(
        1, c.statementsInsideLoops().stream().filter(s -> s.exp() instanceof Exp.Soac).count());
    c.assertSameResult("main", "[1, 2, 3] [10] 0");
    c.assertSameResult("main", "[1, 2, 3] [10, 20, 30] 2");
    L0RuntimeError e =
        assertThrows(L0RuntimeError.class, () -> c.assertSameResult("main", "[1, 2, 3] [10] 1"));
    assertEquals("zip", e.operation());
  }

  /**
   * An integer {@code pow} fails on a negative exponent, so it stays where it was, as a division
   * does: hoisted out of a loop that runs no iteration or a map over no rows, it failed where the
   * interpreter never evaluates it.
   */
  @Test
  void anIntegerPowerThatMayFailStaysInsideTheLoopAndTheLambda() {
    Compiled loop =
        Compiled.of("fun int main(int n, int e) = loop (s = 0) = for i < n do s + 2 pow e in s");
    loop.assertSameResult("main", "0 -1");
    assertThrows(L0RuntimeError.class, () -> loop.assertSameResult("main", "2 -1"));
    Compiled map =
        Compiled.of("fun [int] main([int] a, int e) = map(fn int (int x) => x + 2 pow e, a)");
    map.assertSameResult("main", "[] -1");
    map.assertSameFailure("main", "[1, 2] -1");
  }

  /**
   * An integer division or remainder by a constant other than 0 cannot fail, so it leaves the
   * lambda like any invariant arithmetic: a row reshaped to {@code (2, size(r) / 2)} then has a
   * size the host computes (the devices refused the map, 'an array result whose size depends on
   * values the kernel computes').
   */
  @Test
  void anIntegerDivisionByANonZeroConstantLeavesTheLambda() {
    Internal p =
        Internal.of(
                """
        fun [[int]] main([[int]] m, int k) =
          map(fn [int] ([int] r) => let x = reshape((2, size(r) / 2), r) in map(op +(k % 3), x[1]), m)
        """)
            .after(REBIND);
    assertEquals(
        2,
        p.topLevel().stream()
            .filter(
                s ->
                    s.exp() instanceof Exp.BinOp b
                        && (b.op() == BinaryOperator.DIV || b.op() == BinaryOperator.MOD))
            .count());
    Compiled.of("fun [int] main([int] a, int d) = map(fn int (int x) => x + d / 0, a)")
        .assertSameResult("main", "[] 1");
  }

  @Test
  void nonRecursiveFunctionsAreInlinedAndRecursiveOnesStayCalls() {
    Internal p =
        Internal.of(
                """
        fun int twice(int x) = x * 2
        fun int count(int n) = if n = 0 then 0 else 1 + count(n - 1)
        fun int main(int n) = twice(count(n))
        """)
            .after(new Inliner());
    assertEquals(1, p.count(e -> e instanceof Exp.Apply a && a.function().equals("count")));
    assertEquals(0, p.count(e -> e instanceof Exp.Apply a && a.function().equals("twice")));
    Compiled.of(
            """
        fun int twice(int x) = x * 2
        fun int count(int n) = if n = 0 then 0 else 1 + count(n - 1)
        fun int main(int n) = twice(count(n))
        """)
        .assertSameResult("main", "7");
  }
}
