package dev.l0.types;

import dev.l0.ir.Builtin;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks one function: the type and shape of every expression (thesis ch. 2, §2.3), its sharing
 * (§3.1) and the uniqueness rules (§3.2) in one pass in evaluation order, so that the first error
 * found is the first in the source. Records every expression's type in the shared table.
 */
final class ExpressionChecker {
  private final Map<String, FunDef> functions;
  private final Map<Expr, Type> types;
  private final UniquenessTracker tracker = new UniquenessTracker();
  private int loopDepth;

  /**
   * @param functions the program's functions by name (the first definition of each)
   * @param types where each checked expression's type is recorded, by identity
   */
  ExpressionChecker(Map<String, FunDef> functions, Map<Expr, Type> types) {
    this.functions = functions;
    this.types = types;
  }

  /** Checks {@code function}'s parameters, body, return type and Uniqueness Rule 2. */
  void checkFunction(FunDef function) {
    Environment env = bindParameters(function.params(), Environment.EMPTY, new ArrayList<>());
    Checked body = check(function.body(), env);
    String who = "function '" + function.name() + "'";
    if (!body.type().sameShapeAs(function.returnType())) {
      throw new L0CompileError(
          function.body().pos(),
          who
              + " must return "
              + ScalarRules.name(function.returnType())
              + ", but its body has type "
              + ScalarRules.name(body.type()));
    }
    checkUniqueResult(
        function.returnType(), body.type(), body.sharing(), function.body().pos(), who);
  }

  private Checked check(Expr e, Environment env) {
    Checked result = checkNode(e, env);
    types.put(e, result.type());
    return result;
  }

  private Checked checkNode(Expr e, Environment env) {
    if (e instanceof Expr.Literal lit) {
      return Checked.fresh(lit.value().type());
    }
    if (e instanceof Expr.Var v) {
      return variable(v, env);
    }
    if (e instanceof Expr.TupleLit t) {
      return tuple(t, env);
    }
    if (e instanceof Expr.ArrayLit a) {
      return arrayLiteral(a, env);
    }
    if (e instanceof Expr.Binary b) {
      Type left = check(b.left(), env).type();
      Type right = check(b.right(), env).type();
      return Checked.fresh(
          ScalarRules.binary(
              b.op(),
              left,
              b.left().pos(),
              right,
              b.right().pos(),
              ScalarRules.literalHint(b.left(), left, b.right(), right)));
    }
    if (e instanceof Expr.Unary u) {
      return Checked.fresh(
          ScalarRules.unary(u.op(), check(u.operand(), env).type(), u.operand().pos()));
    }
    if (e instanceof Expr.If i) {
      return conditional(i, env);
    }
    if (e instanceof Expr.Index i) {
      return index(i, env);
    }
    if (e instanceof Expr.Call c) {
      return call(c, env);
    }
    if (e instanceof Expr.Let l) {
      return let(l, env);
    }
    if (e instanceof Expr.LetWith l) {
      return letWith(l, env);
    }
    if (e instanceof Expr.Loop l) {
      return loop(l, env);
    }
    if (e instanceof Expr.Map m) {
      return map(m, env);
    }
    if (e instanceof Expr.Filter f) {
      return filter(f, env);
    }
    if (e instanceof Expr.Reduce r) {
      return reduceOrScan(r.function(), r.neutral(), r.array(), "reduce", env);
    }
    if (e instanceof Expr.Scan s) {
      return reduceOrScan(s.function(), s.neutral(), s.array(), "scan", env);
    }
    return ArrayOperations.check(e, env, this::check);
  }

  // ---- variables, tuples, literals, branches ----

  private Checked variable(Expr.Var v, Environment env) {
    Variable var = lookup(v.name(), v.pos(), env);
    tracker.use(var, v.pos());
    // A size named by a variable is kept only while that name still means the same binding.
    Type type =
        Shapes.mapDims(
            var.type(),
            d ->
                d instanceof Dim.Named n
                        && !env.lookup(n.variable()).equals(var.scope().lookup(n.variable()))
                    ? Dim.UNKNOWN
                    : d);
    return new Checked(type, var.aliases().plus(var, var.type()));
  }

  private Checked tuple(Expr.TupleLit t, Environment env) {
    List<Type> parts = new ArrayList<>();
    List<Sharing> sharing = new ArrayList<>();
    for (Expr element : t.elements()) {
      Checked c = check(element, env);
      parts.add(c.type());
      sharing.add(c.sharing());
    }
    return new Checked(new Type.Tuple(parts), new Sharing.Components(sharing));
  }

