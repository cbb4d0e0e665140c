package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.opt.eval.InternalEvaluator;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.LoopInvariantRowCalls;
import dev.l0.opt.pass.RuleLog;
import dev.l0.opt.pass.Simplifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LoopInvariantRowCalls}: a costly call on the row of a loop-invariant array inside a loop's
 * map runs once per row in front of the loop, with the same bits.
 */
class LoopInvariantRowCallsTest {
  /** LocVolCalib's volatility map: {@code log} of the invariant grid {@code xs}, every step. */
  private static final String VOLATILITY =
      """
      fun [[real]] main(int steps, [real] xs, [real] ys, real beta) =
        loop (acc = map(fn [real] (real y) => map(fn real (real x) => 0.0, xs), ys)) = for t < steps do
          map(fn [real] ([real] row, real y) =>
                map(fn real (real a, real x) => a + exp(beta * log(x) + y - real(t)), zip(row, xs)),
              zip(acc, ys))
        in acc
      """;

  @Test
  void theCallOfAnInvariantRowRunsOnceInFrontOfTheLoop() {
    Internal before = Internal.of(VOLATILITY);
    List<String> recorded = new ArrayList<>();
    RuleLog log = (rule, shaped) -> recorded.add(rule.ruleName() + " " + shaped.exp().isMap());
    Internal after = before.after(new LoopInvariantRowCalls(log), new Simplifier());
    // the rule is recorded on the map it adds and on the map it rewrites
    assertEquals(
        List.of("HOIST-INVARIANT-ROW-CALLS true", "HOIST-INVARIANT-ROW-CALLS true"), recorded);
    assertEquals(1, logs(before.everywhere().stream().map(s -> s.exp()).toList()));
    // the log is now a map over xs before the loop, the loop's map reads its results
    assertEquals(
        1,
        logs(
            after.topLevel().stream()
                .filter(s -> s.exp().isMap())
                .flatMap(s -> s.exp().lambdas().get(0).body().stms().stream())
                .map(s -> s.exp())
                .toList()));
    Exp.Loop loop =
        (Exp.Loop)
            after.topLevel().stream()
                .filter(s -> s.exp() instanceof Exp.Loop)
                .findFirst()
                .orElseThrow()
                .exp();
    assertEquals(0, logs(Traversal.statements(loop.body()).stream().map(s -> s.exp()).toList()));
    // exp depends on the iteration: it stays
    assertTrue(
        Traversal.statements(loop.body()).stream()
            .anyMatch(s -> s.exp() instanceof Exp.BuiltinCall c && c.function() == Builtin.EXP));
    assertSameBits(before, after, 3, 7);
    assertSameBits(before, after, 0, 5);
  }

  @Test
  void aCallOfALoopVariantValueStays() {
    Internal before =
        Internal.of(
            """
            fun [real] main(int steps, [real] xs) =
              loop (acc = xs) = for t < steps do map(fn real (real a) => log(a) + 1.0, acc) in acc
            """);
    assertSame(before.program(), before.after(new LoopInvariantRowCalls()).program());
  }

  @Test
  void aCallWithALoopVariantOperandStays() {
    Internal before =
        Internal.of(
            """
            fun [real] main(int steps, [real] xs) =
              loop (acc = xs) = for t < steps do
                map(fn real (real a, real x) => a + exp(x * real(t)), zip(acc, xs))
              in acc
            """);
    assertSame(before.program(), before.after(new LoopInvariantRowCalls()).program());
  }

  private static long logs(List<Exp> exps) {
    return exps.stream()
        .filter(e -> e instanceof Exp.BuiltinCall c && c.function() == Builtin.LOG)
        .count();
  }

  private static void assertSameBits(Internal before, Internal after, int steps, long seed) {
    Random random = new Random(seed);
    double[] xs = new double[9];
    double[] ys = new double[4];
    for (int k = 0; k < xs.length; k++) {
      xs[k] = k == 0 ? 0.0 : k == 1 ? -1.0 : random.nextDouble() * 50;
    }
    for (int k = 0; k < ys.length; k++) {
      ys[k] = random.nextDouble() - 0.5;
    }
    List<Value> args =
        List.of(
            ScalarValue.i32(steps),
            Value.Array.ofF64(xs),
            Value.Array.ofF64(ys),
            ScalarValue.f64(0.7));
    // Value equality compares floats by Double.compare: the same bits (NaN aside)
    assertEquals(
        new InternalEvaluator(before.program()).call("main", args),
        new InternalEvaluator(after.program()).call("main", args));
  }
}
