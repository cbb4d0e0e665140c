package dev.l0.opt.pass;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
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
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import dev.l0.semantics.ArrayOperations;
import dev.l0.semantics.FailureDetails;
import dev.l0.semantics.ScalarOperations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simplifier of thesis §5.3, one sweep (run it inside a {@link Fixpoint}) applying the {@link
 * SimplificationRule}s it holds, by default all of {@link #RULES}: copy and constant propagation,
 * constant folding with the evaluator's own scalar semantics (so a folded value is bit for bit the
 * run-time value; no algebraic rule that could change a float), folding of {@code size} from shapes
 * in types, of indexing into {@code iota}, {@code replicate}, {@code transpose} and literals
 * (keeping the bounds check as an assertion), of {@code if} on a constant, removal of {@code
 * assert(true)} and of certificates bound to {@code Checked}, and removal of dead bindings, unused
 * map outputs and unused SOAC inputs that cannot fail.
 */
public final class Simplifier implements Pass {
  /** The rules a simplifier applies; the other {@link SimplificationRule}s are a pass each. */
  public static final Set<SimplificationRule> RULES =
      Collections.unmodifiableSet(
          EnumSet.range(SimplificationRule.COPY_PROPAGATION, SimplificationRule.REFINE_MAP_SHAPES));

  private final Set<SimplificationRule> rules;

  /** The simplifier of all its {@link #RULES}. */
  public Simplifier() {
    this.rules = RULES;
  }

  private Simplifier(Set<SimplificationRule> rules) {
    this.rules = rules;
  }

  /** A simplifier that applies {@code rule} alone, one of {@link #RULES}. */
  public static Simplifier only(SimplificationRule rule) {
    if (!RULES.contains(rule)) {
      throw new IllegalArgumentException(
          rule.ruleName() + " is not a rule of the simplifier; its own pass applies it alone");
    }
    return new Simplifier(EnumSet.of(rule));
  }

  @Override
  public String name() {
    return rules == RULES ? "simplify" : "simplify by " + rules.iterator().next().ruleName();
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    List<InternalFunction> out = new ArrayList<>();
    for (InternalFunction f : program.functions()) {
      Walk walk = new Walk(names, rules);
      f.params().forEach(walk::declare);
      // The sizes named in the parameters' types stay bound even where nothing else reads them:
      // a row parameter of a SOAC over a parameter may take them later (REMOVE-SIZE-HINDRANCE).
      out.add(f.withBody(walk.body(f.body(), Analysis.sizesIn(f.params()))));
    }
    return new InternalProgram(out);
  }

  /** The state of one sweep over a function: names are unique, so one table serves every scope. */
  private static final class Walk {
    private final NameSource names;
    private final Set<SimplificationRule> rules;
    private final Map<String, SubExp> replacements = new HashMap<>();
    private final Map<String, Exp> definitions = new HashMap<>();
    private final Map<String, Type> types = new HashMap<>();
    private final Analysis.CachedFacts facts = new Analysis.CachedFacts();

    /** The replacements so far, read in place. */
    private final Substitution substitution = Substitution.reading(replacements);

    Walk(NameSource names, Set<SimplificationRule> rules) {
      this.names = names;
      this.rules = rules;
    }

    private boolean on(SimplificationRule rule) {
      return rules.contains(rule);
    }

    void declare(Ident id) {
      types.put(id.name(), id.type());
    }

    Body body(Body body) {
      return body(body, Set.of());
    }

    /** {@code body} simplified, its bindings of the names {@code alsoLive} kept. */
    Body body(Body body, Set<String> alsoLive) {
      List<Stm> out = new ArrayList<>();
      for (Stm original : body.stms()) {
        Stm stm = substitution.applyOutsideBodies(original);
        stm = Traversal.withExp(stm, Traversal.mapNested(stm.exp(), this::body, this::lambda));
        if (stm.exp() instanceof Exp.Loop l) {
          l.mergeParams().forEach(this::declare);
          declare(l.counter());
        }
        simplify(stm, out);
        stm.pattern().forEach(this::declare);
      }
      List<SubExp> result = substitution.applyAll(body.result());
      return removeDead(new Body(out, result), alsoLive);
    }

    Lambda lambda(Lambda l) {
      l.params().forEach(this::declare);
      return Traversal.withBody(l, body(l.body()));
    }