  /**
   * An array literal: elements of one type and, in the dimensions the literal's own syntax writes
   * out (also inside tuple literals, {@link #writtenSizeConflict}), one shape (thesis §2.1: {@code
   * [[1, 2], [3]]} is a compile-time error, but {@code [iota(1), iota(2)]} a run-time error if
   * reached, so sizes its elements compute may differ here and the interpreter checks them); never
   * unique (§3.2).
   */
  private Checked arrayLiteral(Expr.ArrayLit a, Environment env) {
    if (a.elements().isEmpty()) {
      throw new L0CompileError(a.pos(), "an array literal needs at least one element");
    }
    Type first = check(a.elements().get(0), env).type();
    Type element = first;
    for (int i = 1; i < a.elements().size(); i++) {
      Expr e = a.elements().get(i);
      Type t = check(e, env).type();
      if (!t.sameShapeAs(first)) {
        throw new L0CompileError(
            e.pos(),
            "array literal elements must have one type: element 1 has type "
                + ScalarRules.name(first)
                + ", element "
                + (i + 1)
                + " has type "
                + ScalarRules.name(t));
      }
      String conflict = writtenSizeConflict(a.elements().get(0), first, e, t);
      if (conflict != null) {
        throw new L0CompileError(
            e.pos(),
            "irregular array literal: elements 1 and "
                + (i + 1)
                + " have "
                + conflict
                + " (arrays must be regular, thesis §2.1)");
      }
      element = Shapes.join(element, t);
    }
    Type type =
        new Type.Array(Shapes.asElement(element), new Dim.Const(a.elements().size()), false);
    return Checked.fresh(type);
  }

  /**
   * A conflict between the sizes that two elements of one array literal, {@code x} and {@code y} of
   * types {@code tx} and {@code ty}, write out, or null: in the dimensions both write out as array
   * literals, and in each component where both are tuple literals, since the fullness of an array
   * of tuples transcends the tuples (thesis §2.3.2: {@code [{[1], [1.0]}, {[2,3], [2.0]}]} is not
   * full).
   */
  private static String writtenSizeConflict(Expr x, Type tx, Expr y, Type ty) {
    if (x instanceof Expr.TupleLit p
        && y instanceof Expr.TupleLit q
        && tx instanceof Type.Tuple s
        && ty instanceof Type.Tuple t) {
      for (int j = 0; j < p.elements().size(); j++) {
        String conflict =
            writtenSizeConflict(
                p.elements().get(j), s.elements().get(j), q.elements().get(j), t.elements().get(j));
        if (conflict != null) {
          return conflict + " of tuple component " + (j + 1);
        }
      }
      return null;
    }
    return Shapes.constantSizeConflict(
        tx, ty, 0, Math.min(writtenOutDimensions(x), writtenOutDimensions(y)));
  }

  /**
   * How many outer dimensions of {@code e}'s value array literals write out: one more than the
   * fewest of its elements' for an array literal, none for any other expression.
   */
  private static int writtenOutDimensions(Expr e) {
    if (!(e instanceof Expr.ArrayLit a)) {
      return 0;
    }
    return 1
        + a.elements().stream().mapToInt(ExpressionChecker::writtenOutDimensions).min().orElse(0);
  }

  private Checked conditional(Expr.If i, Environment env) {
    Map<Variable, UniquenessTracker.Observation> before = tracker.observations();
    Type condition = check(i.condition(), env).type();
    if (condition != ScalarType.BOOL) {
      throw new L0CompileError(
          i.condition().pos(),
          "the condition of 'if' must be bool, got " + ScalarRules.name(condition));
    }
    Map<Variable, UniquenessTracker.Observation> afterCondition = tracker.observations();
    Map<Variable, SourcePos> consumedBefore = tracker.consumptions();
    // The branches are alternatives: each starts from the state before them.
    tracker.restoreObservations(before);
    Checked then = check(i.thenBranch(), env);
    Map<Variable, UniquenessTracker.Observation> thenObservations = tracker.observations();
    Map<Variable, SourcePos> thenConsumptions = tracker.consumptions();
    tracker.restoreObservations(before);
    tracker.restoreConsumptions(consumedBefore);
    Checked otherwise = check(i.elseBranch(), env);
    if (!otherwise.type().sameShapeAs(then.type())) {
      throw new L0CompileError(
          i.elseBranch().pos(),
          "the branches of 'if' must have one type: "
              + ScalarRules.name(then.type())
              + " and "
              + ScalarRules.name(otherwise.type()));
    }
    tracker.addConsumptions(thenConsumptions);
    tracker.addObservations(afterCondition);
    tracker.addObservations(thenObservations);
    return new Checked(
        Shapes.join(then.type(), otherwise.type()), then.sharing().combine(otherwise.sharing()));
  }

