package dev.l0.opt.flatten;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
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
import dev.l0.opt.ir.SubExp;
import dev.l0.semantics.FailureDetails;
import dev.l0.types.TypedProgram;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tuple-of-arrays flattening into internal L0 (thesis ch. 4, §4.1–4.2). An external value becomes a
 * list of tupleless components; an array of tuples becomes a tuple of arrays, so {@code zip} and
 * {@code unzip} disappear and SOACs take and return several arrays. The size check {@code zip}
 * implied becomes {@code assert(size(0,a) = size(0,b))}; its certificate travels with the zipped
 * value and predicates every statement that consumes it (§4.2). Functions carry their certificates
 * (§4.2.1): each array of tuples among a function's parameters gets a {@code cert} parameter in
 * front of its arrays, the precondition that they have one outer size, which the caller asserts;
 * each array of tuples in its result gets a {@code cert} result in front, the postcondition, which
 * the function asserts and the caller binds. So inlining a body as it is predicates exactly the
 * statements that need the precondition. The output is let- and tuple-normalised by construction
 * (§5.2): every operation, call and SOAC gets its own binding of tupleless names, and a let of a
 * tuple binds its components directly. Sizes go into the types (ARCHITECTURE.md "IR"): array
 * parameters get named sizes, SOAC results the size of their input.
 */
public final class TupleFlattener {
  private static final Type CERT = InternalTypes.CERT;

  /** An external value in internal form: its components and the certificates that guard them. */
  private record Flat(List<SubExp> components, List<String> certificates) {
    Flat {
      components = List.copyOf(components);
      certificates = List.copyOf(certificates);
    }

    static Flat of(List<SubExp> components) {
      return new Flat(components, List.of());
    }

    static Flat of(SubExp component) {
      return new Flat(List.of(component), List.of());
    }

    SubExp single() {
      return components.get(0);
    }
  }

  /**
   * The components {@code from} (inclusive) to {@code to} (exclusive) of an external type's
   * components.
   */
  private record Range(int from, int to) {}

  private final TypedProgram typed;
  private final NameSource names;

  /** The type of every internal name bound so far (names are globally unique). */
  private final Map<String, Type> internalTypes = new HashMap<>();

  private TupleFlattener(TypedProgram typed, NameSource names) {
    this.typed = typed;
    this.names = names;
  }

  public static InternalProgram flatten(TypedProgram typed, NameSource names) {
    TupleFlattener flattener = new TupleFlattener(typed, names);
    return new InternalProgram(
        typed.program().functions().stream().map(flattener::function).toList());
  }

  private InternalFunction function(FunDef def) {
    Scope<Flat> env = Scope.empty();
    List<Ident> params = new ArrayList<>();
    StmBuilder b = new StmBuilder(names);
    for (Param p : def.params()) {
      List<Ident> comps = new ArrayList<>();
      for (Type t : components(p.type())) {
        String name = names.fresh(p.name());
        Ident id = new Ident(name, sizedParameter(name, t, b));
        internalTypes.put(name, id.type());
        comps.add(id);
      }
      List<Range> groups = tupleArrays(p.type());
      List<Ident> certs = freshIdents(p.name() + "_c", Collections.nCopies(groups.size(), CERT));
      params.addAll(interleaved(comps, groups, certs));
      env = env.with(p.name(), new Flat(vars(comps), certs.stream().map(Ident::name).toList()));
    }
    Flat result = expr(def.body(), env, b, def.name() + "_res");
    List<SubExp> results = certified(def.returnType(), result, def.name() + "_c", def.pos(), b);
    return new InternalFunction(
        def.name(), params, b.finish(results), certifiedComponents(def.returnType()));
  }

  // ---- certificates of function parameters and results (thesis §4.2.1) ----

  /**
   * The arrays of tuples of an external type that flatten into several arrays, as ranges of its
   * components: each needs a certificate that those arrays have one outer size. Arrays of tuples
   * inside the rows of an array are part of that array's range.
   */
  private static List<Range> tupleArrays(Type external) {
    List<Range> out = new ArrayList<>();
    addTupleArrays(external, 0, out);
    return out;
  }

  private static void addTupleArrays(Type t, int offset, List<Range> out) {
    if (t instanceof Type.Tuple tuple) {
      int at = offset;
      for (Type element : tuple.elements()) {
        addTupleArrays(element, at, out);
        at += InternalTypes.components(element).size();
      }
    } else if (t instanceof Type.Array && InternalTypes.components(t).size() > 1) {
      out.add(new Range(offset, offset + InternalTypes.components(t).size()));
    }
  }