    private void replace(Ident id, SubExp by) {
      replacements.put(id.name(), by);
    }

    private void simplify(Stm stm, List<Stm> out) {
      Exp e = stm.exp();
      List<Ident> pattern = stm.pattern();
      if (e instanceof Exp.Atom a && on(SimplificationRule.COPY_PROPAGATION)) {
        replace(pattern.get(0), a.value());
        return;
      }
      if (e instanceof Exp.Assert a
          && isTrue(a.condition())
          && on(SimplificationRule.REMOVE_CHECKED_ASSERT)) {
        replace(pattern.get(0), Substitution.CHECKED);
        return;
      }
      if (e instanceof Exp.If i && on(SimplificationRule.FOLD_IF)) {
        if (i.condition() instanceof SubExp.Const c) {
          Body chosen = ((ScalarValue.Bool) c.value()).value() ? i.thenBody() : i.elseBody();
          chosen.stms().forEach(s -> out.add(predicate(s, stm.certificates())));
          bindAll(pattern, chosen.result());
          return;
        }
        if (i.thenBody().stms().isEmpty()
            && i.elseBody().stms().isEmpty()
            && i.thenBody().result().equals(i.elseBody().result())) {
          bindAll(pattern, i.thenBody().result());
          return;
        }
      }
      SubExp folded = fold(e);
      if (folded != null) {
        replace(pattern.get(0), folded);
        return;
      }
      if (e instanceof Exp.Index x && on(SimplificationRule.FOLD_INDEX) && foldIndex(stm, x, out)) {
        return;
      }
      Stm refined = on(SimplificationRule.REFINE_MAP_SHAPES) ? refineMapShapes(stm) : stm;
      Stm pruned = on(SimplificationRule.PRUNE_SOAC_INPUTS) ? pruneSoacInputs(refined) : refined;
      if (!pattern.isEmpty()) {
        definitions.put(pattern.get(0).name(), pruned.exp());
      }
      out.add(pruned);
    }

    private static Stm predicate(Stm s, List<String> certs) {
      if (certs.isEmpty()) {
        return s;
      }
      List<String> all = new ArrayList<>(certs);
      s.certificates().stream().filter(c -> !all.contains(c)).forEach(all::add);
      return s.withCertificates(all);
    }

    private void bindAll(List<Ident> pattern, List<SubExp> values) {
      for (int k = 0; k < pattern.size(); k++) {
        replace(pattern.get(k), values.get(k));
      }
    }

    private static boolean isTrue(SubExp s) {
      return s instanceof SubExp.Const c && c.value() instanceof ScalarValue.Bool b && b.value();
    }

    private static ScalarValue constant(SubExp s) {
      return s instanceof SubExp.Const c ? c.value() : null;
    }

    /** The single operand {@code e} always equals, or {@code null}. */
    private SubExp fold(Exp e) {
      if (e instanceof Exp.Size s) {
        return on(SimplificationRule.FOLD_SIZE) ? knownSize(s) : null;
      }
      if (!on(SimplificationRule.CONSTANT_FOLDING)) {
        return null;
      }
      try {
        if (e instanceof Exp.BinOp b) {
          return foldBinary(b);
        }
        if (e instanceof Exp.UnOp u && constant(u.operand()) != null) {
          return SubExp.constant(
              ScalarOperations.unary(u.op(), constant(u.operand()), SourcePos.NONE));
        }
        if (e instanceof Exp.BuiltinCall c
            && c.args().stream().allMatch(a -> a instanceof SubExp.Const)) {
          List<ScalarValue> args = c.args().stream().map(Walk::constant).toList();
          return SubExp.constant(ScalarOperations.builtin(c.function(), args, SourcePos.NONE));
        }
      } catch (L0RuntimeError failsAtRunTime) {
        return null;
      }
      return null;
    }