  /** Indexing; a slice aliases the array and is unique when the array is (thesis §3.1). */
  private Checked index(Expr.Index i, Environment env) {
    Checked array = check(i.array(), env);
    Type element = indexedElement(array.type(), i.indices(), i.array().pos(), "index", env);
    Type type = Shapes.withUniqueness(element, array.type().isUnique());
    return new Checked(type, Sharing.spread(type, array.sharing().all()));
  }

  /**
   * Checks {@code indices} into an array of type {@code array}; the type of the element they
   * select.
   */
  private Type indexedElement(
      Type array, List<Expr> indices, SourcePos arrayPos, String what, Environment env) {
    if (!(array instanceof Type.Array)) {
      throw new L0CompileError(arrayPos, what + " needs an array, got " + ScalarRules.name(array));
    }
    Type element = array;
    for (int k = 0; k < indices.size(); k++) {
      Expr index = indices.get(k);
      if (!(element instanceof Type.Array a)) {
        throw new L0CompileError(
            index.pos(),
            "too many indices: " + indices.size() + " for an array of rank " + array.rank());
      }
      Type t = check(index, env).type();
      if (!ScalarRules.isIndex(t)) {
        throw new L0CompileError(
            index.pos(), "an index must be i32 or i64, got " + ScalarRules.name(t));
      }
      element = a.element();
    }
    return Shapes.asElement(element);
  }

  // ---- calls ----

  private Checked call(Expr.Call c, Environment env) {
    FunDef function = functions.get(c.function());
    if (function == null) {
      return builtinCall(c, env);
    }
    String who = "function '" + c.function() + "'";
    ScalarRules.checkArity(who, function.params().size(), c.args().size(), c.pos());
    Set<Variable> resultMayAlias = new LinkedHashSet<>();
    for (int i = 0; i < c.args().size(); i++) {
      Expr arg = c.args().get(i);
      Param param = function.params().get(i);
      Map<Variable, UniquenessTracker.Observation> pending = tracker.observations();
      Checked checked = check(arg, env);
      if (!checked.type().sameShapeAs(param.type())) {
        throw new L0CompileError(
            arg.pos(),
            "argument "
                + (i + 1)
                + " of "
                + who
                + " must have type "
                + ScalarRules.name(param.type())
                + " ("
                + param.named("parameter")
                + "), got "
                + ScalarRules.name(checked.type()));
      }
      consumeUniqueParts(param.type(), checked.type(), checked.sharing(), arg, pending);
      resultMayAlias.addAll(nonUniqueParts(param.type(), checked.sharing()));
    }
    return new Checked(
        function.returnType(), Sharing.callResult(function.returnType(), resultMayAlias));
  }

  private Checked builtinCall(Expr.Call c, Environment env) {
    Builtin builtin =
        Builtin.byName(c.function())
            .orElseThrow(
                () -> new L0CompileError(c.pos(), "unknown function '" + c.function() + "'"));
    ScalarRules.checkArity(
        "function '" + c.function() + "'", builtin.arity(), c.args().size(), c.pos());
    List<Type> argTypes = new ArrayList<>();
    for (Expr arg : c.args()) {
      argTypes.add(check(arg, env).type());
    }
    return Checked.fresh(
        ScalarRules.builtin(builtin, argTypes, c.args().stream().map(Expr::pos).toList(), c.pos()));
  }

  /**
   * Consumes the parts of an argument passed for the unique parts of a parameter (Uniqueness Rule
   * 1).
   */
  private void consumeUniqueParts(
      Type param,
      Type arg,
      Sharing sharing,
      Expr argExpr,
      Map<Variable, UniquenessTracker.Observation> pending) {
    if (param instanceof Type.Tuple t) {
      for (int i = 0; i < t.elements().size(); i++) {
        consumeUniqueParts(
            t.elements().get(i),
            ((Type.Tuple) arg).elements().get(i),
            sharing.component(i),
            argExpr,
            pending);
      }
    } else if (param.isUnique()) {
      consume(arg, sharing, argExpr.pos(), describeConsumed(argExpr, sharing), pending);
    }
  }

  /**
   * The variables an argument's parts passed for non-unique parameter parts may share (thesis §3.1,
   * calls).
   */
  private static Set<Variable> nonUniqueParts(Type param, Sharing sharing) {
    if (param instanceof Type.Tuple t) {
      Set<Variable> all = new LinkedHashSet<>();
      for (int i = 0; i < t.elements().size(); i++) {
        all.addAll(nonUniqueParts(t.elements().get(i), sharing.component(i)));
      }
      return all;
    }
    return param.isUnique() ? Set.of() : sharing.all();
  }

