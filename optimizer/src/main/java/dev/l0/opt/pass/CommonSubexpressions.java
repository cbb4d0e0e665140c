package dev.l0.opt.pass;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Common-subexpression elimination by hash-consing (the rebinder of thesis ch. 6; LMS's hash-consed
 * graph, seed 003): expressions are immutable records with structural equality, so a table from
 * expression ({@link SharingKey}: up to positions and the names bound inside) to the names that
 * first bound it finds every repeat in scope. A repeat is replaced by the earlier names.
 * Expressions that create a fresh array for in-place update ({@code copy}, updates, calls, loops),
 * and arrays that are later consumed, are never shared.
 */
public final class CommonSubexpressions implements Pass {
  @Override
  public String name() {
    return "cse";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return program.mapBodies(body -> new Walk(Analysis.consumedNames(body)).body(body));
  }

  /**
   * An expression bound earlier in scope, with its sharing key computed only when another
   * expression with the same {@link SharingKey.Hashes hash} is looked up: a key covers all the code
   * nested in the expression, so computing one per binding would make deep nesting quadratic.
   */
  private static final class Binding {
    private final Exp exp;
    private final List<Ident> pattern;
    private Exp key;

    Binding(Exp exp, List<Ident> pattern) {
      this.exp = exp;
      this.pattern = pattern;
    }

    Exp key() {
      if (key == null) {
        key = SharingKey.of(exp);
      }
      return key;
    }
  }

  private static final class Walk {
    private final Set<String> consumed;
    private final Map<String, SubExp> replacements = new HashMap<>();
    private final SharingKey.Hashes hashes = new SharingKey.Hashes();

    /** The bindings in scope by hash; a body removes what it added when it ends. */
    private final Map<Integer, List<Binding>> inScope = new HashMap<>();

    /** The replacements so far, read in place. */
    private final Substitution substitution = Substitution.reading(replacements);

    Walk(Set<String> consumed) {
      this.consumed = consumed;
    }

    Body body(Body body) {
      List<Integer> added = new ArrayList<>();
      List<Stm> out = new ArrayList<>();
      for (Stm original : body.stms()) {
        Stm stm = substitution.applyOutsideBodies(original);
        stm = Traversal.withExp(stm, Traversal.mapNestedBodies(stm.exp(), this::body));
        List<Ident> earlier = shareable(stm) ? earlierOrAdd(stm, added) : null;
        if (earlier != null) {
          for (int k = 0; k < earlier.size(); k++) {
            replacements.put(stm.pattern().get(k).name(), earlier.get(k).var());
          }
          continue;
        }
        out.add(stm);
      }
      for (int k = added.size() - 1; k >= 0; k--) {
        List<Binding> sameHash = inScope.get(added.get(k));
        sameHash.remove(sameHash.size() - 1);
        if (sameHash.isEmpty()) {
          inScope.remove(added.get(k));
        }
      }
      return new Body(out, substitution.applyAll(body.result()));
    }

    /**
     * The pattern of an earlier binding of the same expression in scope, or null after adding this
     * one to the scope.
     */
    private List<Ident> earlierOrAdd(Stm stm, List<Integer> added) {
      int hash = hashes.of(stm.exp());
      Binding binding = new Binding(stm.exp(), stm.pattern());
      List<Binding> sameHash = inScope.computeIfAbsent(hash, h -> new ArrayList<>());
      for (Binding candidate : sameHash) {
        if (candidate.key().equals(binding.key())) {
          return candidate.pattern;
        }
      }
      sameHash.add(binding);
      added.add(hash);
      return null;
    }

    private boolean shareable(Stm stm) {
      Exp e = stm.exp();
      boolean freshArray =
          e instanceof Exp.Copy
              || e instanceof Exp.Update
              || e instanceof Exp.Apply
              || e instanceof Exp.Loop;
      return !freshArray && stm.pattern().stream().noneMatch(p -> consumed.contains(p.name()));
    }
  }
}