    private SubExp foldBinary(Exp.BinOp b) {
      ScalarValue l = constant(b.left());
      ScalarValue r = constant(b.right());
      if (l != null && r != null) {
        return SubExp.constant(ScalarOperations.binary(b.op(), l, r, b.pos()));
      }
      if (b.op().kind() == BinaryOperator.Kind.LOGICAL) {
        SubExp absorbed = absorbed(b);
        return absorbed != null ? absorbed : foldLogical(b.op(), l, b.right(), r, b.left());
      }
      if (!b.operandType().isInteger() && b.operandType() != ScalarType.BOOL) {
        return null;
      }
      if (b.left().equals(b.right()) && b.op().kind() == BinaryOperator.Kind.COMPARISON) {
        boolean reflexive =
            b.op() == BinaryOperator.EQ
                || b.op() == BinaryOperator.LEQ
                || b.op() == BinaryOperator.GEQ;
        return SubExp.constant(ScalarValue.bool(reflexive));
      }
      if (!b.operandType().isInteger()) {
        return null;
      }
      if (b.left().equals(b.right())
          && (b.op() == BinaryOperator.SUB || b.op() == BinaryOperator.XOR)) {
        return zero(b.operandType());
      }
      if ((isInt(l, 0) || isInt(r, 0))
          && (b.op() == BinaryOperator.MUL || b.op() == BinaryOperator.BAND)) {
        return zero(b.operandType());
      }
      if (b.left().equals(b.right())
          && (b.op() == BinaryOperator.BAND || b.op() == BinaryOperator.BOR)) {
        return b.left();
      }
      if (isInt(r, 0) && (b.op() == BinaryOperator.ADD || b.op() == BinaryOperator.SUB)) {
        return b.left();
      }
      if (isInt(l, 0) && b.op() == BinaryOperator.ADD) {
        return b.right();
      }
      if (isInt(r, 1) && (b.op() == BinaryOperator.MUL || b.op() == BinaryOperator.DIV)) {
        return b.left();
      }
      if (isInt(l, 1) && b.op() == BinaryOperator.MUL) {
        return b.right();
      }
      return null;
    }

    /**
     * {@code true && x = x}, {@code false && x = false}, and dually for {@code ||}; both operands
     * are already evaluated.
     */
    private static SubExp foldLogical(
        BinaryOperator op, ScalarValue l, SubExp right, ScalarValue r, SubExp left) {
      ScalarValue known = l != null ? l : r;
      SubExp other = l != null ? right : left;
      if (known == null) {
        return null;
      }
      boolean value = ((ScalarValue.Bool) known).value();
      boolean absorbing = op == BinaryOperator.AND ? !value : value;
      return absorbing ? SubExp.constant(known) : other;
    }

    /**
     * {@code x && x = x}, and {@code x || (x || y) = x || y} (both operands are already evaluated;
     * booleans only).
     */
    private SubExp absorbed(Exp.BinOp b) {
      if (b.left().equals(b.right())) {
        return b.left();
      }
      for (SubExp[] pair : new SubExp[][] {{b.left(), b.right()}, {b.right(), b.left()}}) {
        Exp def = pair[1] instanceof SubExp.Var v ? definitions.get(v.name()) : null;
        if (def instanceof Exp.BinOp inner
            && inner.op() == b.op()
            && (inner.left().equals(pair[0]) || inner.right().equals(pair[0]))) {
          return pair[1];
        }
      }
      return null;
    }

    private static SubExp zero(ScalarType integer) {
      return SubExp.constant((ScalarValue) ArrayOperations.zero(integer, Shape.SCALAR));
    }

    private static boolean isInt(ScalarValue v, long n) {
      return v instanceof ScalarValue.Int i && i.value() == n;
    }

    private SubExp knownSize(Exp.Size s) {
      if (!(s.array() instanceof SubExp.Var v) || !types.containsKey(v.name())) {
        return null;
      }
      Type t = types.get(v.name());
      for (int k = 0; k < s.dimension() && t instanceof Type.Array a; k++) {
        t = a.element();
      }
      if (t instanceof Type.Array a && !(a.size() instanceof Dim.Unknown)) {
        SubExp size = InternalTypes.dimOperand(a.size());
        return size instanceof SubExp.Var sv && !types.containsKey(sv.name()) ? null : size;
      }
      return null;
    }