  // ---- bindings ----

  private Checked let(Expr.Let l, Environment env) {
    Map<Variable, UniquenessTracker.Observation> before = tracker.observations();
    Checked value = check(l.value(), env);
    Map<Variable, UniquenessTracker.Observation> afterValue = tracker.observations();
    tracker.restoreObservations(before); // a binding is a sequence point (thesis §3.2)
    List<Type> leafTypes = Patterns.match(l.pattern(), value.type());
    Environment inner =
        bindNames(
            l.pattern().names(),
            leafTypes,
            Patterns.leafSharing(l.pattern(), value.sharing()),
            env);
    Checked body = check(l.body(), inner);
    tracker.addObservations(afterValue);
    return new Checked(Shapes.forget(body.type(), Patterns.names(l.pattern())), body.sharing());
  }

  /**
   * {@code let dest = source with [i...] <- v in body} (thesis §2.1.2): consumes {@code source}.
   */
  private Checked letWith(Expr.LetWith l, Environment env) {
    Map<Variable, UniquenessTracker.Observation> before = tracker.observations();
    Variable source = lookup(l.source(), l.sourcePos(), env);
    tracker.use(source, l.sourcePos());
    Type sourceType = source.type();
    Sharing sourceSharing = source.aliases().plus(source, sourceType);
    if (sourceType instanceof Type.Array) {
      checkConsumable(sourceType, sourceSharing, l.sourcePos(), source.quoted(), before);
    }
    Type element =
        indexedElement(
            sourceType, l.indices(), l.pos(), "in-place update of " + source.quoted(), env);
    Checked value = check(l.value(), env);
    if (!value.type().sameShapeAs(element)) {
      throw new L0CompileError(
          l.value().pos(),
          "the value written into "
              + source.quoted()
              + " must have type "
              + ScalarRules.name(element)
              + ", got "
              + ScalarRules.name(value.type()));
    }
    Set<Variable> overlap = new LinkedHashSet<>(value.sharing().all());
    overlap.retainAll(sourceSharing.all());
    if (!overlap.isEmpty()) {
      throw new L0CompileError(
          l.value().pos(),
          "the value written into "
              + source.quoted()
              + " aliases "
              + overlap.iterator().next().quoted()
              + ", which the update consumes; copy it");
    }
    tracker.markConsumed(sourceSharing.all(), l.sourcePos());
    Map<Variable, UniquenessTracker.Observation> afterValue = tracker.observations();
    tracker.restoreObservations(before);
    Variable dest =
        new Variable(
            l.dest(),
            sourceType,
            l.pos(),
            false,
            Optional.empty(),
            loopDepth,
            Sharing.none(sourceType),
            env);
    Checked body = check(l.body(), env.bind(dest));
    tracker.addObservations(afterValue);
    return new Checked(Shapes.forget(body.type(), List.of(l.dest())), body.sharing());
  }

