package dev.l0.opt.pass;

import dev.l0.ir.SourcePos;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hash-consing key of an expression for CSE (thesis §6.2): the expression with source positions
 * erased and the names bound inside it (lambda parameters, nested bindings) renamed in binding
 * order, so alpha-equivalent expressions written in two places get equal keys. Two expressions with
 * equal keys compute the same value; where one would fail, the first to run fails first, so merging
 * them changes no outcome.
 */
final class SharingKey {
  private SharingKey() {}

  static Exp of(Exp e) {
    Map<String, SubExp> canonical = new HashMap<>();
    collectBinders(e, canonical);
    return new Substitution(canonical).apply(erased(e));
  }

  /**
   * Hashes of expressions that are equal wherever their {@link #of keys} are: positions and the
   * names in nested code (bound inside or not) are left out; the expression's direct operands are
   * kept (they name values bound outside it, which its key keeps as they are), so that a chain of
   * lets {@code a2 = a1 * c in a3 = a2 * c in ...} does not put every binding under one hash, where
   * each lookup compared it with all the others. Each node's hash is computed once per instance and
   * an expression's hash is built from its bodies' hashes, so hashing every binding of a deeply
   * nested program takes time linear in its size.
   */
  static final class Hashes {
    private static final SubExp ANY_NAME = SubExp.var("%");
    private final Map<Object, Integer> known = new IdentityHashMap<>();

    int of(Exp e) {
      return 31 * namelessOf(e) + e.operands().hashCode();
    }

    /**
     * The hash of {@code e} with all its names left out, as the code nested in an expression has.
     */
    private int namelessOf(Exp e) {
      Integer hash = known.get(e);
      if (hash == null) {
        hash = compute(e);
        known.put(e, hash);
      }
      return hash;
    }

    private int compute(Exp e) {
      Exp nameless = e.mapOperands(Hashes::nameless);
      if (e.bodies().isEmpty() && e.lambdas().isEmpty()) {
        return withoutPosition(nameless).hashCode();
      }
      int hash = 31 * e.getClass().hashCode() + nameless.operands().hashCode();
      for (Body b : e.bodies()) {
        hash = 31 * hash + of(b);
      }
      for (Lambda l : e.lambdas()) {
        hash = 31 * (31 * hash + l.params().size()) + of(l.body());
      }
      return hash;
    }

    private int of(Body b) {
      Integer hash = known.get(b);
      if (hash == null) {
        int h = b.result().stream().map(Hashes::nameless).toList().hashCode();
        for (Stm stm : b.stms()) {
          h = 31 * h + namelessOf(stm.exp());
        }
        hash = h;
        known.put(b, hash);
      }
      return hash;
    }

    private static SubExp nameless(SubExp s) {
      return s instanceof SubExp.Var ? ANY_NAME : s;
    }
  }

  private static void collectBinders(Exp e, Map<String, SubExp> out) {
    if (e instanceof Exp.Loop l) {
      l.mergeParams().forEach(p -> bind(p, out));
      bind(l.counter(), out);
    }
    for (Lambda l : e.lambdas()) {
      l.params().forEach(p -> bind(p, out));
      collectBinders(l.body(), out);
    }
    e.bodies().forEach(b -> collectBinders(b, out));
  }

  private static void collectBinders(Body b, Map<String, SubExp> out) {
    for (Stm stm : b.stms()) {
      stm.pattern().forEach(p -> bind(p, out));
      collectBinders(stm.exp(), out);
    }
  }

  private static void bind(Ident id, Map<String, SubExp> out) {
    out.put(id.name(), SubExp.var("%" + out.size()));
  }

  private static Exp erased(Exp e) {
    return Traversal.mapNestedBodies(withoutPosition(e), SharingKey::erased);
  }

  private static Body erased(Body b) {
    List<Stm> stms = b.stms().stream().map(s -> s.withExp(erased(s.exp()))).toList();
    return new Body(stms, b.result());
  }

  private static Exp withoutPosition(Exp e) {
    SourcePos none = SourcePos.NONE;
    if (e instanceof Exp.BinOp b) {
      return new Exp.BinOp(b.op(), b.operandType(), b.left(), b.right(), none);
    }
    if (e instanceof Exp.Index x) {
      return new Exp.Index(x.array(), x.indices(), none);
    }
    if (e instanceof Exp.ArrayLit a) {
      return new Exp.ArrayLit(a.elements(), a.rowType(), none);
    }
    if (e instanceof Exp.Iota i) {
      return new Exp.Iota(i.count(), none);
    }
    if (e instanceof Exp.Screma s) {
      return new Exp.Screma(s.yields(), s.combine(), s.fold(), s.neutral(), s.inputs(), none);
    }
    if (e instanceof Exp.Replicate r) {
      return new Exp.Replicate(r.count(), r.value(), none);
    }
    if (e instanceof Exp.Reshape r) {
      return new Exp.Reshape(r.shape(), r.array(), none);
    }
    if (e instanceof Exp.Transpose t) {
      return new Exp.Transpose(t.k(), t.n(), t.array(), none);
    }
    if (e instanceof Exp.Split s) {
      return new Exp.Split(s.at(), s.array(), none);
    }
    if (e instanceof Exp.Concat c) {
      return new Exp.Concat(c.left(), c.right(), none);
    }
    if (e instanceof Exp.Assert a) {
      return new Exp.Assert(a.condition(), a.operation(), a.detail(), a.values(), none);
    }
    return e;
  }
}
