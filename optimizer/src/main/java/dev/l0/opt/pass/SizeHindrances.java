package dev.l0.opt.pass;

import dev.l0.ir.Dim;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Size-hindrance removal (thesis §9.1): a {@code size} of a SOAC's output that blocks fusion (Fig.
 * 37) must read its value from elsewhere. Here types carry shapes, so most of the thesis's size
 * analysis is already done: a map's result type has its input's outer size, a {@code reshape}'s has
 * its shape, an {@code iota}'s its count, and the {@link Simplifier} folds {@code size(k, v)} from
 * {@code v}'s type, leaving no use of the array. What is left are the sizes the type checker cannot
 * name: this pass gives them from the operands, as §9.1.1's rules do. A {@code transpose} result
 * takes its operand's sizes in the transposed order, and the row parameters of a {@code map},
 * {@code filter} or screma's fold take the sizes of their input's rows ({@code p ↦ size(1, e)}).
 * Only unknown sizes are filled; a known one is never changed. The rewriting of {@code size} itself
 * stays the simplifier's. This is the rule {@link SimplificationRule#REMOVE_SIZE_HINDRANCE},
 * recorded in the {@link RuleLog} on each statement it refines.
 */
public final class SizeHindrances implements Pass {
  private final RuleLog log;

  /** The pass recording in {@code log} each statement it refines. */
  public SizeHindrances(RuleLog log) {
    this.log = log;
  }

  /** The pass applied alone, recording nothing. */
  public SizeHindrances() {
    this(RuleLog.NONE);
  }

  @Override
  public String name() {
    return "size-hindrances";
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    List<InternalFunction> out = new ArrayList<>();
    for (InternalFunction f : program.functions()) {
      Map<String, Type> types = new HashMap<>();
      f.params().forEach(p -> types.put(p.name(), p.type()));
      Body body = body(f.body(), types);
      out.add(body == f.body() ? f : f.withBody(body));
    }
    return new InternalProgram(out);
  }

  private Body body(Body body, Map<String, Type> types) {
    List<Stm> out = new ArrayList<>();
    boolean changed = false;
    for (Stm stm : body.stms()) {
      Stm refined = statement(stm, types);
      changed |= refined != stm;
      refined.pattern().forEach(p -> types.put(p.name(), p.type()));
      out.add(refined);
    }
    return changed ? new Body(out, body.result()) : body;
  }

  private Stm statement(Stm stm, Map<String, Type> types) {
    Exp e = stm.exp();
    if (e instanceof Exp.Transpose t && typeOf(t.array(), types) instanceof Type.Array operand) {
      Ident result = stm.pattern().get(0);
      Type known = refined(result.type(), InternalTypes.transposed(t.k(), t.n(), operand));
      return known.equals(result.type())
          ? stm
          : recorded(new Stm(List.of(new Ident(result.name(), known)), stm.certificates(), e));
    }
    if (e instanceof Exp.Soac soac && !(e.isReduce() || e.isScan())) {
      Lambda row = soac.rowFunction();
      Lambda withRows = withRowParams(row, soac.accumulators(), soac.inputs(), types);
      if (withRows == row) {
        return Traversal.withExp(stm, nested(e, types));
      }
      return recorded(stm.withExp(nested(soac.withRowFunction(withRows, soac.inputs()), types)));
    }
    return Traversal.withExp(stm, nested(e, types));
  }

  private Exp nested(Exp e, Map<String, Type> types) {
    return Traversal.mapNested(
        e,
        b -> body(b, types),
        l -> {
          l.params().forEach(p -> types.put(p.name(), p.type()));
          return Traversal.withBody(l, body(l.body(), types));
        });
  }

  /** {@code f} whose row parameters take the sizes of their inputs' rows where they had none. */
  private static Lambda withRowParams(
      Lambda f, int accumulators, List<SubExp> inputs, Map<String, Type> types) {
    List<Ident> params = new ArrayList<>(f.params());
    boolean changed = false;
    for (int j = 0; j < inputs.size(); j++) {
      Ident p = params.get(accumulators + j);
      if (typeOf(inputs.get(j), types) instanceof Type.Array input) {
        Type known = refined(p.type(), input.element());
        if (!known.equals(p.type())) {
          params.set(accumulators + j, new Ident(p.name(), known));
          changed = true;
        }
      }
    }
    return changed ? new Lambda(params, f.body(), f.returnTypes()) : f;
  }

  private Stm recorded(Stm stm) {
    log.shaped(SimplificationRule.REMOVE_SIZE_HINDRANCE, stm);
    return stm;
  }

  private static Type typeOf(SubExp s, Map<String, Type> types) {
    return s instanceof SubExp.Var v ? types.get(v.name()) : null;
  }

  /** {@code old} with each unknown size taken from {@code known}, of the same rank. */
  private static Type refined(Type old, Type known) {
    if (old instanceof Type.Array a && known instanceof Type.Array k) {
      Dim size = a.size() instanceof Dim.Unknown ? k.size() : a.size();
      return new Type.Array(refined(a.element(), k.element()), size, a.unique());
    }
    return old;
  }
}