  /**
   * {@code loop (p = init) = for i < bound do loopBody in body} (thesis §2.1.1), checked as the
   * tail-recursive function it means (Fig. 3): the loop variables are fresh in the loop body; when
   * the body consumes one, the loop consumes the initial value, which the body then must not use,
   * and the body must return a unique value for it that aliases nothing outside the loop. The loop
   * variables, and the loop's results, keep the sizes of the initial value that every iteration
   * keeps (see {@link #loopBody}).
   */
  private Checked loop(Expr.Loop l, Environment env) {
    Map<Variable, UniquenessTracker.Observation> before = tracker.observations();
    Checked init = check(l.init(), env);
    Type bound = check(l.bound(), env).type();
    if (!ScalarRules.isIndex(bound)) {
      throw new L0CompileError(
          l.bound().pos(), "a loop bound must be i32 or i64, got " + ScalarRules.name(bound));
    }
    Map<Variable, UniquenessTracker.Observation> afterHead = tracker.observations();
    List<Pattern.Name> names = l.pattern().names();
    List<String> inner = new ArrayList<>(Patterns.names(l.pattern()));
    inner.add(l.counter());
    Type initSizes = Shapes.forget(init.type(), inner);
    CheckedLoopBody checked;
    try {
      checked = loopBody(l, env, initSizes, bound);
    } catch (L0CompileError e) {
      // A check that only fails under the assumed sizes (a zip of sizes that differ from the
      // first iteration on) is no error of the program: assume nothing.
      Type noSizes = Shapes.unknownSizes(initSizes);
      if (noSizes.equals(initSizes)) {
        throw e;
      }
      checked = loopBody(l, env, noSizes, bound);
    }
    Type loopType = checked.loopType();
    List<Type> initTypes = Patterns.match(l.pattern(), loopType);
    List<Sharing> initSharing = Patterns.leafSharing(l.pattern(), init.sharing());
    Checked loopBody = checked.body();
    Map<Variable, UniquenessTracker.Observation> bodyObservations = tracker.observations();
    List<Type> bodyTypes = Patterns.match(l.pattern(), loopBody.type());
    List<Sharing> bodySharing = Patterns.leafSharing(l.pattern(), loopBody.sharing());

    List<Sharing> resultSharing = new ArrayList<>();
    for (int k = 0; k < names.size(); k++) {
      Set<Variable> outside =
          bodySharing.get(k).all().stream()
              .filter(v -> v.loopDepth() <= loopDepth)
              .collect(Collectors.toCollection(LinkedHashSet::new));
      if (tracker.isConsumed(checked.loopVariables().get(k))) {
        consumeLoopInitial(
            l,
            names.get(k).name(),
            initTypes.get(k),
            initSharing.get(k),
            bodyTypes.get(k),
            outside,
            bodyObservations,
            before);
        resultSharing.add(new Sharing.Of(outside));
      } else {
        resultSharing.add(initSharing.get(k).combine(new Sharing.Of(outside)));
      }
    }
    tracker.restoreObservations(before);
    List<Type> resultTypes =
        Patterns.match(
            l.pattern(), Shapes.sizesAgreeing(Shapes.join(init.type(), loopBody.type()), loopType));
    Environment afterEnv = bindNames(names, resultTypes, resultSharing, env);
    Checked body = check(l.body(), afterEnv);
    tracker.addObservations(afterHead);
    tracker.addObservations(bodyObservations);
    return new Checked(Shapes.forget(body.type(), Patterns.names(l.pattern())), body.sharing());
  }

  /** A loop body checked with its loop variables of {@code loopType}. */
  private record CheckedLoopBody(Type loopType, List<Variable> loopVariables, Checked body) {}

  /**
   * Checks the body of {@code l} with loop variables that have the sizes of {@code assumed} (the
   * initial value's, or none), and again with fewer sizes while the body returns a size other than
   * the one assumed: the sizes that remain are those every iteration keeps, so they hold for the
   * loop variables in every iteration (by induction from the first) and for the loop's results.
   */
  private CheckedLoopBody loopBody(Expr.Loop l, Environment env, Type assumed, Type bound) {
    Type loopType = assumed;
    while (true) {
      tracker.restoreObservations(Map.of());
      List<Pattern.Name> names = l.pattern().names();
      List<Type> initTypes = Patterns.match(l.pattern(), loopType);
      loopDepth++;
      Environment bodyEnv;
      Checked loopBody;
      try {
        bodyEnv = bindNames(names, initTypes, initTypes.stream().map(Sharing::none).toList(), env);
        Variable counter =
            new Variable(
                l.counter(),
                bound,
                l.pos(),
                false,
                Optional.empty(),
                loopDepth,
                Sharing.none(bound),
                bodyEnv);
        loopBody = check(l.loopBody(), bodyEnv.bind(counter));
      } finally {
        loopDepth--;
      }
      if (!loopBody.type().sameShapeAs(loopType)) {
        throw new L0CompileError(
            l.loopBody().pos(),
            "the loop body must have the type of the loop variables, "
                + ScalarRules.name(loopType)
                + ", got "
                + ScalarRules.name(loopBody.type()));
      }
      Type kept = Shapes.sizesAgreeing(loopType, loopBody.type());
      if (kept.equals(loopType)) {
        Environment scope = bodyEnv;
        List<Variable> loopVariables =
            names.stream().map(n -> scope.lookup(n.name()).orElseThrow()).toList();
        return new CheckedLoopBody(loopType, loopVariables, loopBody);
      }
      loopType = kept;
    }
  }

  private void consumeLoopInitial(
      Expr.Loop l,
      String name,
      Type leafType,
      Sharing leafSharing,
      Type bodyType,
      Set<Variable> bodyAliasesOutside,
      Map<Variable, UniquenessTracker.Observation> bodyObservations,
      Map<Variable, UniquenessTracker.Observation> pending) {
    if (!bodyType.isUnique()) {
      throw new L0CompileError(
          l.loopBody().pos(),
          "the loop consumes '"
              + name
              + "', so its body must return a unique array for it; return a copy");
    }
    if (!bodyAliasesOutside.isEmpty()) {
      throw new L0CompileError(
          l.loopBody().pos(),
          "the loop consumes '"
              + name
              + "', but its body returns a value aliasing "
              + bodyAliasesOutside.iterator().next().quoted()
              + ", which is bound outside the loop; return a copy");
    }
    for (Variable v : leafSharing.all()) {
      UniquenessTracker.Observation use = bodyObservations.get(v);
      if (use != null) {
        throw new L0CompileError(
            use.pos(),
            use.variable().named("variable")
                + " used at "
                + UniquenessTracker.at(use.pos())
                + " after it was consumed at "
                + UniquenessTracker.at(l.init().pos())
                + " (the loop consumes its initial value)");
      }
    }
    consume(
        leafType, leafSharing, l.init().pos(), describeConsumed(l.init(), leafSharing), pending);
  }

