package dev.l0.opt.fusion;

import dev.l0.ir.Builtin;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;

/**
 * The cost model of {@link FusionRule#FUSE_DUPLICATE_CHEAP_PRODUCER} (thesis §7.1.3 and ch. 10):
 * how many scalar operations a map's function does per element, counted only where the function is
 * straight-line scalar code that cannot fail. Per statement:
 *
 * <ul>
 *   <li>a copy ({@code let y = x}) or a {@code size}: 0
 *   <li>an arithmetic, comparison or logical operator, or a negation: 1 (an integer division or
 *       remainder, which may fail, is not cheap)
 *   <li>{@code exp}, {@code log}, {@code sqrt}, {@code sin}, {@code cos}, {@code erf}: 4 each
 *   <li>{@code floor}, {@code abs}, {@code min}, {@code max} and the conversions: 1 each
 *   <li>a nested {@code map} with scalar rows whose function is itself cheap: its function's cost
 *       (the work per innermost element, which duplication repeats once per consumer, as for the
 *       statements around it)
 *   <li>anything else (a loop, an {@code if}, indexing, a call, any other SOAC, a statement making
 *       an array other than such a map): not cheap
 * </ul>
 *
 * A function is cheap when its cost is at most {@link #BOUND}. The thesis's two cases are under it:
 * R1's Fig. 42 map (a {@code log} and a multiplication per row, an addition, a subtraction, a
 * multiplication and an {@code exp} per element: 12) and R2's Fig. 44 map (two multiplications, a
 * negation, an {@code exp}, a subtraction and a division: 9).
 */
final class DuplicationCost {
  /** The most scalar operations per element that a producer may do and still be duplicated. */
  static final int BOUND = 16;

  private static final int TRANSCENDENTAL = 4;
  private static final int NOT_CHEAP = -1;

  private DuplicationCost() {}

  /**
   * Whether {@code f} is straight-line scalar code that cannot fail, of cost at most {@link
   * #BOUND}.
   */
  static boolean cheap(Lambda f) {
    int cost = costOf(f.body());
    return cost != NOT_CHEAP && cost <= BOUND;
  }

  private static int costOf(Body body) {
    int total = 0;
    for (Stm stm : body.stms()) {
      int cost = costOf(stm.exp());
      if (cost == NOT_CHEAP) {
        return NOT_CHEAP;
      }
      total += cost;
    }
    return total;
  }

  private static int costOf(Exp e) {
    if (e instanceof Exp.Atom || e instanceof Exp.Size) {
      return 0;
    }
    if (e instanceof Exp.BinOp op) {
      return op.mayFailItself() ? NOT_CHEAP : 1;
    }
    if (e instanceof Exp.UnOp) {
      return 1;
    }
    if (e instanceof Exp.BuiltinCall call) {
      return call.function().kind() == Builtin.Kind.FLOAT_MATH && call.function() != Builtin.FLOOR
          ? TRANSCENDENTAL
          : 1;
    }
    if (e instanceof Exp.Screma m && m.isMap() && !Analysis.mayFail(m)) {
      return costOf(m.function().body());
    }
    return NOT_CHEAP;
  }
}