    /**
     * Indexing into {@code iota}, {@code replicate}, {@code transpose}, {@code reshape} or a
     * literal (thesis Fig. 12, Fig. 14): the element is known without the array, but the bounds
     * check stays as an assertion so a failing program still fails with {@code index}.
     */
    private boolean foldIndex(Stm stm, Exp.Index x, List<Stm> out) {
      Exp def = x.array() instanceof SubExp.Var v ? definitions.get(v.name()) : null;
      Ident result = stm.pattern().get(0);
      if (def instanceof Exp.Iota iota
          && x.indices().size() == 1
          && sameType(x.indices().get(0), iota.count())) {
        List<String> certs =
            boundsCheck(x.indices().get(0), 0, iota.count(), x, stm.certificates(), out);
        out.add(new Stm(List.of(result), certs, new Exp.Atom(x.indices().get(0))));
        definitions.put(result.name(), new Exp.Atom(x.indices().get(0)));
        return true;
      }
      if (def instanceof Exp.Replicate rep
          && sameType(x.indices().get(0), rep.count())
          && (x.indices().size() == 1 || innerChecksKnown(x, rep.value()))) {
        List<String> certs =
            boundsCheck(x.indices().get(0), 0, rep.count(), x, stm.certificates(), out);
        List<SubExp> rowDims = x.indices().size() == 1 ? List.of() : knownDims(rep.value());
        for (int m = 1; m < x.indices().size(); m++) {
          // The replicated value's own checks, named by the dimension the program indexed.
          certs = boundsCheck(x.indices().get(m), m, rowDims.get(m - 1), x, certs, out);
        }
        Exp rest =
            x.indices().size() == 1
                ? new Exp.Atom(rep.value())
                : new Exp.Index(rep.value(), x.indices().subList(1, x.indices().size()), x.pos());
        out.add(new Stm(List.of(result), certs, rest));
        return true;
      }
      if (def instanceof Exp.Transpose t
          && t.k() == 0
          && t.n() == 1
          && x.indices().size() == 2
          && knownDims(t.array()) != null) {
        // The transpose's own checks, in its dimensions and order, as the interpreter makes them.
        List<SubExp> sourceDims = knownDims(t.array());
        List<String> certs = stm.certificates();
        certs = boundsCheck(x.indices().get(0), 0, sourceDims.get(1), x, certs, out);
        certs = boundsCheck(x.indices().get(1), 1, sourceDims.get(0), x, certs, out);
        List<SubExp> swapped = List.of(x.indices().get(1), x.indices().get(0));
        out.add(new Stm(List.of(result), certs, new Exp.Index(t.array(), swapped, x.pos())));
        return true;
      }
      if (def instanceof Exp.Reshape r && foldIndexIntoReshape(stm, x, r, out)) {
        return true;
      }
      if (def instanceof Exp.ArrayLit lit
          && x.indices().size() == 1
          && constant(x.indices().get(0)) instanceof ScalarValue.Int i
          && i.value() >= 0
          && i.value() < lit.elements().size()) {
        replace(result, lit.elements().get((int) i.value()));
        return true;
      }
      return false;
    }

    /**
     * Whether the sizes of {@code row} that {@code x}'s indices after its first read are known and
     * of those indices' types, so their bounds checks can name {@code x}'s dimensions.
     */
    private boolean innerChecksKnown(Exp.Index x, SubExp row) {
      List<SubExp> dims = knownDims(row);
      if (dims == null || dims.size() < x.indices().size() - 1) {
        return false;
      }
      for (int m = 1; m < x.indices().size(); m++) {
        if (!sameType(x.indices().get(m), dims.get(m - 1))) {
          return false;
        }
      }
      return true;
    }

    /**
     * {@code reshape((d1, ..., dk), a)[i1, ..., ik]} reads {@code a} at the same row-major offset
     * {@code ((i1 * d2 + i2) * d3 + ...)}, split back by {@code a}'s sizes; each {@code im < dm}
     * stays checked, and the arithmetic runs only once the checks hold. Applies where every index
     * and size is an {@code i32} and {@code a}'s sizes are known.
     */
    private boolean foldIndexIntoReshape(Stm stm, Exp.Index x, Exp.Reshape r, List<Stm> out) {
      List<SubExp> sourceDims = knownDims(r.array());
      List<SubExp> all = new ArrayList<>(x.indices());
      all.addAll(r.shape());
      if (sourceDims == null
          || x.indices().size() != r.shape().size()
          || !all.stream().allMatch(s -> ScalarType.I32.equals(typeOf(s)))) {
        return false;
      }
      List<String> certs = stm.certificates();
      for (int m = 0; m < x.indices().size(); m++) {
        certs = boundsCheck(x.indices().get(m), m, r.shape().get(m), x, certs, out);
      }
      SubExp offset = x.indices().get(0);
      for (int m = 1; m < x.indices().size(); m++) {
        SubExp scaled = arithmetic(BinaryOperator.MUL, offset, r.shape().get(m), certs, x, out);
        offset = arithmetic(BinaryOperator.ADD, scaled, x.indices().get(m), certs, x, out);
      }
      SubExp[] sourceIndex = new SubExp[sourceDims.size()];
      for (int q = sourceDims.size() - 1; q > 0; q--) {
        sourceIndex[q] = arithmetic(BinaryOperator.MOD, offset, sourceDims.get(q), certs, x, out);
        offset = arithmetic(BinaryOperator.DIV, offset, sourceDims.get(q), certs, x, out);
      }
      sourceIndex[0] = offset;
      out.add(
          new Stm(stm.pattern(), certs, new Exp.Index(r.array(), List.of(sourceIndex), x.pos())));
      return true;
    }

