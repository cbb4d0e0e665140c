package dev.l0.opt.pass;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Fresh names for copied code, so that an inlined function body or a duplicated lambda keeps names
 * globally unique (thesis §5.1).
 */
public final class Renamer {
  private Renamer() {}

  /** A substitution giving each of {@code bound} a fresh name. */
  public static Substitution freshNames(Set<String> bound, NameSource names) {
    Map<String, SubExp> renaming = new HashMap<>();
    bound.forEach(n -> renaming.put(n, SubExp.var(names.fresh(n))));
    return new Substitution(renaming);
  }

  /** {@code lambda} with fresh parameters and fresh names for everything bound inside. */
  public static Lambda fresh(Lambda lambda, NameSource names) {
    Set<String> bound = Analysis.boundIn(lambda.body());
    lambda.params().forEach(p -> bound.add(p.name()));
    return freshNames(bound, names).apply(lambda);
  }
}
