package dev.l0.opt.fusion;

import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.Traversal;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which {@link FusionRule}s made each SOAC of one compilation, keyed by the first name its
 * statement binds (the later passes keep a kernel's pattern): a fused statement inherits its
 * producer's and its consumer's rules and adds the one that fused them. {@code explain} shows them
 * per kernel.
 */
public final class FusionHistory {
  private final Map<String, Set<FusionRule>> byOutput = new HashMap<>();

  void record(FusionRule rule, Stm producer, Stm consumer, Stm fused) {
    Set<FusionRule> rules = new LinkedHashSet<>(of(producer));
    rules.addAll(of(consumer));
    rules.add(rule);
    byOutput.put(fused.pattern().get(0).name(), rules);
  }

  private Set<FusionRule> of(Stm stm) {
    return stm.pattern().isEmpty()
        ? Set.of()
        : byOutput.getOrDefault(stm.pattern().get(0).name(), Set.of());
  }

  /**
   * The rules that made {@code stm} and the SOACs nested in it, in the order they first applied;
   * empty where none did.
   */
  public List<FusionRule> rulesOf(Stm stm) {
    Set<FusionRule> out = new LinkedHashSet<>(of(stm));
    for (Body b : Traversal.nestedBodies(stm.exp())) {
      Traversal.statements(b).forEach(s -> out.addAll(of(s)));
    }
    return List.copyOf(out);
  }
}
