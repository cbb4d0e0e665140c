package dev.l0.opt.fusion;

import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.RewriteRule;
import dev.l0.opt.pass.RuleLog;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which rules made each SOAC of one compilation, keyed by the first name its statement binds (the
 * later passes keep a kernel's pattern): the {@link FusionRule}s, and the simplification rules that
 * shaped a SOAC or an array it reads ({@link RuleLog}). A fused statement inherits its producer's
 * and its consumer's rules and adds the one that fused them. {@code explain} shows them per kernel,
 * with what the passes noted about the compilation as a whole (a filter clustering not proved
 * minimal).
 */
public final class FusionHistory implements RuleLog {
  private final Map<String, Set<RewriteRule>> byOutput = new HashMap<>();
  private final Set<String> notes = new LinkedHashSet<>();
  private final FailureOrder failureOrder;
  private boolean reordersFailures;

  /** The history of a compilation whose fusion rules make the {@code failureOrder} plan. */
  public FusionHistory(FailureOrder failureOrder) {
    this.failureOrder = failureOrder;
  }

  /**
   * Whether this compilation's plan lets {@code moved}'s work run in one pass with, or after, the
   * statements {@code passed} ({@link FailureOrder#mayReorder}): always in the {@link
   * FailureOrder#FUSED} plan, only where that keeps the order of failures in the {@link
   * FailureOrder#KEPT} plan.
   */
  boolean admits(Stm moved, List<Stm> passed) {
    return failureOrder == FailureOrder.FUSED || !FailureOrder.mayReorder(moved, passed);
  }

  /**
   * Records that {@code moved}'s work now runs in one pass with, or after, the statements {@code
   * passed}: where that can change which failure a run reports, the plan {@link #reordersFailures}.
   */
  void moved(Stm moved, List<Stm> passed) {
    reordersFailures |= FailureOrder.mayReorder(moved, passed);
  }

  /**
   * Whether a rule ran the work of a SOAC that may fail in one pass with, or after, another that
   * may fail: a failing run of the plan may then report another error than the interpreter's, and
   * is rerun with the {@link FailureOrder#KEPT} plan.
   */
  public boolean reordersFailures() {
    return reordersFailures;
  }

  void record(FusionRule rule, Stm producer, Stm consumer, Stm fused) {
    Set<RewriteRule> rules = new LinkedHashSet<>(of(producer));
    rules.addAll(of(consumer));
    rules.add(rule);
    byOutput.put(fused.pattern().get(0).name(), rules);
  }

  @Override
  public void shaped(RewriteRule rule, Stm shaped) {
    if (!shaped.pattern().isEmpty()) {
      byOutput
          .computeIfAbsent(shaped.pattern().get(0).name(), n -> new LinkedHashSet<>())
          .add(rule);
    }
  }

  private Set<RewriteRule> of(Stm stm) {
    return stm.pattern().isEmpty()
        ? Set.of()
        : byOutput.getOrDefault(stm.pattern().get(0).name(), Set.of());
  }

  /** Notes {@code what} about the compilation as a whole, once, for {@code explain}. */
  void note(String what) {
    notes.add(what);
  }

  /** What the passes noted about the compilation, in order, each once. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /**
   * The rules that made {@code stm} and the SOACs nested in it, in the order they first applied;
   * empty where none did.
   */
  public List<RewriteRule> rulesOf(Stm stm) {
    Set<RewriteRule> out = new LinkedHashSet<>(of(stm));
    for (Body b : Traversal.nestedBodies(stm.exp())) {
      Traversal.statements(b).forEach(s -> out.addAll(of(s)));
    }
    return List.copyOf(out);
  }
}
