package dev.l0.opt.pass;

import dev.l0.ir.SourcePos;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hash-consing key of an expression for CSE (thesis §6.2): the expression with source
 * positions erased and the names bound inside it (lambda parameters, nested bindings) renamed in
 * binding order, so alpha-equivalent expressions written in two places get equal keys. Two
 * expressions with equal keys compute the same value; where one would fail, the first to run
 * fails first, so merging them changes no outcome.
 */
final class SharingKey {
  private SharingKey() {}

  static Exp of(Exp e) {
    Map<String, SubExp> canonical = new HashMap<>();
    collectBinders(e, canonical);
    return new Substitution(canonical).apply(erased(e));
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
    return withoutPosition(e).mapBodies(SharingKey::erased).mapLambdas(l -> l.withBody(erased(l.body())));
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
    if (e instanceof Exp.Map m) {
      return new Exp.Map(m.function(), m.inputs(), none);
    }
    if (e instanceof Exp.Replicate r) {
      return new Exp.Replicate(r.count(), r.value(), none);
    }
    if (e instanceof Exp.Reshape r) {
      return new Exp.Reshape(r.shape(), r.array(), none);
    }
    if (e instanceof Exp.Split s) {
      return new Exp.Split(s.at(), s.array(), none);
    }
    if (e instanceof Exp.Concat c) {
      return new Exp.Concat(c.left(), c.right(), none);
    }
    if (e instanceof Exp.Assert a) {
      return new Exp.Assert(a.condition(), a.operation(), a.detail(), none);
    }
    return e;
  }
}
