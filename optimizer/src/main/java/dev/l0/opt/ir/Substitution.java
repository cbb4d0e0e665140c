package dev.l0.opt.ir;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A renaming of variables to operands, applied everywhere a name can occur: operands, results,
 * sizes in types, certificate lists and binding sites. A certificate mapped to {@link #CHECKED} is
 * always true and is dropped from every certificate list (thesis §5.3).
 */
public final class Substitution {
  /** What a certificate known to hold is replaced by. */
  public static final SubExp CHECKED = SubExp.constant(ScalarValue.bool(true));

  private final Map<String, SubExp> replacements;

  public Substitution(Map<String, SubExp> replacements) {
    this(replacements, true);
  }

  private Substitution(Map<String, SubExp> replacements, boolean copied) {
    this.replacements =
        copied ? Map.copyOf(replacements) : Collections.unmodifiableMap(replacements);
  }

  /**
   * The substitution {@code replacements} holds whenever it is applied, read in place rather than
   * copied: for a walk that records replacements as it goes and applies them as it meets each
   * statement (a copy for every new replacement made such a walk quadratic in a function's
   * replacements: the copies were 575 of the optimiser's 4,317 CPU samples compiling FinPar
   * InterestCalib, bench/README.md, thirtieth session).
   */
  public static Substitution reading(Map<String, SubExp> replacements) {
    return new Substitution(replacements, false);
  }

  public Map<String, SubExp> asMap() {
    return replacements;
  }

  public SubExp apply(SubExp s) {
    if (s instanceof SubExp.Var v) {
      SubExp r = replacements.get(v.name());
      return r == null ? s : r;
    }
    return s;
  }

  public List<SubExp> applyAll(List<SubExp> xs) {
    return xs.stream().map(this::apply).toList();
  }

  public Type apply(Type t) {
    return replacements.isEmpty() ? t : InternalTypes.substitute(t, replacements::get);
  }

  public Ident apply(Ident id) {
    SubExp r = replacements.get(id.name());
    String name = r instanceof SubExp.Var v ? v.name() : id.name();
    return new Ident(name, apply(id.type()));
  }

  public List<Ident> applyIdents(List<Ident> ids) {
    return ids.stream().map(this::apply).toList();
  }

  public List<String> applyCertificates(List<String> certs) {
    List<String> out = new ArrayList<>();
    for (String c : certs) {
      SubExp r = replacements.get(c);
      if (r == null) {
        out.add(c);
      } else if (r instanceof SubExp.Var v && !out.contains(v.name())) {
        out.add(v.name());
      }
    }
    return out;
  }

  public Stm apply(Stm stm) {
    return new Stm(
        applyIdents(stm.pattern()), applyCertificates(stm.certificates()), apply(stm.exp()));
  }

  /**
   * {@code stm} with this substitution applied to everything but the code nested in its
   * expression's bodies and lambda bodies: for a walk that visits those bodies itself and applies
   * the substitution there, so that each nesting level is rewritten once, not once per enclosing
   * level (which made deep else-if chains quadratic).
   */
  public Stm applyOutsideBodies(Stm stm) {
    return new Stm(
        applyIdents(stm.pattern()),
        applyCertificates(stm.certificates()),
        applyOutsideBodies(stm.exp()));
  }

  public Body apply(Body body) {
    if (replacements.isEmpty()) {
      return body;
    }
    return new Body(body.stms().stream().map(this::apply).toList(), applyAll(body.result()));
  }

  public Lambda apply(Lambda lambda) {
    return signature(lambda).withBody(apply(lambda.body()));
  }

  /**
   * {@code lambda} with this substitution applied to its parameters and result types, not its body.
   */
  private Lambda signature(Lambda lambda) {
    return new Lambda(
        applyIdents(lambda.params()),
        lambda.body(),
        lambda.returnTypes().stream().map(this::apply).toList());
  }

  /**
   * {@code e} with this substitution applied to its operands and, recursively, to everything
   * nested.
   */
  public Exp apply(Exp e) {
    return Traversal.mapNestedBodies(applyOutsideBodies(e), this::apply);
  }

  /**
   * {@code e} with this substitution applied to its operands, types and lambda signatures, its
   * bodies unchanged.
   */
  public Exp applyOutsideBodies(Exp e) {
    Exp out = e.mapOperands(this::apply).mapLambdas(this::signature);
    if (out instanceof Exp.Loop l) {
      return new Exp.Loop(
          applyIdents(l.mergeParams()), l.init(), apply(l.counter()), l.bound(), l.body());
    }
    if (out instanceof Exp.ArrayLit a) {
      return new Exp.ArrayLit(a.elements(), apply(a.rowType()), a.pos());
    }
    return out;
  }
}