  /**
   * {@code components} with {@code certificates.get(g)} in front of the components of {@code
   * groups.get(g)}.
   */
  private static <T> List<T> interleaved(
      List<T> components, List<Range> groups, List<T> certificates) {
    List<T> out = new ArrayList<>();
    int g = 0;
    for (int k = 0; k < components.size(); k++) {
      if (g < groups.size() && groups.get(g).from() == k) {
        out.add(certificates.get(g++));
      }
      out.add(components.get(k));
    }
    return out;
  }

  /**
   * The internal types a value of an external type is passed as: its components, a {@code cert} in
   * front of each array of tuples.
   */
  private static List<Type> certifiedComponents(Type external) {
    List<Range> groups = tupleArrays(external);
    return interleaved(components(external), groups, Collections.nCopies(groups.size(), CERT));
  }

  /**
   * {@code value}, of external type {@code external}, as it is passed to or returned from a
   * function: its components, each array of tuples behind the certificate, asserted here, that its
   * arrays have one outer size.
   */
  private List<SubExp> certified(
      Type external, Flat value, String certName, SourcePos pos, StmBuilder b) {
    List<Range> groups = tupleArrays(external);
    List<SubExp> certs = new ArrayList<>();
    for (Range r : groups) {
      List<SubExp> arrays = value.components().subList(r.from(), r.to());
      certs.add(SubExp.var(sizesAgree(certName, arrays, value.certificates(), pos, b)));
    }
    return interleaved(value.components(), groups, certs);
  }

  /**
   * The arguments of a call of {@code callee}: each argument's components, certified for its
   * parameter.
   */
  private List<SubExp> certifiedArguments(
      FunDef callee, List<Flat> args, SourcePos pos, StmBuilder b) {
    List<SubExp> out = new ArrayList<>();
    for (int k = 0; k < args.size(); k++) {
      Param p = callee.params().get(k);
      out.addAll(certified(p.type(), args.get(k), p.name() + "_c", pos, b));
    }
    return out;
  }

  /**
   * Emits the call of program function {@code callee}; its value's certificates are those the
   * callee returns.
   */
  private Flat applied(
      FunDef callee, Type resultType, List<SubExp> args, String base, StmBuilder b) {
    List<SubExp> results =
        emit(
            b,
            base,
            certifiedComponents(resultType),
            List.of(),
            new Exp.Apply(callee.name(), args));
    List<SubExp> components = new ArrayList<>();
    List<String> certs = new ArrayList<>();
    for (SubExp r : results) {
      if (InternalTypes.isCertificate(typeOf(r))) {
        certs.add(r.varName());
      } else {
        components.add(r);
      }
    }
    return new Flat(components, certs);
  }

  /**
   * {@code assert(size(0,a1) = size(0,ak))} for k = 2, ..., n in order, the first predicated on
   * {@code certs} and each on the one before: the certificate (the last) that {@code arrays} have
   * one outer size, failing as {@code zip} does (thesis §4.2), for the first argument whose size
   * differs, with both sizes.
   */
  private String sizesAgree(
      String certName, List<SubExp> arrays, List<String> certs, SourcePos pos, StmBuilder b) {
    SubExp first = outerSize(arrays.get(0), b);
    List<String> before = certs;
    String cert = null;
    for (int k = 1; k < arrays.size(); k++) {
      SubExp size = outerSize(arrays.get(k), b);
      SubExp same =
          emitOne(
              b,
              "zip_eq",
              ScalarType.BOOL,
              List.of(),
              new Exp.BinOp(BinaryOperator.EQ, ScalarType.I32, first, size, pos));
      SubExp argument = SubExp.constant(new ScalarValue.Int(ScalarType.I32, k + 1));
      cert =
          emitOne(
                  b,
                  certName,
                  CERT,
                  before,
                  new Exp.Assert(
                      same, "zip", FailureDetails.ZIP, List.of(argument, size, first), pos))
              .varName();
      before = List.of(cert);
    }
    return cert;
  }

  // ---- types and names ----

  /**
   * The type of array parameter {@code name} with each unknown size named by a statement {@code let
   * name_dk = size(k, name)} at the top of the body, so every size question about it has a variable
   * for an answer (ARCHITECTURE.md, "shapes live in types").
   */
  private Type sizedParameter(String name, Type t, StmBuilder b) {
    if (!(t instanceof Type.Array)) {
      return t;
    }
    List<Dim> dims = new ArrayList<>();
    Type cur = t;
    for (int k = 0; cur instanceof Type.Array a; k++, cur = a.element()) {
      dims.add(
          a.size() instanceof Dim.Unknown
              ? InternalTypes.dimOf(
                  emitOne(
                      b,
                      name + "_d" + k,
                      ScalarType.I32,
                      List.of(),
                      new Exp.Size(k, SubExp.var(name))))
              : a.size());
    }
    Type out = cur;
    for (int k = dims.size() - 1; k >= 0; k--) {
      out = new Type.Array(out, dims.get(k), k == 0 && t.isUnique());
    }
    return out;
  }

