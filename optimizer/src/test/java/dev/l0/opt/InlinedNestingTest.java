package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarValue;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.Stm;
import dev.l0.syntax.L0Parser;
import dev.l0.types.NestingLimit;
import dev.l0.types.TypeChecker;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Inlining never nests bodies deeper than {@link NestingLimit#MAX_DEPTH}, the bound the checker
 * puts on the source: a call whose inlining would go deeper stays a call. So every pass meets
 * nesting the compiler's stack is sized for, and a program the checker accepts optimises and runs.
 */
class InlinedNestingTest {
  private static final int BRANCHES = 300;
  private static final int FUNCTIONS = 11;

  /**
   * {@link #FUNCTIONS} functions of {@link #BRANCHES}-branch else-if chains, each ending in a call
   * of the one before: inlined all the way, main would nest 3,300 ifs deep. main(x) = 2x for 0 <= x
   * < BRANCHES * FUNCTIONS, else -1.
   */
  private static String chainedElseIfFunctions() {
    StringBuilder text = new StringBuilder("fun i32 g0(i32 x) = -1\n");
    for (int f = 1; f <= FUNCTIONS; f++) {
      text.append("fun i32 g").append(f).append("(i32 x) =\n");
      for (int b = 0; b < BRANCHES; b++) {
        int value = (f - 1) * BRANCHES + b;
        text.append("  if x = ").append(value).append(" then ").append(2 * value).append(" else\n");
      }
      text.append("  g").append(f - 1).append("(x)\n");
    }
    return text.append("fun i32 main(i32 x) = g").append(FUNCTIONS).append("(x)\n").toString();
  }

  @Test
  void inliningStopsAtTheNestingLimitAndTheProgramStillRuns() {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(chainedElseIfFunctions(), "chain.l0")));
    InternalFunction main = optimized.internal().function("main").orElseThrow();
    int nesting = Analysis.nesting(main.body());
    assertTrue(nesting <= NestingLimit.MAX_DEPTH, "main nests " + nesting + " bodies deep");
    assertTrue(nesting >= BRANCHES, "main has g" + FUNCTIONS + " inlined, nests " + nesting);
    assertTrue(callsIn(main) > 0, "a call beyond the limit stays a call");
    for (int x : List.of(0, 1, 2_999, 3_050, 3_299, 3_300, -3)) {
      int expected = x >= 0 && x < BRANCHES * FUNCTIONS ? 2 * x : -1;
      // Evaluated on the compiler's stack, as the CLI runs programs: 3,000 nested ifs need more
      // than a default thread's.
      assertEquals(
          ScalarValue.i32(expected),
          NestingLimit.onLargeStack(() -> optimized.call("main", List.of(ScalarValue.i32(x)))),
          "main(" + x + ")");
    }
  }

  private static int callsIn(InternalFunction f) {
    int calls = 0;
    Deque<Body> pending = new ArrayDeque<>(List.of(f.body()));
    while (!pending.isEmpty()) {
      for (Stm stm : pending.pop().stms()) {
        if (stm.exp() instanceof Exp.Apply) {
          calls++;
        }
        pending.addAll(stm.exp().bodies());
        stm.exp().lambdas().forEach(l -> pending.add(l.body()));
      }
    }
    return calls;
  }
}
