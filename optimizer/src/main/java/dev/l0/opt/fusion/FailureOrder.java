package dev.l0.opt.fusion;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Stm;
import java.util.List;

/**
 * Which plan the fusion rules make, as to the order of failures. The reference interpreter runs
 * SOACs one after another, so where two may fail (index out of bounds, integer division by zero, a
 * failing assert) the first's first failing row is the error a program reports; a fused or joined
 * pass runs both row by row, and the second's failure on an earlier row could come first. {@link
 * #mayReorder} is the one place that decides when that can happen, for every rule.
 */
public enum FailureOrder {
  /**
   * The default plan: SOACs that may both fail fuse and join as any others do; the fusion history
   * records where they did ({@link FusionHistory#reordersFailures}), and a backend that sees such a
   * plan fail reruns the {@link #KEPT} plan on the same inputs for the error to report.
   */
  FUSED,
  /**
   * The failure-order plan: every rule refuses a fusion or join where {@link #mayReorder} holds, so
   * the plan fails exactly as the interpreter does.
   */
  KEPT;

  /**
   * Whether running the work of {@code moved} at a later place, in one pass with or after the
   * statements {@code passed} (the ones between, then its consumer or partner), can change which
   * failure a run reports: {@code moved} may fail and so may one of {@code passed}.
   */
  public static boolean mayReorder(Stm moved, List<Stm> passed) {
    return Analysis.mayFail(moved.exp())
        && passed.stream().anyMatch(s -> Analysis.mayFail(s.exp()));
  }
}