  /**
   * {@code declared}, or the type of {@code actual} where that has sizes that hold outside the code
   * binding {@code inside}.
   */
  private Type refined(Type declared, SubExp actual, Set<String> inside) {
    Type t = typeOf(actual);
    if (!(t instanceof Type.Array) || !InternalTypes.sizesKnownOutside(t, inside)) {
      return declared;
    }
    return declared.isUnique() ? ((Type.Array) t).withUnique(true) : t;
  }

  private List<Type> refinedAll(List<Type> declared, List<SubExp> actual, Set<String> inside) {
    List<Type> out = new ArrayList<>();
    for (int k = 0; k < declared.size(); k++) {
      out.add(refined(declared.get(k), actual.get(k), inside));
    }
    return out;
  }

  /** The component types of an external type, with sizes kept only where they are constants. */
  private static List<Type> components(Type external) {
    return InternalTypes.components(withConstantSizesOnly(external));
  }

  /**
   * {@code initial} with every size that {@code step} (a loop iteration's type) does not keep made
   * unknown.
   */
  private static Type sizesKeptBy(Type initial, Type step) {
    if (initial instanceof Type.Array a && step instanceof Type.Array s) {
      Dim size = a.size().equals(s.size()) ? a.size() : Dim.UNKNOWN;
      return new Type.Array(sizesKeptBy(a.element(), s.element()), size, a.unique());
    }
    if (initial instanceof Type.Tuple a
        && step instanceof Type.Tuple s
        && a.elements().size() == s.elements().size()) {
      List<Type> parts = new ArrayList<>();
      for (int i = 0; i < a.elements().size(); i++) {
        parts.add(sizesKeptBy(a.elements().get(i), s.elements().get(i)));
      }
      return new Type.Tuple(parts);
    }
    return initial;
  }

  /**
   * The internal type of a loop's merge variable: {@code kept} (the type checker's, of one
   * component) with its constant sizes, and with the internal initial value's size ({@code
   * initial}'s, null if not known) where {@code kept} names the initial value's size, which every
   * iteration keeps; unknown elsewhere.
   */
  private static Type sizesWhereKept(Type initial, Type kept) {
    if (kept instanceof Type.Array k) {
      Type.Array i = initial instanceof Type.Array a ? a : null;
      Dim size =
          k.size() instanceof Dim.Const
              ? k.size()
              : k.size() instanceof Dim.Named && i != null ? i.size() : Dim.UNKNOWN;
      return new Type.Array(
          sizesWhereKept(i == null ? null : i.element(), k.element()), size, k.unique());
    }
    return kept;
  }

  private static Type withConstantSizesOnly(Type t) {
    if (t instanceof Type.Array a) {
      Dim size = a.size() instanceof Dim.Const ? a.size() : Dim.UNKNOWN;
      return new Type.Array(withConstantSizesOnly(a.element()), size, a.unique());
    }
    if (t instanceof Type.Tuple tuple) {
      return new Type.Tuple(
          tuple.elements().stream().map(TupleFlattener::withConstantSizesOnly).toList());
    }
    return t;
  }

  private List<Type> componentsOf(Expr e) {
    return components(typed.typeOf(e));
  }

  private List<Ident> freshIdents(String base, List<Type> types) {
    List<Ident> out = new ArrayList<>();
    for (Type t : types) {
      Ident id = new Ident(names.fresh(base), t);
      internalTypes.put(id.name(), t);
      out.add(id);
    }
    return out;
  }

  private static List<SubExp> vars(List<Ident> ids) {
    return ids.stream().map(id -> (SubExp) id.var()).toList();
  }

  private Type typeOf(SubExp s) {
    if (s instanceof SubExp.Const c) {
      return c.value().type();
    }
    return internalTypes.get(((SubExp.Var) s).name());
  }

  private List<Type> typesOf(List<SubExp> xs) {
    return xs.stream().map(this::typeOf).toList();
  }

  private List<SubExp> emit(
      StmBuilder b, String base, List<Type> types, List<String> certs, Exp exp) {
    List<Ident> pattern = b.emit(base, types, certs, exp);
    pattern.forEach(id -> internalTypes.put(id.name(), id.type()));
    return vars(pattern);
  }

  private SubExp emitOne(StmBuilder b, String base, Type type, List<String> certs, Exp exp) {
    return emit(b, base, List.of(type), certs, exp).get(0);
  }

  private static List<String> certsOf(Flat... operands) {
    Set<String> all = new LinkedHashSet<>();
    for (Flat f : operands) {
      all.addAll(f.certificates());
    }
    return List.copyOf(all);
  }

  private static List<String> certsOf(List<Flat> operands) {
    return certsOf(operands.toArray(new Flat[0]));
  }