  // ---- SOACs ----

  private Checked map(Expr.Map m, Environment env) {
    SoacFunctions.Prepared function = prepare(m.function(), env);
    Map<Variable, UniquenessTracker.Observation> pending = tracker.observations();
    Checked array = soacArray(m.array(), "map", env);
    Type result = SoacFunctions.apply(function, List.of(elementOf(array.type())), "map");
    consumeElements(function, array, m.array(), pending);
    Type type = new Type.Array(Shapes.asElement(result), Shapes.outer(array.type()), true);
    return Checked.fresh(type);
  }

  private Checked filter(Expr.Filter f, Environment env) {
    SoacFunctions.Prepared function = prepare(f.function(), env);
    Map<Variable, UniquenessTracker.Observation> pending = tracker.observations();
    Checked array = soacArray(f.array(), "filter", env);
    Type result = SoacFunctions.apply(function, List.of(elementOf(array.type())), "filter");
    if (result != ScalarType.BOOL) {
      throw new L0CompileError(
          f.function().pos(),
          "the function of filter must return bool, got " + ScalarRules.name(result));
    }
    consumeElements(function, array, f.array(), pending);
    return Checked.fresh(((Type.Array) array.type()).withSize(Dim.UNKNOWN).withUnique(true));
  }

  /**
   * reduce and scan: {@code f : (t, t) -> t} where t is the neutral element's and the array
   * elements' type.
   */
  private Checked reduceOrScan(
      FunArg f, Expr neutralExpr, Expr arrayExpr, String soac, Environment env) {
    SoacFunctions.Prepared function = prepare(f, env);
    Map<Variable, UniquenessTracker.Observation> beforeNeutral = tracker.observations();
    Checked neutral = check(neutralExpr, env);
    Map<Variable, UniquenessTracker.Observation> beforeArray = tracker.observations();
    Checked array = soacArray(arrayExpr, soac, env);
    Type element = elementOf(array.type());
    if (!neutral.type().sameShapeAs(element)) {
      throw new L0CompileError(
          neutralExpr.pos(),
          "the neutral element of "
              + soac
              + " has type "
              + ScalarRules.name(neutral.type())
              + ", but the array's elements have type "
              + ScalarRules.name(element));
    }
    Type result = SoacFunctions.apply(function, List.of(neutral.type(), element), soac);
    if (!result.sameShapeAs(element)) {
      throw new L0CompileError(
          f.pos(),
          "the function of "
              + soac
              + " must return "
              + ScalarRules.name(element)
              + ", got "
              + ScalarRules.name(result));
    }
    if (function.consumesElements()) {
      consume(
          neutral.type(),
          neutral.sharing(),
          neutralExpr.pos(),
          describeConsumed(neutralExpr, neutral.sharing()),
          beforeNeutral);
      consumeElements(function, array, arrayExpr, beforeArray);
    }
    Type scalarOrRow = Shapes.asElement(neutral.type());
    if (soac.equals("scan")) {
      return Checked.fresh(new Type.Array(scalarOrRow, Shapes.outer(array.type()), true));
    }
    Set<Variable> mayAlias = new LinkedHashSet<>(neutral.sharing().all());
    mayAlias.addAll(array.sharing().all());
    return new Checked(scalarOrRow, Sharing.spread(scalarOrRow, mayAlias));
  }

  private Checked soacArray(Expr arrayExpr, String soac, Environment env) {
    Checked array = check(arrayExpr, env);
    if (!(array.type() instanceof Type.Array)) {
      throw new L0CompileError(
          arrayExpr.pos(), soac + " needs an array, got " + ScalarRules.name(array.type()));
    }
    return array;
  }

  /** A SOAC whose function consumes its elements consumes its array. */
  private void consumeElements(
      SoacFunctions.Prepared function,
      Checked array,
      Expr arrayExpr,
      Map<Variable, UniquenessTracker.Observation> pending) {
    if (function.consumesElements()) {
      consume(
          array.type(),
          array.sharing(),
          arrayExpr.pos(),
          describeConsumed(arrayExpr, array.sharing()),
          pending);
    }
  }

