package dev.l0.opt.pass;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Common-subexpression elimination by hash-consing (the rebinder of thesis ch. 6; LMS's
 * hash-consed graph, seed 003): expressions are immutable records with structural equality, so a
 * table from expression ({@link SharingKey}: up to positions and the names bound inside) to the
 * names that first bound it finds every repeat in scope. A repeat is replaced by the earlier names. Expressions that create a fresh array for in-place update
 * ({@code copy}, updates, calls, loops), and arrays that are later consumed, are never shared.
 */
public final class CommonSubexpressions implements Pass {
  @Override
  public String name() {
    return "cse";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return program.mapBodies(body -> new Walk(Analysis.consumedNames(body)).body(body, new HashMap<>()));
  }

  private static final class Walk {
    private final Set<String> consumed;
    private final Map<String, SubExp> replacements = new HashMap<>();
    private Substitution current;

    Walk(Set<String> consumed) {
      this.consumed = consumed;
    }

    Body body(Body body, Map<Exp, List<Ident>> outerTable) {
      Map<Exp, List<Ident>> table = new HashMap<>(outerTable);
      List<Stm> out = new ArrayList<>();
      for (Stm original : body.stms()) {
        Stm stm = substitution().apply(original);
        stm = stm.withExp(stm.exp().mapBodies(b -> body(b, table)).mapLambdas(l -> lambda(l, table)));
        Exp key = shareable(stm) ? SharingKey.of(stm.exp()) : null;
        List<Ident> earlier = key == null ? null : table.get(key);
        if (earlier != null) {
          for (int k = 0; k < earlier.size(); k++) {
            replacements.put(stm.pattern().get(k).name(), earlier.get(k).var());
            current = null;
          }
          continue;
        }
        if (key != null) {
          table.put(key, stm.pattern());
        }
        out.add(stm);
      }
      return new Body(out, substitution().applyAll(body.result()));
    }

    /** The replacements so far, rebuilt only after a new one is recorded. */
    private Substitution substitution() {
      if (current == null) {
        current = new Substitution(replacements);
      }
      return current;
    }

    private Lambda lambda(Lambda l, Map<Exp, List<Ident>> table) {
      return l.withBody(body(l.body(), table));
    }

    private boolean shareable(Stm stm) {
      Exp e = stm.exp();
      boolean freshArray = e instanceof Exp.Copy || e instanceof Exp.Update || e instanceof Exp.Apply
          || e instanceof Exp.Loop;
      return !freshArray && stm.pattern().stream().noneMatch(p -> consumed.contains(p.name()));
    }
  }
}