  /**
   * {@code size(k, a)} of an array of empty tuples, which has no components to ask: the size its
   * type knows, a constant or a variable in scope.
   */
  private SubExp sizeOfEmptyTuples(Expr.Size s, Scope<Flat> env) {
    Type t = typed.typeOf(s.array());
    for (int k = 0; k < s.dimension(); k++) {
      t = ((Type.Array) t).element();
    }
    Dim size = ((Type.Array) t).size();
    if (size instanceof Dim.Const c) {
      return SubExp.constant(ScalarValue.i32((int) c.size()));
    }
    if (size instanceof Dim.Named n && env.get(n.variable()) != null) {
      return env.get(n.variable()).single();
    }
    throw new L0CompileError(
        s.pos(),
        "the optimiser cannot tell size("
            + s.dimension()
            + ", ...) of this array of empty"
            + " tuples: its type does not give the size (run it with --no-opt)");
  }

  /**
   * The outer size of an internal array: from its type where known, else a {@code size} statement.
   */
  private SubExp outerSize(SubExp array, StmBuilder b) {
    SubExp known = InternalTypes.outerSize(typeOf(array));
    return known != null
        ? known
        : emitOne(b, "size", ScalarType.I32, List.of(), new Exp.Size(0, array));
  }

  // ---- expressions ----

  /**
   * Flattens {@code e}, emitting its statements into {@code b}. A chain of let, let-with and loop
   * bindings is walked iteratively, so a program of thousands of bindings does not exhaust the
   * stack.
   */
  private Flat expr(Expr e, Scope<Flat> env, StmBuilder b, String hint) {
    Expr current = e;
    Scope<Flat> scope = env;
    while (current instanceof Expr.Let
        || current instanceof Expr.LetWith
        || current instanceof Expr.Loop) {
      if (current instanceof Expr.Let let) {
        Flat value =
            expr(let.value(), scope, b, let.pattern() instanceof Pattern.Name n ? n.name() : null);
        scope = bindPattern(let.pattern(), typed.typeOf(let.value()), value, scope);
        current = let.body();
      } else if (current instanceof Expr.LetWith lw) {
        scope = letWith(lw, scope, b);
        current = lw.body();
      } else {
        Expr.Loop loop = (Expr.Loop) current;
        scope = loop(loop, scope, b);
        current = loop.body();
      }
    }
    return nonBinding(current, scope, b, hint);
  }

