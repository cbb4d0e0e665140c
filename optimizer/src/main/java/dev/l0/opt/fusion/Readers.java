package dev.l0.opt.fusion;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which statements of one body's statement list read each name (it is among their free variables),
 * and which names the body's result reads: what every fusion rule asks about a producer's outputs.
 * One {@code Readers} answers for the list as it was when made, so {@link Fusion}'s T2 reduction
 * makes one per step, and finds the readers of every name on its first question; a {@link Memo}
 * remembers each statement's free variables across the steps and bodies of one function, so a step
 * over a body of n statements takes time linear in n (where each rule walking every later
 * statement's free variables for every producer took time quadratic in n per step, cubic over a
 * chain of n maps that fuse one by one).
 */
final class Readers {
  private final List<Stm> stms;
  private final List<SubExp> result;
  private final Memo memo;
  private Map<String, List<Integer>> byName;

  /**
   * The free variables of statements, remembered per statement instance and built from those of the
   * code nested in them ({@link Analysis.CachedFacts}), so that asking for the statements of every
   * body of a deeply nested function takes time linear in its size.
   */
  static final class Memo {
    private final Analysis.CachedFacts facts = new Analysis.CachedFacts();
    private final Map<Stm, Set<String>> free = new IdentityHashMap<>();

    private Set<String> freeVariables(Stm stm) {
      return free.computeIfAbsent(stm, facts::freeVariables);
    }

    /** The readers in {@code stms} and {@code result} as they are now. */
    Readers of(List<Stm> stms, List<SubExp> result) {
      return new Readers(stms, result, this);
    }
  }

  private Readers(List<Stm> stms, List<SubExp> result, Memo memo) {
    this.stms = stms;
    this.result = result;
    this.memo = memo;
  }

  private List<Integer> of(String name) {
    if (byName == null) {
      byName = new HashMap<>();
      for (int k = 0; k < stms.size(); k++) {
        for (String read : memo.freeVariables(stms.get(k))) {
          byName.computeIfAbsent(read, n -> new ArrayList<>()).add(k);
        }
      }
    }
    return byName.getOrDefault(name, List.of());
  }

  /** Whether the body's result reads any of {@code names}. */
  boolean inResult(Collection<String> names) {
    return result.stream().anyMatch(s -> s instanceof SubExp.Var v && names.contains(v.name()));
  }

  /**
   * The positions after {@code after} of the statements that read any of {@code names}, in order.
   */
  List<Integer> after(int after, Collection<String> names) {
    TreeSet<Integer> out = new TreeSet<>();
    for (String name : names) {
      List<Integer> readers = of(name);
      for (int k = readers.size() - 1; k >= 0 && readers.get(k) > after; k--) {
        out.add(readers.get(k));
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * The position of the one statement after {@code after} that reads {@code name}; -1 where none,
   * several, or the body's result does.
   */
  int onlyUser(int after, String name) {
    if (inResult(List.of(name))) {
      return -1;
    }
    List<Integer> readers = of(name);
    int last = readers.size() - 1;
    boolean one =
        last >= 0 && readers.get(last) > after && (last == 0 || readers.get(last - 1) <= after);
    return one ? readers.get(last) : -1;
  }
}