  /**
   * Checks a SOAC function argument's own parts: curried arguments, or a lambda's parameters and
   * body.
   */
  private SoacFunctions.Prepared prepare(FunArg arg, Environment env) {
    if (arg instanceof FunArg.Lambda lambda) {
      return lambda(lambda, env);
    }
    if (arg instanceof FunArg.OperatorRef op) {
      if (op.curried().size() > 1) {
        throw new L0CompileError(
            op.pos(), "an operator section takes at most one operand, got " + op.curried().size());
      }
      List<Type> curried = op.curried().stream().map(e -> check(e, env).type()).toList();
      return new SoacFunctions.Prepared(
          op, SoacFunctions.operatorArity(op), List.of(), curried, null, false);
    }
    FunArg.FunctionRef ref = (FunArg.FunctionRef) arg;
    FunDef function = functions.get(ref.name());
    if (function == null) {
      Builtin builtin =
          Builtin.byName(ref.name())
              .orElseThrow(
                  () -> new L0CompileError(ref.pos(), "unknown function '" + ref.name() + "'"));
      requireElementParameters(ref, builtin.arity());
      List<Type> curried = ref.curried().stream().map(e -> check(e, env).type()).toList();
      return new SoacFunctions.Prepared(
          ref, builtin.arity() - curried.size(), List.of(), curried, null, false);
    }
    requireElementParameters(ref, function.params().size());
    String who = "function '" + ref.name() + "'";
    List<Type> curried = new ArrayList<>();
    for (int i = 0; i < ref.curried().size(); i++) {
      Expr e = ref.curried().get(i);
      Param param = function.params().get(i);
      Type t = check(e, env).type();
      if (!t.sameShapeAs(param.type())) {
        throw new L0CompileError(
            e.pos(),
            "argument "
                + (i + 1)
                + " of "
                + who
                + " must have type "
                + ScalarRules.name(param.type())
                + " ("
                + param.named("parameter")
                + "), got "
                + ScalarRules.name(t));
      }
      if (param.type().hasUniquePart()) {
        throw new L0CompileError(
            e.pos(),
            who
                + " consumes "
                + param.named("its parameter")
                + ", which cannot be given in advance: the function may be called many times (thesis §3.2)");
      }
      curried.add(t);
    }
    List<Param> elementParams = function.params().subList(curried.size(), function.params().size());
    boolean consumes = elementParams.stream().anyMatch(p -> p.type().hasUniquePart());
    return new SoacFunctions.Prepared(
        ref,
        elementParams.size(),
        elementParams.stream().map(Param::type).toList(),
        curried,
        function.returnType(),
        consumes);
  }

  /**
   * A SOAC passes at least one argument, so a named function must have parameters left after the
   * curried ones.
   */
  private static void requireElementParameters(FunArg.FunctionRef ref, int arity) {
    if (ref.curried().size() >= arity) {
      throw new L0CompileError(
          ref.pos(),
          "function '"
              + ref.name()
              + "' takes "
              + arity
              + (arity == 1 ? " argument" : " arguments")
              + "; given "
              + ref.curried().size()
              + " in advance, it has none left for the array elements");
    }
  }

  /**
   * An anonymous function: a closure over {@code env}, checked like a function one loop level
   * deeper.
   */
  private SoacFunctions.Prepared lambda(FunArg.Lambda lambda, Environment env) {
    loopDepth++;
    List<Variable> params = new ArrayList<>();
    Environment inner = bindParameters(lambda.params(), env, params);
    Checked body = check(lambda.body(), inner);
    loopDepth--;
    if (!body.type().sameShapeAs(lambda.returnType())) {
      throw new L0CompileError(
          lambda.body().pos(),
          "the anonymous function must return "
              + ScalarRules.name(lambda.returnType())
              + ", but its body has type "
              + ScalarRules.name(body.type()));
    }
    checkUniqueResult(
        lambda.returnType(),
        body.type(),
        body.sharing(),
        lambda.body().pos(),
        "the anonymous function");
    List<String> paramNames = lambda.params().stream().map(Param::name).toList();
    Type result =
        Shapes.withUniqueness(
            Shapes.forget(body.type(), paramNames), lambda.returnType().isUnique());
    boolean consumes = params.stream().anyMatch(tracker::isConsumed);
    return new SoacFunctions.Prepared(
        lambda,
        params.size(),
        lambda.params().stream().map(Param::type).toList(),
        List.of(),
        result,
        consumes);
  }

  // ---- uniqueness ----