  private Flat nonBinding(Expr e, Scope<Flat> env, StmBuilder b, String hint) {
    if (e instanceof Expr.Literal lit) {
      return Flat.of(SubExp.constant(lit.value()));
    }
    if (e instanceof Expr.Var v) {
      Flat bound = env.get(v.name());
      if (bound == null) {
        throw new IllegalStateException("unbound variable after type checking: " + v.name());
      }
      return bound;
    }
    if (e instanceof Expr.TupleLit t) {
      List<Flat> parts = t.elements().stream().map(x -> expr(x, env, b, null)).toList();
      return new Flat(
          parts.stream().flatMap(p -> p.components().stream()).toList(), certsOf(parts));
    }
    if (e instanceof Expr.ArrayLit a) {
      return arrayLiteral(a, env, b, hint);
    }
    if (e instanceof Expr.Binary bin) {
      Flat l = expr(bin.left(), env, b, null);
      Flat r = expr(bin.right(), env, b, null);
      ScalarType operandType = (ScalarType) typed.typeOf(bin.left());
      ScalarType resultType = (ScalarType) typed.typeOf(bin);
      return Flat.of(
          emitOne(
              b,
              name(hint, "bop"),
              resultType,
              certsOf(l, r),
              new Exp.BinOp(bin.op(), operandType, l.single(), r.single(), bin.pos())));
    }
    if (e instanceof Expr.Unary u) {
      Flat x = expr(u.operand(), env, b, null);
      ScalarType t = (ScalarType) typed.typeOf(u);
      return Flat.of(
          emitOne(b, name(hint, "val"), t, x.certificates(), new Exp.UnOp(u.op(), t, x.single())));
    }
    if (e instanceof Expr.If i) {
      Flat c = expr(i.condition(), env, b, null);
      Body thenBody = subBody(i.thenBranch(), env);
      Body elseBody = subBody(i.elseBranch(), env);
      // Only array results have sizes that may be bound inside; collecting the names bound in both
      // bodies at every level of a deep else-if chain of scalars would make flattening quadratic.
      Set<String> inside = new HashSet<>();
      if (Stream.concat(thenBody.result().stream(), elseBody.result().stream())
          .anyMatch(s -> typeOf(s) instanceof Type.Array)) {
        inside.addAll(Analysis.boundIn(thenBody));
        inside.addAll(Analysis.boundIn(elseBody));
      }
      List<Type> declared = componentsOf(i);
      List<Type> fromThen = refinedAll(declared, thenBody.result(), inside);
      List<Type> types =
          fromThen.equals(refinedAll(declared, elseBody.result(), inside)) ? fromThen : declared;
      return Flat.of(
          emit(
              b,
              name(hint, "if"),
              types,
              c.certificates(),
              new Exp.If(c.single(), thenBody, elseBody)));
    }
    if (e instanceof Expr.Index ix) {
      Flat arr = expr(ix.array(), env, b, null);
      List<Flat> idx = ix.indices().stream().map(x -> expr(x, env, b, null)).toList();
      List<SubExp> indices = idx.stream().map(Flat::single).toList();
      List<Flat> all = new ArrayList<>(idx);
      all.add(arr);
      List<SubExp> out = new ArrayList<>();
      for (SubExp comp : arr.components()) {
        Type t = typeOf(comp);
        for (int k = 0; k < indices.size(); k++) {
          t = InternalTypes.row(t);
        }
        out.add(
            emitOne(b, name(hint, "idx"), t, certsOf(all), new Exp.Index(comp, indices, ix.pos())));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Call call) {
      return call(call, env, b, hint);
    }
    if (e instanceof Expr.Zip z) {
      return zip(z, env, b);
    }
    if (e instanceof Expr.Unzip u) {
      return expr(u.array(), env, b, hint);
    }
    if (e instanceof Expr.Iota iota) {
      Flat n = expr(iota.count(), env, b, null);
      Type t = InternalTypes.arrayOf(typed.typeOf(iota.count()), InternalTypes.dimOf(n.single()));
      return Flat.of(
          emitOne(
              b, name(hint, "iota"), t, n.certificates(), new Exp.Iota(n.single(), iota.pos())));
    }
    if (e instanceof Expr.Replicate rep) {
      Flat n = expr(rep.count(), env, b, null);
      Flat v = expr(rep.value(), env, b, null);
      List<SubExp> out = new ArrayList<>();
      for (SubExp comp : v.components()) {
        Type t = InternalTypes.arrayOf(typeOf(comp), InternalTypes.dimOf(n.single()));
        out.add(
            emitOne(
                b,
                name(hint, "rep"),
                t,
                certsOf(n, v),
                new Exp.Replicate(n.single(), comp, rep.pos())));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Size s) {
      Flat arr = expr(s.array(), env, b, null);
      if (arr.components().isEmpty()) {
        return Flat.of(sizeOfEmptyTuples(s, env));
      }
      return Flat.of(
          emitOne(
              b,
              name(hint, "size"),
              ScalarType.I32,
              arr.certificates(),
              new Exp.Size(s.dimension(), arr.single())));
    }
    if (e instanceof Expr.Reshape r) {
      List<Flat> shape = r.shape().stream().map(x -> expr(x, env, b, null)).toList();
      Flat arr = expr(r.array(), env, b, null);
      List<SubExp> dims = shape.stream().map(Flat::single).toList();
      List<Flat> all = new ArrayList<>(shape);
      all.add(arr);
      List<SubExp> out = new ArrayList<>();
      for (SubExp comp : arr.components()) {
        Type t = (ScalarType) typeOf(comp).baseElement();
        for (int k = dims.size() - 1; k >= 0; k--) {
          t = InternalTypes.arrayOf(t, InternalTypes.dimOf(dims.get(k)));
        }
        out.add(
            emitOne(
                b, name(hint, "reshape"), t, certsOf(all), new Exp.Reshape(dims, comp, r.pos())));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Transpose t) {
      Flat arr = expr(t.array(), env, b, null);
      List<Type> types = componentsOf(t);
      List<SubExp> out = new ArrayList<>();
      for (int c = 0; c < arr.components().size(); c++) {
        out.add(
            emitOne(
                b,
                name(hint, "transpose"),
                types.get(c),
                arr.certificates(),
                new Exp.Transpose(t.k(), t.n(), arr.components().get(c), t.pos())));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Split s) {
      Flat at = expr(s.at(), env, b, null);
      Flat arr = expr(s.array(), env, b, null);
      List<SubExp> first = new ArrayList<>();
      List<SubExp> second = new ArrayList<>();
      for (SubExp comp : arr.components()) {
        Type t = unknownOuter(typeOf(comp));
        List<SubExp> halves =
            emit(
                b,
                name(hint, "split"),
                List.of(t, t),
                certsOf(at, arr),
                new Exp.Split(at.single(), comp, s.pos()));
        first.add(halves.get(0));
        second.add(halves.get(1));
      }
      List<SubExp> out = new ArrayList<>(first);
      out.addAll(second);
      return Flat.of(out);
    }
    if (e instanceof Expr.Concat c) {
      Flat l = expr(c.left(), env, b, null);
      Flat r = expr(c.right(), env, b, null);
      List<SubExp> out = new ArrayList<>();
      for (int k = 0; k < l.components().size(); k++) {
        SubExp lc = l.components().get(k);
        out.add(
            emitOne(
                b,
                name(hint, "concat"),
                unknownOuter(typeOf(lc)),
                certsOf(l, r),
                new Exp.Concat(lc, r.components().get(k), c.pos())));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Copy c) {
      Flat v = expr(c.value(), env, b, null);
      List<SubExp> out = new ArrayList<>();
      for (SubExp comp : v.components()) {
        out.add(
            comp instanceof SubExp.Const
                ? comp
                : emitOne(
                    b, name(hint, "copy"), typeOf(comp), v.certificates(), new Exp.Copy(comp)));
      }
      return Flat.of(out);
    }
    if (e instanceof Expr.Map m) {
      Flat arr = expr(m.array(), env, b, null);
      List<Type> rows = rowTypes(arr);
      requireComponents(arr, "map", m.pos());
      Lambda f = lambda(m.function(), rows, env, b);
      Dim width = outerDim(arr, b);
      List<Type> out = f.returnTypes().stream().map(t -> InternalTypes.arrayOf(t, width)).toList();
      return Flat.of(
          emit(
              b,
              name(hint, "map"),
              out,
              arr.certificates(),
              Exp.Screma.map(f, arr.components(), m.pos())));
    }
    if (e instanceof Expr.Filter f) {
      Flat arr = expr(f.array(), env, b, null);
      requireComponents(arr, "filter", f.pos());
      Lambda p = lambda(f.function(), rowTypes(arr), env, b);
      List<Type> out =
          typesOf(arr.components()).stream().map(TupleFlattener::unknownOuter).toList();
      return Flat.of(
          emit(
              b,
              name(hint, "filter"),
              out,
              arr.certificates(),
              Exp.FilterMap.filter(p, arr.components())));
    }
    if (e instanceof Expr.Reduce r) {
      Flat ne = expr(r.neutral(), env, b, null);
      Flat arr = expr(r.array(), env, b, null);
      requireComponents(arr, "reduce", r.pos());
      Lambda op = lambda(r.function(), concat(componentsOf(r.neutral()), rowTypes(arr)), env, b);
      return Flat.of(
          emit(
              b,
              name(hint, "reduce"),
              componentsOf(r),
              certsOf(ne, arr),
              Exp.Screma.reduce(op, ne.components(), arr.components(), r.pos())));
    }
    if (e instanceof Expr.Scan s) {
      Flat ne = expr(s.neutral(), env, b, null);
      Flat arr = expr(s.array(), env, b, null);
      requireComponents(arr, "scan", s.pos());
      List<Type> accTypes = componentsOf(s.neutral());
      Lambda op = lambda(s.function(), concat(accTypes, rowTypes(arr)), env, b);
      Dim width = outerDim(arr, b);
      List<Type> out = accTypes.stream().map(t -> InternalTypes.arrayOf(t, width)).toList();
      return Flat.of(
          emit(
              b,
              name(hint, "scan"),
              out,
              certsOf(ne, arr),
              Exp.Screma.scan(op, ne.components(), arr.components(), s.pos())));
    }
    throw new IllegalStateException("unhandled expression " + e.getClass().getSimpleName());
  }

  private static String name(String hint, String fallback) {
    return hint != null ? hint : fallback;
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static Type unknownOuter(Type t) {
    return t instanceof Type.Array a ? a.withSize(Dim.UNKNOWN) : t;
  }

  private List<Type> rowTypes(Flat arrays) {
    return arrays.components().stream().map(c -> InternalTypes.row(typeOf(c))).toList();
  }

  /**
   * Refuses {@code soac} (written at {@code pos}) over an array of empty tuples: flattening gives
   * such an array no component, so nothing knows its rows (the reference interpreter runs it).
   */
  private static void requireComponents(Flat arrays, String soac, SourcePos pos) {
    if (arrays.components().isEmpty()) {
      throw new L0CompileError(
          pos,
          "the optimiser cannot run this "
              + soac
              + " over an array of empty tuples: such an array has no component that knows its size"
              + " (run it with --no-opt)");
    }
  }

  /**
   * The outer size of SOAC inputs as a dimension, naming it with a {@code size} statement where the
   * type does not know it.
   */
  private Dim outerDim(Flat arrays, StmBuilder b) {
    return InternalTypes.dimOf(outerSize(arrays.components().get(0), b));
  }

  private Body subBody(Expr e, Scope<Flat> env) {
    StmBuilder inner = new StmBuilder(names);
    Flat result = expr(e, env, inner, null);
    return inner.finish(result.components());
  }

  private Scope<Flat> bindPattern(Pattern p, Type type, Flat value, Scope<Flat> env) {
    if (p instanceof Pattern.Name n) {
      return env.with(n.name(), value);
    }
    Pattern.Tuple tuple = (Pattern.Tuple) p;
    List<Type> elementTypes = ((Type.Tuple) type).elements();
    Scope<Flat> out = env;
    int offset = 0;
    for (int k = 0; k < tuple.elements().size(); k++) {
      int width = InternalTypes.components(elementTypes.get(k)).size();
      Flat part =
          new Flat(value.components().subList(offset, offset + width), value.certificates());
      out = bindPattern(tuple.elements().get(k), elementTypes.get(k), part, out);
      offset += width;
    }
    return out;
  }

  private Flat arrayLiteral(Expr.ArrayLit a, Scope<Flat> env, StmBuilder b, String hint) {
    List<Flat> elements = a.elements().stream().map(x -> expr(x, env, b, null)).toList();
    List<Type> rowTypes = components(((Type.Array) typed.typeOf(a)).element());
    List<SubExp> out = new ArrayList<>();
    for (int c = 0; c < rowTypes.size(); c++) {
      int comp = c;
      List<SubExp> column = elements.stream().map(el -> el.components().get(comp)).toList();
      Type t = InternalTypes.arrayOf(rowTypes.get(c), new Dim.Const(column.size()));
      out.add(
          emitOne(
              b,
              name(hint, "arr"),
              t,
              certsOf(elements),
              new Exp.ArrayLit(column, rowTypes.get(c), a.pos())));
    }
    return Flat.of(out);
  }

  private Flat call(Expr.Call call, Scope<Flat> env, StmBuilder b, String hint) {
    List<Flat> args = call.args().stream().map(x -> expr(x, env, b, null)).toList();
    if (typed.program().function(call.function()).isPresent()) {
      FunDef callee = typed.function(call.function());
      return applied(
          callee,
          typed.typeOf(call),
          certifiedArguments(callee, args, call.pos(), b),
          name(hint, "call"),
          b);
    }
    Builtin builtin =
        Builtin.byName(call.function())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "unknown function after type checking: " + call.function()));
    ScalarType argType = (ScalarType) typed.typeOf(call.args().get(0));
    List<SubExp> flatArgs = args.stream().flatMap(f -> f.components().stream()).toList();
    return Flat.of(
        emitOne(
            b,
            name(hint, "call"),
            typed.typeOf(call),
            certsOf(args),
            new Exp.BuiltinCall(builtin, argType, flatArgs)));
  }

  /** Emits the in-place update and returns the scope its body sees. */
  private Scope<Flat> letWith(Expr.LetWith lw, Scope<Flat> env, StmBuilder b) {
    Flat source = env.get(lw.source());
    List<Flat> idx = lw.indices().stream().map(x -> expr(x, env, b, null)).toList();
    Flat value = expr(lw.value(), env, b, null);
    List<SubExp> indices = idx.stream().map(Flat::single).toList();
    List<Flat> all = new ArrayList<>(idx);
    all.add(source);
    all.add(value);
    List<SubExp> updated = new ArrayList<>();
    for (int c = 0; c < source.components().size(); c++) {
      SubExp comp = source.components().get(c);
      updated.add(
          emitOne(
              b,
              lw.dest(),
              typeOf(comp),
              certsOf(all),
              new Exp.Update(comp, indices, value.components().get(c), lw.pos())));
    }
    return env.with(lw.dest(), Flat.of(updated));
  }

  /**
   * Emits the loop and returns the scope its body sees. The merge variables have the initial
   * value's type except for the sizes that an iteration may change (a filter of the accumulator):
   * those are unknown, as they are for the loop's results. The sizes every iteration keeps (the
   * type checker's) are the initial values' sizes, named as this program names them.
   */
  private Scope<Flat> loop(Expr.Loop loop, Scope<Flat> env, StmBuilder b) {
    Flat init = expr(loop.init(), env, b, null);
    Flat bound = expr(loop.bound(), env, b, null);
    Type initType = sizesKeptBy(typed.typeOf(loop.init()), typed.typeOf(loop.loopBody()));
    List<Type> kept = InternalTypes.components(initType);
    List<Type> mergeTypes = new ArrayList<>();
    for (int k = 0; k < kept.size(); k++) {
      mergeTypes.add(sizesWhereKept(typeOf(init.components().get(k)), kept.get(k)));
    }
    List<Ident> merge = freshIdents("merge", mergeTypes);
    Ident counter = freshIdents(loop.counter(), List.of(typed.typeOf(loop.bound()))).get(0);
    Scope<Flat> inner = bindPattern(loop.pattern(), initType, Flat.of(vars(merge)), env);
    inner = inner.with(loop.counter(), Flat.of(counter.var()));
    Body body = subBody(loop.loopBody(), inner);
    List<SubExp> results =
        emit(
            b,
            "loop",
            mergeTypes,
            certsOf(init, bound),
            new Exp.Loop(merge, init.components(), counter, bound.single(), body));
    return bindPattern(loop.pattern(), initType, Flat.of(results), env);
  }

  private Flat zip(Expr.Zip z, Scope<Flat> env, StmBuilder b) {
    List<Flat> arrays = z.arrays().stream().map(x -> expr(x, env, b, null)).toList();
    List<String> certs = new ArrayList<>(certsOf(arrays));
    if (arrays.size() > 1) {
      certs.add(
          sizesAgree(
              "zip_cert", arrays.stream().map(Flat::single).toList(), List.of(), z.pos(), b));
    }
    return new Flat(arrays.stream().flatMap(a -> a.components().stream()).toList(), certs);
  }

  // ---- function arguments of SOACs ----

  /**
   * The values of external parameters {@code ps} whose components are, in order, {@code
   * components}.
   */
  private static List<Flat> perParameter(List<Param> ps, List<Ident> components) {
    List<Flat> out = new ArrayList<>();
    int offset = 0;
    for (Param p : ps) {
      int width = InternalTypes.components(p.type()).size();
      out.add(Flat.of(vars(components.subList(offset, offset + width))));
      offset += width;
    }
    return out;
  }

  /**
   * The tupleless lambda for a SOAC's function argument whose flattened parameters have types
   * {@code paramTypes}.
   */
  private Lambda lambda(FunArg f, List<Type> paramTypes, Scope<Flat> env, StmBuilder outer) {
    if (f instanceof FunArg.Lambda l) {
      List<Ident> params = freshIdents("p", paramTypes);
      List<Flat> values = perParameter(l.params(), params);
      Scope<Flat> inner = env;
      for (int k = 0; k < values.size(); k++) {
        inner = inner.with(l.params().get(k).name(), values.get(k));
      }
      StmBuilder b = new StmBuilder(names);
      Flat result = expr(l.body(), inner, b, null);
      Body body = b.finish(result.components());
      Set<String> inside = Analysis.boundIn(body);
      params.forEach(p -> inside.add(p.name()));
      return new Lambda(
          params, body, refinedAll(components(l.returnType()), body.result(), inside));
    }
    if (f instanceof FunArg.FunctionRef ref) {
      List<Flat> curried = ref.curried().stream().map(x -> expr(x, env, outer, null)).toList();
      List<Ident> params = freshIdents("p", paramTypes);
      StmBuilder b = new StmBuilder(names);
      if (typed.program().function(ref.name()).isPresent()) {
        FunDef callee = typed.function(ref.name());
        List<Flat> args = new ArrayList<>(curried);
        args.addAll(
            perParameter(callee.params().subList(curried.size(), callee.params().size()), params));
        Flat result =
            applied(
                callee,
                callee.returnType(),
                certifiedArguments(callee, args, ref.pos(), b),
                "res",
                b);
        // A row of the SOAC's result is a value, not a binding: the postcondition's certificate
        // stays inside.
        return new Lambda(params, b.finish(result.components()), components(callee.returnType()));
      }
      Builtin builtin =
          Builtin.byName(ref.name())
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "unknown function after type checking: " + ref.name()));
      List<SubExp> args =
          concat(curried.stream().flatMap(c -> c.components().stream()).toList(), vars(params));
      ScalarType argType = (ScalarType) typeOf(args.get(0));
      Type resultType =
          builtin.kind() == Builtin.Kind.CONVERSION ? builtin.conversionTarget() : argType;
      SubExp result =
          emitOne(
              b, "res", resultType, certsOf(curried), new Exp.BuiltinCall(builtin, argType, args));
      return new Lambda(params, b.finish(List.of(result)), List.of(resultType));
    }
    FunArg.OperatorRef op = (FunArg.OperatorRef) f;
    List<Flat> curried = op.curried().stream().map(x -> expr(x, env, outer, null)).toList();
    List<Ident> params = freshIdents("p", paramTypes);
    List<SubExp> operands = concat(curried.stream().map(Flat::single).toList(), vars(params));
    ScalarType operandType = (ScalarType) typeOf(operands.get(0));
    BinaryOperator.Kind kind = op.operator().kind();
    ScalarType resultType = kind == BinaryOperator.Kind.COMPARISON ? ScalarType.BOOL : operandType;
    StmBuilder b = new StmBuilder(names);
    SubExp result =
        emitOne(
            b,
            "bop",
            resultType,
            certsOf(curried),
            new Exp.BinOp(op.operator(), operandType, operands.get(0), operands.get(1), op.pos()));
    return new Lambda(params, b.finish(List.of(result)), List.of(resultType));
  }
}