    private SubExp arithmetic(
        BinaryOperator op, SubExp l, SubExp r, List<String> certs, Exp.Index x, List<Stm> out) {
      Ident id = fresh("offset", ScalarType.I32);
      out.add(new Stm(List.of(id), certs, new Exp.BinOp(op, ScalarType.I32, l, r, x.pos())));
      return id.var();
    }

    /**
     * Every size of the array {@code a} as an operand in scope, or {@code null} where one is
     * unknown.
     */
    private List<SubExp> knownDims(SubExp a) {
      if (typeOf(a) == null) {
        return null;
      }
      List<SubExp> dims = new ArrayList<>();
      for (Type t = typeOf(a); t instanceof Type.Array arr; t = arr.element()) {
        SubExp d = InternalTypes.dimOperand(arr.size());
        if (d == null || d instanceof SubExp.Var v && !types.containsKey(v.name())) {
          return null;
        }
        dims.add(d);
      }
      return dims;
    }

    private boolean sameType(SubExp a, SubExp b) {
      return typeOf(a) != null && typeOf(a).equals(typeOf(b));
    }

    private Type typeOf(SubExp s) {
      return s instanceof SubExp.Const c ? c.value().type() : types.get(((SubExp.Var) s).name());
    }

    /**
     * Emits {@code assert(0 <= i && i < n)} for {@code x}'s position, {@code i} indexing dimension
     * {@code dimension} of size {@code n}; returns the certificates the element read needs.
     */
    private List<String> boundsCheck(
        SubExp i, int dimension, SubExp n, Exp.Index x, List<String> certs, List<Stm> out) {
      ScalarType t = (ScalarType) typeOf(i);
      ScalarValue.Int zero = new ScalarValue.Int(t, 0);
      ScalarValue ci = constant(i);
      ScalarValue cn = constant(n);
      if (ci instanceof ScalarValue.Int iv
          && cn instanceof ScalarValue.Int nv
          && iv.value() >= 0
          && iv.value() < nv.value()) {
        return certs;
      }
      Ident low = fresh("in_lower", ScalarType.BOOL);
      Ident high = fresh("in_upper", ScalarType.BOOL);
      Ident both = fresh("in_bounds", ScalarType.BOOL);
      Ident cert = fresh("bounds_cert", InternalTypes.CERT);
      out.add(
          new Stm(
              List.of(low),
              new Exp.BinOp(BinaryOperator.LEQ, t, SubExp.constant(zero), i, x.pos())));
      out.add(new Stm(List.of(high), new Exp.BinOp(BinaryOperator.LT, t, i, n, x.pos())));
      out.add(
          new Stm(
              List.of(both),
              new Exp.BinOp(BinaryOperator.AND, ScalarType.BOOL, low.var(), high.var(), x.pos())));
      out.add(
          new Stm(
              List.of(cert),
              certs,
              new Exp.Assert(
                  both.var(), "index", FailureDetails.index(dimension), List.of(i, n), x.pos())));
      return List.of(cert.name());
    }

    private Ident fresh(String base, Type t) {
      Ident id = new Ident(names.fresh(base), t);
      declare(id);
      return id;
    }