  /**
   * Consumes a value of {@code type} with {@code sharing} at {@code pos}: it must be unique (thesis
   * §3.2), and it and everything it aliases become unusable (Uniqueness Rule 1).
   */
  private void consume(
      Type type,
      Sharing sharing,
      SourcePos pos,
      String what,
      Map<Variable, UniquenessTracker.Observation> pending) {
    checkConsumable(type, sharing, pos, what, pending);
    tracker.markConsumed(sharing.all(), pos);
  }

  /** Fails unless a value of {@code type} with {@code sharing} may be consumed at {@code pos}. */
  private void checkConsumable(
      Type type,
      Sharing sharing,
      SourcePos pos,
      String what,
      Map<Variable, UniquenessTracker.Observation> pending) {
    if (!type.isUnique()) {
      for (Variable v : sharing.all()) {
        if (v.isParameter() && !v.type().hasUniquePart()) {
          throw new L0CompileError(
              pos,
              what
                  + " is consumed at "
                  + UniquenessTracker.at(pos)
                  + " but "
                  + v.named("parameter")
                  + " (declared at "
                  + UniquenessTracker.at(v.declaredAt())
                  + ") is not unique; declare it *[...] or copy it");
        }
      }
      throw new L0CompileError(
          pos,
          what
              + " is consumed at "
              + UniquenessTracker.at(pos)
              + " but is not a unique array (literal arrays and values aliasing non-unique ones are not); copy it");
    }
    tracker.checkConsumable(sharing.all(), pos, pending, loopDepth);
  }

  /** Uniqueness Rule 2: a unique result must be unique and alias no non-unique parameter. */
  private static void checkUniqueResult(
      Type declared, Type actual, Sharing sharing, SourcePos pos, String who) {
    if (declared instanceof Type.Tuple t && actual instanceof Type.Tuple a) {
      for (int i = 0; i < t.elements().size(); i++) {
        checkUniqueResult(t.elements().get(i), a.elements().get(i), sharing.component(i), pos, who);
      }
      return;
    }
    if (!declared.isUnique()) {
      return;
    }
    for (Variable v : sharing.all()) {
      if (v.isParameter() && !v.type().hasUniquePart()) {
        throw new L0CompileError(
            pos,
            who
                + " returns a unique array, but its result aliases "
                + v.named("parameter")
                + " (declared at "
                + UniquenessTracker.at(v.declaredAt())
                + "), which is not unique; return a copy");
      }
    }
    if (!actual.isUnique()) {
      throw new L0CompileError(
          pos, who + " returns a unique array, but its result is not unique; return a copy");
    }
  }

  /**
   * How a message names a consumed value: the variable (found in its own sharing) or the first
   * variable it aliases ({@link Variable#quoted}); else the call or array literal that makes it.
   */
  private static String describeConsumed(Expr e, Sharing sharing) {
    if (e instanceof Expr.Var v) {
      return sharing.all().stream()
          .filter(variable -> variable.name().equals(v.name()))
          .findFirst()
          .map(Variable::quoted)
          .orElse("'" + v.name() + "'");
    }
    if (!sharing.all().isEmpty()) {
      return sharing.all().iterator().next().quoted();
    }
    if (e instanceof Expr.Call c) {
      return "the result of '" + c.function() + "'";
    }
    return e instanceof Expr.ArrayLit ? "the array literal" : "the value";
  }

  // ---- patterns and names ----

  private Environment bindParameters(List<Param> params, Environment env, List<Variable> bound) {
    Set<String> seen = new HashSet<>();
    Environment inner = env;
    for (Param p : params) {
      if (!seen.add(p.name())) {
        throw new L0CompileError(p.pos(), "parameter '" + p.name() + "' is declared twice");
      }
      Variable v =
          new Variable(
              p.name(),
              p.type(),
              p.pos(),
              true,
              p.description(),
              loopDepth,
              Sharing.none(p.type()),
              inner);
      bound.add(v);
      inner = inner.bind(v);
    }
    return inner;
  }

  private Environment bindNames(
      List<Pattern.Name> names, List<Type> leafTypes, List<Sharing> leafSharing, Environment env) {
    Environment inner = env;
    for (int i = 0; i < names.size(); i++) {
      Pattern.Name n = names.get(i);
      inner =
          inner.bind(
              new Variable(
                  n.name(),
                  leafTypes.get(i),
                  n.pos(),
                  false,
                  n.description(),
                  loopDepth,
                  leafSharing.get(i),
                  env));
    }
    return inner;
  }

  private static Variable lookup(String name, SourcePos pos, Environment env) {
    return env.lookup(name)
        .orElseThrow(() -> new L0CompileError(pos, "unknown variable '" + name + "'"));
  }

  private static Type elementOf(Type array) {
    return Shapes.asElement(((Type.Array) array).element());
  }
}