    /**
     * Gives a map's rows the shape of its function's results where those sizes are known outside
     * the function (after inlining, a named function's declared result type knows no sizes).
     */
    private Stm refineMapShapes(Stm stm) {
      if (!(stm.exp() instanceof Exp.Screma m && m.isMap())) {
        return stm;
      }
      Lambda f = m.function();
      Set<String> inside = Analysis.boundIn(f.body());
      f.params().forEach(p -> inside.add(p.name()));
      List<Type> returns = new ArrayList<>();
      List<Ident> pattern = new ArrayList<>();
      for (int k = 0; k < f.returnTypes().size(); k++) {
        Type declared = f.returnTypes().get(k);
        Type actual = typeOf(f.body().result().get(k));
        boolean better =
            declared.rank() > 0
                && actual != null
                && !InternalTypes.sizesKnownOutside(declared, inside)
                && InternalTypes.sizesKnownOutside(actual, inside);
        Type row = better ? actual : declared;
        returns.add(row);
        Ident out = stm.pattern().get(k);
        pattern.add(
            better
                ? new Ident(
                    out.name(),
                    new Type.Array(row, ((Type.Array) out.type()).size(), out.type().isUnique()))
                : out);
      }
      return new Stm(
          pattern,
          stm.certificates(),
          Exp.Screma.map(new Lambda(f.params(), f.body(), returns), m.inputs(), m.pos())
              .fusedFrom(m));
    }

    /**
     * Drops map outputs nobody uses and SOAC inputs the function ignores, where that cannot hide a
     * failure.
     */
    private Stm pruneSoacInputs(Stm stm) {
      if (stm.exp().isMap() || stm.exp() instanceof Exp.Screma s && s.fused()) {
        Exp.Soac soac = (Exp.Soac) stm.exp();
        Pruned p = pruneParams(soac.rowFunction(), soac.accumulators(), soac.inputs());
        return stm.withExp(soac.withRowFunction(p.function, p.inputs));
      }
      return stm;
    }

    private record Pruned(Lambda function, List<SubExp> inputs) {}

    /**
     * Removes the parameters after the first {@code keep} that the body never uses, with their
     * inputs (one input always stays).
     */
    private static Pruned pruneParams(Lambda f, int keep, List<SubExp> inputs) {
      Set<String> used = Analysis.useCounts(f.body()).keySet();
      List<Ident> params = new ArrayList<>(f.params().subList(0, keep));
      List<SubExp> kept = new ArrayList<>();
      for (int k = 0; k < inputs.size(); k++) {
        Ident p = f.params().get(keep + k);
        boolean last = kept.isEmpty() && k == inputs.size() - 1;
        if (used.contains(p.name()) || last) {
          params.add(p);
          kept.add(inputs.get(k));
        }
      }
      return new Pruned(new Lambda(params, f.body(), f.returnTypes()), kept);
    }

    /**
     * Removes bindings whose results are unused and that cannot fail, and unused scalar map
     * outputs.
     */
    private Body removeDead(Body body, Set<String> alsoLive) {
      if (!on(SimplificationRule.REMOVE_DEAD_CODE)) {
        return body;
      }
      Set<String> live =
          new HashSet<>(Analysis.useCounts(new Body(List.of(), body.result())).keySet());
      live.addAll(alsoLive);
      List<Stm> kept = new ArrayList<>();
      List<Stm> stms = body.stms();
      for (int k = stms.size() - 1; k >= 0; k--) {
        Stm stm = withoutDeadMapOutputs(stms.get(k), live);
        boolean used = stm.pattern().stream().anyMatch(p -> live.contains(p.name()));
        if (used || facts.mayFail(stm.exp())) {
          kept.add(0, stm);
          live.addAll(facts.freeVariables(stm));
        }
      }
      return new Body(kept, body.result());
    }

    private static Stm withoutDeadMapOutputs(Stm stm, Set<String> live) {
      if (!(stm.exp() instanceof Exp.Screma m && m.isMap()) || stm.pattern().size() < 2) {
        return stm;
      }
      List<Ident> pattern = new ArrayList<>();
      List<SubExp> results = new ArrayList<>();
      List<Type> returns = new ArrayList<>();
      for (int k = 0; k < stm.pattern().size(); k++) {
        Ident out = stm.pattern().get(k);
        boolean keep =
            live.contains(out.name())
                || m.function().returnTypes().get(k).rank() > 0
                || (pattern.isEmpty() && k == stm.pattern().size() - 1);
        if (keep) {
          pattern.add(out);
          results.add(m.function().body().result().get(k));
          returns.add(m.function().returnTypes().get(k));
        }
      }
      Lambda f =
          new Lambda(m.function().params(), new Body(m.function().body().stms(), results), returns);
      return new Stm(
          pattern, stm.certificates(), Exp.Screma.map(f, m.inputs(), m.pos()).fusedFrom(m));
    }
  }
}
