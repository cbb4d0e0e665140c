package dev.l0.testing;

import static dev.l0.testing.SizedTypes.arrayOf;
import static dev.l0.testing.SizedTypes.constant;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Type-directed generation of L0 expressions (thesis ch. 2): {@link #generate} builds an expression
 * of a requested type in a scope of typed variables, so every program is well typed by
 * construction. It picks among productions (literals, variables, let with name and tuple patterns,
 * if, loops, helper calls, indexing, scalar operators, conversions and math built-ins, array
 * constructors) by weights, and hands SOACs to {@link SoacGenerator}. In-place updates (§2.1.2)
 * only update fresh arrays that are never mentioned again (ch. 3), also inside loops. Array sizes
 * are tracked statically ({@link SizedTypes}) so that zips, reshapes, splits and indexing succeed
 * at run time, except for rare deliberate out-of-bounds indexing when {@code rareFailures} is set.
 * Depth bounds recursion; a used-up tape yields leaves.
 */
final class ExprGenerator {
  static final SourcePos AT = SourcePos.NONE;
  private static final int MAX_HELPERS = 4;
  private static final int HELPER_DEPTH = 3;
  private static final int MAX_RANK = 3;

  /** Every way to build an expression; {@link #LEAF} first, so that choice 0 is the simplest. */
  private enum Production {
    LEAF,
    VARIABLE,
    LET,
    LET_TUPLE,
    IF,
    LOOP,
    LOOP_UPDATE,
    CALL,
    UPDATE,
    INDEX,
    ARITHMETIC,
    BITWISE,
    UNARY,
    CONVERSION,
    MATH,
    NUMERIC_BUILTIN,
    COMPARISON,
    LOGICAL,
    SIZE,
    REDUCE,
    MAP,
    FILTER,
    SCAN,
    FAN_OUT,
    ZIP,
    IOTA,
    REPLICATE,
    CONCAT,
    RESHAPE,
    TRANSPOSE,
    COPY,
    ARRAY_LITERAL,
    TUPLE_LITERAL,
    UNZIP,
    SPLIT,
    // Only with kernelArrays (weight 0 otherwise, so the draws of the other productions do not
    // change):
    ARRAY_REDUCE,
    ARRAY_SCAN,
    LOOP_FILTER,
    LOOP_CONCAT,
    LOOP_GROW
  }

  /** The productions a scalar-edge program makes three times as often. */
  private static final Set<Production> SCALAR_OPERATIONS =
      EnumSet.of(
          Production.ARITHMETIC,
          Production.BITWISE,
          Production.UNARY,
          Production.CONVERSION,
          Production.MATH,
          Production.NUMERIC_BUILTIN,
          Production.COMPARISON);

  /** A count expression ({@code iota}, {@code replicate}) with the size it denotes. */
  private record Count(Expr expr, Dim size) {}

  private final Choices choices;
  private final TypeGenerator types;
  private final boolean rareFailures;
  private final boolean kernelArrays;
  private final boolean scalarEdges;
  private final SoacGenerator soacs;
  private final List<Helper> helpers = new ArrayList<>();
  private int helpersStarted;
  private int nextName;
  private int nextTag;

  ExprGenerator(Choices choices, TypeGenerator types, boolean rareFailures) {
    this(choices, types, rareFailures, false);
  }

  /**
   * With {@code kernelArrays}, also the shapes of per-thread array code: reductions and scans whose
   * operator combines arrays, loops whose array accumulator a filter shrinks or a concat grows
   * (also by rows of itself, without a bound known before the loop), and three times as many
   * in-place updates (also in loops).
   */
  ExprGenerator(Choices choices, TypeGenerator types, boolean rareFailures, boolean kernelArrays) {
    this(choices, types, rareFailures, kernelArrays, false);
  }

  /**
   * With {@code scalarEdges}, also the edges of scalar semantics: three times as many scalar
   * operators, built-ins and conversions, literals that are often extremes of their type (minimum,
   * maximum, -1, shift widths, -0.0, infinities, NaN, subnormals, halves), integer divisors that
   * may be -1 or negative ({@code if d = 0 then -1 else d}), shift counts that are not masked
   * (negative, or beyond the type's width), integer exponents up to 63 and sometimes negative (a
   * {@code pow} failure), and reductions and scans of floats by {@code min} and {@code max} and of
   * integers by a non-commutative operator, also on pairs of integers ({@code {a1 * a2, b1 * a2 +
   * b2}}, affine maps composed).
   */
  ExprGenerator(
      Choices choices,
      TypeGenerator types,
      boolean rareFailures,
      boolean kernelArrays,
      boolean scalarEdges) {
    this.choices = choices;
    this.types = types;
    this.rareFailures = rareFailures;
    this.kernelArrays = kernelArrays;
    this.scalarEdges = scalarEdges;
    this.soacs = new SoacGenerator(this, choices, types);
  }

  /** The helper functions generated so far, each after the helpers it calls. */
  List<FunDef> helperDefinitions() {
    return helpers.stream().map(Helper::definition).toList();
  }

  String freshName(String prefix) {
    return prefix + nextName++;
  }

  /** An expression of a type that fits {@code request}, using variables of {@code scope}. */
  Typed generate(Type request, Scope scope, int depth) {
    if (depth <= 0) {
      List<Binding> vars = scope.fitting(request);
      return !vars.isEmpty() && choices.percent(60) ? variable(vars) : leaf(request, scope);
    }
    Production[] all = Production.values();
    int[] weights = new int[all.length];
    for (Production p : all) {
      weights[p.ordinal()] = weight(p, request, scope);
    }
    Production chosen = all[choices.weighted(weights)];
    int sub = depth - 1;
    return switch (chosen) {
      case LEAF -> leaf(request, scope);
      case VARIABLE -> variable(scope.fitting(request));
      case LET -> let(request, scope, sub);
      case LET_TUPLE -> letTuple(request, scope, sub);
      case IF -> conditional(request, scope, sub);
      case LOOP -> loop(request, scope, sub);
      case LOOP_UPDATE -> loopUpdate(request, scope, sub);
      case CALL -> call(request, scope, sub);
      case UPDATE -> update(request, scope, sub);
      case INDEX -> index(request, scope, sub);
      case ARITHMETIC -> arithmetic((ScalarType) request, scope, sub);
      case BITWISE -> bitwise((ScalarType) request, scope, sub);
      case UNARY -> unary((ScalarType) request, scope, sub);
      case CONVERSION -> conversion((ScalarType) request, scope, sub);
      case MATH -> math((ScalarType) request, scope, sub);
      case NUMERIC_BUILTIN -> numericBuiltin((ScalarType) request, scope, sub);
      case COMPARISON -> comparison(scope, sub);
      case LOGICAL -> logical(scope, sub);
      case SIZE -> size(scope, sub);
      case REDUCE -> soacs.reduce(request, scope, sub);
      case MAP -> soacs.map((Type.Array) request, scope, sub);
      case FILTER -> soacs.filter((Type.Array) request, scope, sub);
      case SCAN -> soacs.scan((Type.Array) request, scope, sub);
      case FAN_OUT -> soacs.fanOut(request, scope, sub);
      case ZIP -> zip((Type.Array) request, scope, sub);
      case IOTA -> iota((Type.Array) request, scope);
      case REPLICATE -> replicate((Type.Array) request, scope, sub);
      case CONCAT -> concat((Type.Array) request, scope, sub);
      case RESHAPE -> reshape(concretise(request), scope, sub);
      case TRANSPOSE -> transpose(concretise(request), scope, sub);
      case COPY -> copy(request, scope, sub);
      case ARRAY_LITERAL -> arrayLiteral((Type.Array) request, scope, sub);
      case TUPLE_LITERAL -> tupleLiteral((Type.Tuple) request, scope, sub);
      case UNZIP -> unzip((Type.Tuple) request, scope, sub);
      case SPLIT -> split((Type.Tuple) request, scope, sub);
      case ARRAY_REDUCE -> soacs.arrayReduce((Type.Array) request, scope, sub);
      case ARRAY_SCAN -> soacs.arrayScan((Type.Array) request, scope, sub);
      case LOOP_FILTER -> loopFilter(request, scope, sub);
      case LOOP_CONCAT -> loopConcat(request, scope, sub);
      case LOOP_GROW -> loopGrow(request, scope, sub);
    };
  }

  // ---------------------------------------------------------------- which productions apply

  private int weight(Production p, Type request, Scope scope) {
    boolean scalar = request instanceof ScalarType;
    boolean numeric = SizedTypes.isNumeric(request);
    boolean tagged = SizedTypes.mentionsTag(request);
    Type.Array array = request instanceof Type.Array a ? a : null;
    Type.Tuple tuple = request instanceof Type.Tuple t ? t : null;
    Dim outer = array == null ? null : array.size();
    int base =
        switch (p) {
          case LEAF -> 2;
          case VARIABLE -> scope.fitting(request).isEmpty() ? 0 : 8;
          case LET -> 3;
          case LET_TUPLE, IF, LOOP, LOOP_UPDATE, UPDATE -> 1;
          case CALL -> !tagged && (canAddHelper() || !reusableHelpers(request).isEmpty()) ? 1 : 0;
          case INDEX -> !tagged && request.rank() < MAX_RANK ? 2 : 0;
          case ARITHMETIC -> numeric ? 4 : 0;
          case BITWISE -> SizedTypes.isScalar(request, ScalarType.I32, ScalarType.I64) ? 1 : 0;
          case UNARY -> scalar ? 1 : 0;
          case CONVERSION, NUMERIC_BUILTIN -> numeric ? 1 : 0;
          case MATH -> SizedTypes.isScalar(request, ScalarType.F32, ScalarType.F64) ? 2 : 0;
          case COMPARISON -> request == ScalarType.BOOL ? 3 : 0;
          case LOGICAL -> request == ScalarType.BOOL ? 1 : 0;
          case SIZE -> request == ScalarType.I32 ? 1 : 0;
          case REDUCE -> scalar ? 4 : SizedTypes.isTupleOfScalars(request) ? 2 : 0;
          case MAP -> array != null ? 7 : 0;
          case FILTER -> array != null && outer instanceof Dim.Unknown ? 3 : 0;
          case SCAN -> array != null && SizedTypes.combinable(array.element()) ? 2 : 0;
          case FAN_OUT -> 1;
          case ZIP -> array != null && zippable(array.element()) ? 3 : 0;
          case IOTA -> array != null && array.element() == ScalarType.I32 ? 1 : 0;
          case REPLICATE, COPY -> array != null ? 1 : 0;
          case CONCAT -> array != null && !(outer instanceof Dim.Named) ? 1 : 0;
          case RESHAPE ->
              array != null && !tagged && !(array.baseElement() instanceof Type.Tuple) ? 1 : 0;
          // Kernel-array programs keep their matrices for reductions and scans of rows.
          case TRANSPOSE ->
              array != null && !tagged && request.rank() >= 2 ? (kernelArrays ? 1 : 2) : 0;
          case ARRAY_LITERAL -> array != null && literalLength(outer) ? 1 : 0;
          case TUPLE_LITERAL -> tuple != null ? 3 : 0;
          case UNZIP -> tuple != null && unzipDim(tuple) != null ? 4 : 0;
          case SPLIT -> tuple != null && splittable(tuple) ? 3 : 0;
          case ARRAY_REDUCE -> kernelArrays && combinableRow(array) ? 3 : 0;
          case ARRAY_SCAN ->
              kernelArrays
                      && array != null
                      && array.element() instanceof Type.Array row
                      && combinableRow(row)
                  ? 2
                  : 0;
          case LOOP_FILTER -> kernelArrays ? 2 : 0;
          case LOOP_CONCAT -> kernelArrays ? 1 : 0;
          case LOOP_GROW -> kernelArrays ? 2 : 0;
        };
    if (kernelArrays && (p == Production.LOOP_UPDATE || p == Production.UPDATE)) {
      return base * 3;
    }
    if (scalarEdges && SCALAR_OPERATIONS.contains(p)) {
      return base * 3;
    }
    return base;
  }

  /** A row a reduction of arrays can make: a one-dimensional array of a combinable scalar. */
  private static boolean combinableRow(Type.Array array) {
    return array != null
        && array.element() instanceof ScalarType s
        && SizedTypes.combinable(s)
        && !(array.size() instanceof Dim.Named);
  }

  private static boolean zippable(Type element) {
    return element instanceof Type.Tuple t
        && t.elements().stream().noneMatch(e -> e instanceof Type.Tuple);
  }

  private static boolean literalLength(Dim outer) {
    return outer instanceof Dim.Unknown
        || (outer instanceof Dim.Const c && c.size() >= 1 && c.size() <= 5);
  }

  // ---------------------------------------------------------------- leaves and variables

  /**
   * The simplest expression of a type: a scalar variable (converted to the type) or a literal,
   * tuples of them, {@code replicate}/{@code iota}. Using variables here makes values flow from
   * parameters and lambda arguments into results.
   */
  private Typed leaf(Type request, Scope scope) {
    if (request instanceof ScalarType s) {
      List<Binding> scalars = scope.scalars();
      if (!scalars.isEmpty() && choices.percent(70)) {
        Binding b = recent(scalars);
        return new Typed(coerce(var(b.name()), (ScalarType) b.type(), s), s);
      }
      return new Typed(literal(s), s);
    }
    if (request instanceof Type.Tuple t) {
      List<Typed> parts = t.elements().stream().map(e -> leaf(e, scope)).toList();
      return tupleOf(parts);
    }
    Type.Array array = (Type.Array) request;
    Count count = count(array.size(), scope);
    if (array.element() == ScalarType.I32 && choices.percent(30)) {
      return new Typed(new Expr.Iota(count.expr(), AT), arrayOf(ScalarType.I32, count.size()));
    }
    Typed element = leaf(array.element(), scope);
    return new Typed(
        new Expr.Replicate(count.expr(), element.expr(), AT),
        arrayOf(element.type(), count.size()));
  }

  /**
   * {@code e} of type {@code from} as a value of type {@code to}: a conversion, a test {@code 0 <
   * e}, or {@code if e then 1 else 0}.
   */
  private static Expr coerce(Expr e, ScalarType from, ScalarType to) {
    if (from == to) {
      return e;
    }
    if (to == ScalarType.BOOL) {
      return new Expr.Binary(BinaryOperator.LT, zero(from), e, AT);
    }
    if (from == ScalarType.BOOL) {
      Expr one = new Expr.Call(to.keyword(), List.of(i32(1)), AT);
      return new Expr.If(e, one, new Expr.Call(to.keyword(), List.of(i32(0)), AT), AT);
    }
    return new Expr.Call(to.keyword(), List.of(e), AT);
  }

  private static Expr zero(ScalarType numeric) {
    return new Expr.Literal(
        numeric.isInteger() ? new ScalarValue.Int(numeric, 0) : new ScalarValue.Float(numeric, 0.0),
        AT);
  }

  /** Whether this generator makes the edges of scalar semantics (see the constructor). */
  boolean scalarEdges() {
    return scalarEdges;
  }

  /** The monoids reductions and scans of {@code type} combine with. */
  List<Monoid> monoids(ScalarType type) {
    return scalarEdges ? Monoid.withEdges(type) : Monoid.of(type);
  }

  /** A variable of {@code fitting} (most recent first), see {@link #recent}. */
  Typed variable(List<Binding> fitting) {
    Binding b = recent(fitting);
    return new Typed(var(b.name()), b.type());
  }

  /** One of the variables, most likely the most recently bound, so that bindings get used. */
  private Binding recent(List<Binding> mostRecentFirst) {
    return choices.percent(50) ? mostRecentFirst.get(0) : choices.pick(mostRecentFirst);
  }

  private Expr literal(ScalarType type) {
    return new Expr.Literal(literalValue(type), AT);
  }

  private ScalarValue literalValue(ScalarType type) {
    if (scalarEdges && choices.percent(50)) {
      return new ValueGenerator(choices).edge(type);
    }
    return switch (type) {
      case BOOL -> ScalarValue.bool(choices.percent(50));
      case I32, I64 -> new ScalarValue.Int(type, integerLiteral(type));
      case F32, F64 -> new ScalarValue.Float(type, floatLiteral());
    };
  }

  /**
   * Small numbers mostly; sometimes negative literals (printed {@code -3}) and the extremes of the
   * type.
   */
  private long integerLiteral(ScalarType type) {
    boolean wide = type == ScalarType.I64;
    return switch (choices.weighted(8, 2, 1, 1)) {
      case 0 -> choices.between(0, 10);
      case 1 -> choices.between(0, 1000);
      case 2 -> -choices.between(1, 1000);
      default ->
          choices.pick(
              wide
                  ? List.of(Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40)
                  : List.of((long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE));
    };
  }

  private double floatLiteral() {
    return switch (choices.weighted(6, 2, 1, 1)) {
      case 0 -> choices.between(0, 40) / 4.0;
      case 1 -> choices.between(0, 100000) / 1000.0;
      case 2 -> -choices.between(0, 100000) / 1000.0;
      default ->
          choices.pick(
              List.of(0.1, 1e10, 3.141592653589793, 1e-7, 0.39894228040143267, -0.0, 1e-310));
    };
  }

  static Expr.Literal intLiteral(long value, ScalarType type) {
    return new Expr.Literal(new ScalarValue.Int(type, value), AT);
  }

  static Expr.Literal i32(long value) {
    return intLiteral(value, ScalarType.I32);
  }

  static Expr.Var var(String name) {
    return new Expr.Var(name, AT);
  }

  private static Typed tupleOf(List<Typed> parts) {
    return new Typed(
        new Expr.TupleLit(parts.stream().map(Typed::expr).toList(), AT),
        new Type.Tuple(parts.stream().map(Typed::type).toList()));
  }

  // ---------------------------------------------------------------- binding constructs

  private Typed let(Type request, Scope scope, int depth) {
    Typed value =
        generate(
            choices.percent(40) ? soacs.arrayLike(Dim.UNKNOWN, scope) : types.binding(),
            scope,
            depth);
    String name = freshName("x");
    Typed body = generate(request, scope.with(name, value.type()), depth);
    return new Typed(
        new Expr.Let(new Pattern.Name(name, AT), value.expr(), body.expr(), AT), body.type());
  }

  /** {@code let {a, b} = e in body}: the value is often an {@code unzip} or {@code split}. */
  private Typed letTuple(Type request, Scope scope, int depth) {
    Typed value =
        switch (choices.weighted(2, 1, 1)) {
          case 0 -> generate(types.tuple(true), scope, depth);
          case 1 -> unzip(types.zipComponents(Dim.UNKNOWN), scope, depth);
          default -> split(types.splitHalves(), scope, depth);
        };
    List<Type> parts = ((Type.Tuple) value.type()).elements();
    List<Pattern> names = new ArrayList<>();
    Scope inner = scope;
    for (Type part : parts) {
      String name = freshName("t");
      names.add(new Pattern.Name(name, AT));
      inner = inner.with(name, part);
    }
    Typed body = generate(request, inner, depth);
    return new Typed(
        new Expr.Let(new Pattern.Tuple(names, AT), value.expr(), body.expr(), AT), body.type());
  }

  private Typed conditional(Type request, Scope scope, int depth) {
    Typed condition = generate(ScalarType.BOOL, scope, depth);
    Typed then = generate(request, scope, depth);
    Typed otherwise = generate(request, scope, depth);
    return new Typed(
        new Expr.If(condition.expr(), then.expr(), otherwise.expr(), AT),
        merge(then.type(), otherwise.type()));
  }

  /**
   * The type of a value that is one of two values of these types: sizes that differ become a fresh
   * tag.
   */
  private Type merge(Type a, Type b) {
    if (a instanceof Type.Array x && b instanceof Type.Array y) {
      Dim size = x.size().equals(y.size()) ? x.size() : freshTag();
      return arrayOf(merge(x.element(), y.element()), size);
    }
    if (a instanceof Type.Tuple x && b instanceof Type.Tuple y) {
      List<Type> parts = new ArrayList<>();
      for (int i = 0; i < x.elements().size(); i++) {
        parts.add(merge(x.elements().get(i), y.elements().get(i)));
      }
      return new Type.Tuple(parts);
    }
    return a;
  }

  Dim freshTag() {
    return new Dim.Named("#" + nextTag++);
  }

  /** {@code loop (acc = init) = for i < k do step in body}, with a small constant bound. */
  private Typed loop(Type request, Scope scope, int depth) {
    Type accType =
        SizedTypes.constantShaped(request) && choices.percent(50) ? request : types.accumulator();
    Typed init = generate(accType, scope, depth);
    Pattern pattern;
    Scope withAcc = scope;
    if (accType instanceof Type.Tuple t && choices.percent(60)) {
      List<Pattern> names = new ArrayList<>();
      for (Type part : t.elements()) {
        String name = freshName("acc");
        names.add(new Pattern.Name(name, AT));
        withAcc = withAcc.with(name, part);
      }
      pattern = new Pattern.Tuple(names, AT);
    } else {
      String name = freshName("acc");
      pattern = new Pattern.Name(name, AT);
      withAcc = withAcc.with(name, accType);
    }
    String counter = freshName("k");
    Typed step = generate(accType, withAcc.with(counter, ScalarType.I32), depth);
    Typed body = generate(request, withAcc, depth);
    Expr bound = i32(choices.between(0, 4));
    return new Typed(
        new Expr.Loop(pattern, init.expr(), counter, bound, step.expr(), body.expr(), AT),
        body.type());
  }

  /**
   * {@code loop (acc = <array>) = for k < n do filter(p, acc) in body}: an array accumulator whose
   * size the loop changes (it never grows).
   */
  private Typed loopFilter(Type request, Scope scope, int depth) {
    Type.Array accType = types.array(Dim.UNKNOWN);
    Typed init = generate(accType, scope, depth);
    Type.Array shrinking = arrayOf(((Type.Array) init.type()).element(), freshTag());
    String acc = freshName("acc");
    String counter = freshName("k");
    Typed step =
        soacs.filterOver(
            new Typed(var(acc), shrinking), scope.with(counter, ScalarType.I32), depth);
    Typed body = generate(request, scope.with(acc, shrinking), depth);
    Expr bound = i32(choices.between(0, 4));
    return new Typed(
        new Expr.Loop(
            new Pattern.Name(acc, AT), init.expr(), counter, bound, step.expr(), body.expr(), AT),
        body.type());
  }

  /**
   * {@code loop (acc = <array>) = for k < n do concat(acc, <array>) in body}: an array accumulator
   * that grows by the rows of an array made without it in every iteration.
   */
  private Typed loopConcat(Type request, Scope scope, int depth) {
    Type.Array accType = types.array(Dim.UNKNOWN);
    Typed init = generate(accType, scope, depth);
    Type element = ((Type.Array) init.type()).element();
    Type.Array growing = arrayOf(element, freshTag());
    String acc = freshName("acc");
    String counter = freshName("k");
    Typed appended =
        generate(arrayOf(element, Dim.UNKNOWN), scope.with(counter, ScalarType.I32), depth);
    Expr step = new Expr.Concat(var(acc), appended.expr(), AT);
    Typed body = generate(request, scope.with(acc, growing), depth);
    Expr bound = i32(choices.between(0, 4));
    return new Typed(
        new Expr.Loop(
            new Pattern.Name(acc, AT), init.expr(), counter, bound, step, body.expr(), AT),
        body.type());
  }

  /**
   * {@code loop (acc = <array>) = for k < n do concat(acc or filter(p, acc), filter(q, acc)) in
   * body}: an array accumulator that grows by rows of itself (and may shrink by a filter first)
   * over a constant trip count or one the data decides ({@code e % 5}, no iterations where
   * negative), so no bound of its size is known before the loop runs.
   */
  private Typed loopGrow(Type request, Scope scope, int depth) {
    Type.Array accType = types.array(Dim.UNKNOWN);
    Typed init = generate(accType, scope, depth);
    Type.Array growing = arrayOf(((Type.Array) init.type()).element(), freshTag());
    String acc = freshName("acc");
    String counter = freshName("k");
    Scope inLoop = scope.with(counter, ScalarType.I32);
    Expr kept =
        choices.percent(50)
            ? var(acc)
            : soacs.filterOver(new Typed(var(acc), growing), inLoop, depth).expr();
    Expr added = soacs.filterOver(new Typed(var(acc), growing), inLoop, depth).expr();
    Expr step = new Expr.Concat(kept, added, AT);
    Expr bound =
        choices.percent(50)
            ? i32(choices.between(0, 4))
            : new Expr.Binary(
                BinaryOperator.MOD, generate(ScalarType.I32, scope, depth).expr(), i32(5), AT);
    Typed body = generate(request, scope.with(acc, growing), depth);
    return new Typed(
        new Expr.Loop(
            new Pattern.Name(acc, AT), init.expr(), counter, bound, step, body.expr(), AT),
        body.type());
  }

  /**
   * {@code let c = <fresh array> in let u1 = c with [i, ...] <- v in (let u2 = u1 with ... in)
   * body}: only a fresh array ({@code copy}, {@code iota}, {@code replicate}) is updated, and an
   * updated array is never mentioned after its update (uniqueness rules 1-3, thesis ch. 3).
   */
  private Typed update(Type request, Scope scope, int depth) {
    Type target = updatableType();
    Typed source = freshArray(target, scope, depth);
    String fresh = freshName("c");
    int updates = choices.percent(30) ? 2 : 1;
    List<String> sources = new ArrayList<>();
    List<List<Expr>> indices = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    String latest = fresh;
    for (int i = 0; i < updates; i++) {
      sources.add(latest);
      int count = 1 + choices.below(target.rank());
      indices.add(indicesInBounds(target, count, scope, depth));
      values.add(generate(SizedTypes.strip(target, count), scope, depth).expr());
      latest = freshName("u");
    }
    Typed body = generate(request, scope.with(latest, target), depth);
    Expr expr = body.expr();
    String dest = latest;
    for (int i = updates - 1; i >= 0; i--) {
      expr = new Expr.LetWith(dest, sources.get(i), indices.get(i), values.get(i), expr, AT);
      dest = sources.get(i);
    }
    return new Typed(
        new Expr.Let(new Pattern.Name(fresh, AT), source.expr(), expr, AT), body.type());
  }

  /**
   * {@code loop (acc = <fresh array>) = for k < n do let u = acc with [wrap(k), ...] <- v in u in
   * body}: the imperative pattern of thesis §2.1.2 (its {@code matmultImp}), where the loop owns
   * the accumulator and updates it in place; a scalar {@code v} may read the old {@code acc}.
   */
  private Typed loopUpdate(Type request, Scope scope, int depth) {
    Type target = updatableType();
    Typed init = freshArray(target, scope, depth);
    String acc = freshName("acc");
    String counter = freshName("k");
    Scope inLoop = scope.with(acc, target).with(counter, ScalarType.I32);
    int count = 1 + choices.below(target.rank());
    boolean byCounter = choices.percent(60);
    List<Expr> indices = new ArrayList<>();
    List<Dim> dims = SizedTypes.dims(target);
    for (int i = 0; i < count; i++) {
      long size = constant(dims.get(i));
      indices.add(
          i == 0 && byCounter ? wrap(var(counter), i32(size)) : indexInBounds(size, inLoop, depth));
    }
    // A written array must not alias the array it is written into, so only scalars read acc.
    Type written = SizedTypes.strip(target, count);
    Scope valueScope = written instanceof ScalarType ? inLoop : scope.with(counter, ScalarType.I32);
    Typed value = generate(written, valueScope, depth);
    String updated = freshName("u");
    Expr step = new Expr.LetWith(updated, acc, indices, value.expr(), var(updated), AT);
    Typed body = generate(request, scope.with(acc, target), depth);
    Expr bound = i32(choices.between(0, 5));
    return new Typed(
        new Expr.Loop(
            new Pattern.Name(acc, AT), init.expr(), counter, bound, step, body.expr(), AT),
        body.type());
  }

  /**
   * An array type of rank 1 to 3 with positive constant sizes: one that can be updated in place.
   */
  private Type updatableType() {
    int rank = 1 + choices.below(MAX_RANK);
    Type element = rank == 1 ? types.element(0) : types.scalar();
    return arrayOf(element, types.constantDims(rank, true));
  }

  /**
   * A value of {@code type} that aliases nothing: a {@code copy} of any array, or a {@code
   * replicate}/{@code iota} of scalars.
   */
  private Typed freshArray(Type type, Scope scope, int depth) {
    if (choices.percent(35)) {
      return leaf(type, scope);
    }
    Typed value = generate(type, scope, depth);
    return new Typed(new Expr.Copy(value.expr(), AT), value.type());
  }

  /** {@code count} in-bounds indices into the outer dimensions of {@code type}. */
  private List<Expr> indicesInBounds(Type type, int count, Scope scope, int depth) {
    List<Expr> indices = new ArrayList<>();
    for (Dim d : SizedTypes.dims(type).subList(0, count)) {
      indices.add(indexInBounds(constant(d), scope, depth));
    }
    return indices;
  }

  // ---------------------------------------------------------------- helper functions

  private List<Helper> reusableHelpers(Type request) {
    return helpers.stream().filter(h -> SizedTypes.fits(h.resultType(), request)).toList();
  }

  /** A call of a helper function, reused or generated now with 1 to 3 parameters. */
  private Typed call(Type request, Scope scope, int depth) {
    List<Helper> reusable = reusableHelpers(request);
    Helper helper;
    if (!reusable.isEmpty() && (!canAddHelper() || choices.percent(40))) {
      helper = choices.pick(reusable);
    } else {
      List<Type> params = new ArrayList<>();
      int count = 1 + choices.below(3);
      for (int i = 0; i < count; i++) {
        params.add(types.parameter());
      }
      helper = newHelper(params, request, depth);
    }
    List<Expr> args =
        helper.parameterTypes().stream().map(t -> generate(t, scope, depth).expr()).toList();
    return new Typed(new Expr.Call(helper.name(), args, AT), refreshTags(helper.resultType()));
  }

  boolean canAddHelper() {
    return helpersStarted < MAX_HELPERS;
  }

  /** Generates and registers a helper whose body has type {@code result} given {@code params}. */
  Helper newHelper(List<Type> params, Type result, int depth) {
    String name = "helper" + helpersStarted++;
    Scope scope = Scope.EMPTY;
    List<Param> declared = new ArrayList<>();
    for (Type t : params) {
      String p = freshName("p");
      declared.add(new Param(t.erased(), p, AT));
      scope = scope.with(p, t);
    }
    Typed body = generate(result, scope, Math.min(depth, HELPER_DEPTH));
    return register(
        new FunDef(name, body.type().erased(), declared, body.expr(), AT), params, body.type());
  }

  /** Registers a helper with a body built by the caller. */
  Helper defineHelper(List<Param> declared, List<Type> params, Type result, Expr body) {
    return register(
        new FunDef("helper" + helpersStarted++, result.erased(), declared, body, AT),
        params,
        result);
  }

  private Helper register(FunDef definition, List<Type> params, Type result) {
    Helper helper = new Helper(definition, params, result);
    helpers.add(helper);
    return helper;
  }

  /**
   * The caller's view of a helper's result: size tags of the helper's body mean nothing outside it.
   */
  private Type refreshTags(Type type) {
    return refreshTags(type, new HashMap<>());
  }

  private Type refreshTags(Type type, Map<Dim, Dim> renamed) {
    if (type instanceof Type.Array a) {
      Dim size =
          a.size() instanceof Dim.Named
              ? renamed.computeIfAbsent(a.size(), d -> freshTag())
              : a.size();
      return arrayOf(refreshTags(a.element(), renamed), size);
    }
    if (type instanceof Type.Tuple t) {
      return new Type.Tuple(t.elements().stream().map(e -> refreshTags(e, renamed)).toList());
    }
    return type;
  }

  // ---------------------------------------------------------------- indexing and sizes

  /**
   * {@code a[i, ...]} of a variable or generated array whose elements (after the indices) fit the
   * request.
   */
  private Typed index(Type request, Scope scope, int depth) {
    List<Binding> candidates = new ArrayList<>();
    List<Integer> depths = new ArrayList<>();
    for (Binding b : scope.arrays()) {
      List<Dim> dims = SizedTypes.dims(b.type());
      for (int k = 1; k <= dims.size(); k++) {
        if (SizedTypes.fits(SizedTypes.strip(b.type(), k), request)
            && !dims.get(0).equals(new Dim.Const(0))
            && indexable(dims.subList(1, k))) {
          candidates.add(b);
          depths.add(k);
        }
      }
    }
    if (!candidates.isEmpty() && choices.percent(60)) {
      int which = choices.below(candidates.size());
      return indexVariable(candidates.get(which), depths.get(which), request, scope, depth);
    }
    Type element = concretise(request);
    int extra = 1 + choices.below(MAX_RANK - request.rank());
    Typed array = generate(arrayOf(element, types.constantDims(extra, true)), scope, depth);
    List<Expr> indices = new ArrayList<>();
    for (Dim d : SizedTypes.dims(array.type()).subList(0, extra)) {
      indices.add(index(constant(d), scope, depth));
    }
    return new Typed(
        new Expr.Index(array.expr(), indices, AT), SizedTypes.strip(array.type(), extra));
  }

  /** Inner dimensions can be indexed when their sizes are known and positive. */
  private static boolean indexable(List<Dim> inner) {
    return inner.stream().allMatch(d -> d instanceof Dim.Const c && c.size() > 0);
  }

  private Typed indexVariable(Binding array, int count, Type request, Scope scope, int depth) {
    List<Dim> dims = SizedTypes.dims(array.type());
    Type element = SizedTypes.strip(array.type(), count);
    Dim outer = dims.get(0);
    List<Expr> inner = new ArrayList<>();
    for (Dim d : dims.subList(1, count)) {
      inner.add(index(constant(d), scope, depth));
    }
    if (outer instanceof Dim.Const c) {
      List<Expr> indices = new ArrayList<>();
      indices.add(index(c.size(), scope, depth));
      indices.addAll(inner);
      return new Typed(new Expr.Index(var(array.name()), indices, AT), element);
    }
    // Size known only at run time: if 0 < size(0, a) then a[wrap(e), ...] else other.
    Expr size = new Expr.Size(0, var(array.name()), AT);
    List<Expr> indices = new ArrayList<>();
    indices.add(wrap(generate(ScalarType.I32, scope, depth).expr(), size));
    indices.addAll(inner);
    Typed otherwise = generate(request, scope, depth);
    Expr guard = new Expr.Binary(BinaryOperator.LT, i32(0), size, AT);
    return new Typed(
        new Expr.If(guard, new Expr.Index(var(array.name()), indices, AT), otherwise.expr(), AT),
        merge(element, otherwise.type()));
  }

  /**
   * An index into a dimension of size {@code size}; rarely, with {@code rareFailures}, out of
   * bounds.
   */
  private Expr index(long size, Scope scope, int depth) {
    if (rareFailures && choices.percent(1)) {
      return i32(size + choices.below(3));
    }
    return indexInBounds(size, scope, depth);
  }

  /**
   * A literal below {@code size}, or any {@code i32} expression wrapped into {@code 0 .. size-1}.
   */
  private Expr indexInBounds(long size, Scope scope, int depth) {
    if (choices.percent(65)) {
      return i32(choices.below((int) size));
    }
    return wrap(generate(ScalarType.I32, scope, depth).expr(), i32(size));
  }

  /**
   * {@code ((e % n) + n) % n}: in {@code 0 .. n-1} for any {@code e} when {@code n > 0}, without
   * overflow.
   */
  private static Expr wrap(Expr e, Expr n) {
    Expr remainder = new Expr.Binary(BinaryOperator.MOD, e, n, AT);
    return new Expr.Binary(
        BinaryOperator.MOD, new Expr.Binary(BinaryOperator.ADD, remainder, n, AT), n, AT);
  }

  /** {@code size(k, a)} of a variable or of a generated array. */
  private Typed size(Scope scope, int depth) {
    List<Binding> arrays = scope.arrays();
    Typed array =
        !arrays.isEmpty() && choices.percent(50)
            ? variable(arrays)
            : generate(types.array(Dim.UNKNOWN), scope, depth);
    List<Integer> measurable = new ArrayList<>();
    List<Dim> dims = SizedTypes.dims(array.type());
    for (int k = 0; k < dims.size(); k++) {
      if (measurable(dims, k)) {
        measurable.add(k);
      }
    }
    return new Typed(new Expr.Size(choices.pick(measurable), array.expr(), AT), ScalarType.I32);
  }

  /**
   * Whether {@code size(k, a)} is defined by the array's value: an empty array has no rows to
   * measure, so every dimension before k must be known to be non-empty.
   */
  private static boolean measurable(List<Dim> dims, int k) {
    return dims.subList(0, k).stream().allMatch(d -> d instanceof Dim.Const c && c.size() > 0);
  }

  /** An expression for the count of {@code iota}/{@code replicate}: a literal or a {@code size}. */
  private Count count(Dim size, Scope scope) {
    if (size instanceof Dim.Named) {
      Binding carrier =
          scope
              .carrying(size)
              .orElseThrow(
                  () -> new IllegalStateException("no variable in scope has size " + size));
      return new Count(new Expr.Size(0, var(carrier.name()), AT), size);
    }
    long n;
    if (size instanceof Dim.Const c) {
      n = c.size();
    } else if (!scope.arrays().isEmpty() && choices.percent(25)) {
      Binding b = choices.pick(scope.arrays());
      return new Count(new Expr.Size(0, var(b.name()), AT), ((Type.Array) b.type()).size());
    } else {
      n = types.size(1);
    }
    if (choices.percent(40)) {
      for (Binding b : scope.arrays()) {
        List<Dim> dims = SizedTypes.dims(b.type());
        int k = dims.indexOf(new Dim.Const(n));
        if (k >= 0 && measurable(dims, k)) {
          return new Count(new Expr.Size(k, var(b.name()), AT), new Dim.Const(n));
        }
      }
    }
    return new Count(i32(n), new Dim.Const(n));
  }

  /** The request with an open outer size replaced by a constant one. */
  private Type concretise(Type request) {
    if (request instanceof Type.Array a) {
      Dim size =
          a.size() instanceof Dim.Unknown ? new Dim.Const(types.size(request.rank())) : a.size();
      return arrayOf(concretise(a.element()), size);
    }
    if (request instanceof Type.Tuple t) {
      return new Type.Tuple(t.elements().stream().map(this::concretise).toList());
    }
    return request;
  }

  // ---------------------------------------------------------------- scalar operators and built-ins

  private Typed binary(BinaryOperator op, Typed left, Expr right, Type result) {
    return new Typed(new Expr.Binary(op, left.expr(), right, AT), result);
  }

  /**
   * {@code + - * / % pow}. Integer divisors are made odd ({@code e | 1}) and integer exponents
   * small ({@code e & 3}), so that only floats meet division by zero (IEEE, no error).
   */
  private Typed arithmetic(ScalarType type, Scope scope, int depth) {
    BinaryOperator op =
        choices.pick(
            List.of(
                BinaryOperator.ADD,
                BinaryOperator.MUL,
                BinaryOperator.SUB,
                BinaryOperator.DIV,
                BinaryOperator.MOD,
                BinaryOperator.POW));
    Typed left = generate(type, scope, depth);
    Expr right = generate(type, scope, depth).expr();
    if (type.isInteger() && (op == BinaryOperator.DIV || op == BinaryOperator.MOD)) {
      right =
          scalarEdges
              ? new Expr.If(
                  new Expr.Binary(BinaryOperator.EQ, right, intLiteral(0, type), AT),
                  intLiteral(-1, type),
                  right,
                  AT)
              : new Expr.Binary(BinaryOperator.BOR, right, intLiteral(1, type), AT);
    } else if (type.isInteger() && op == BinaryOperator.POW) {
      int mask = scalarEdges ? choices.pick(List.of(3, 63, -1)) : 3;
      right = new Expr.Binary(BinaryOperator.BAND, right, intLiteral(mask, type), AT);
    }
    return binary(op, left, right, type);
  }

  /** {@code & | ^ << >>}; shift amounts are masked below the type's width. */
  private Typed bitwise(ScalarType type, Scope scope, int depth) {
    BinaryOperator op =
        choices.pick(
            List.of(
                BinaryOperator.BAND,
                BinaryOperator.BOR,
                BinaryOperator.XOR,
                BinaryOperator.SHL,
                BinaryOperator.SHR));
    Typed left = generate(type, scope, depth);
    Expr right = generate(type, scope, depth).expr();
    if ((op == BinaryOperator.SHL || op == BinaryOperator.SHR) && !scalarEdges) {
      right =
          new Expr.Binary(
              BinaryOperator.BAND, right, intLiteral(type == ScalarType.I32 ? 31 : 63, type), AT);
    }
    return binary(op, left, right, type);
  }

  private Typed unary(ScalarType type, Scope scope, int depth) {
    PrefixOperator op = type == ScalarType.BOOL ? PrefixOperator.NOT : PrefixOperator.NEG;
    return new Typed(new Expr.Unary(op, generate(type, scope, depth).expr(), AT), type);
  }

  private Typed conversion(ScalarType type, Scope scope, int depth) {
    Typed operand = generate(types.numeric(), scope, depth);
    return new Typed(new Expr.Call(type.keyword(), List.of(operand.expr()), AT), type);
  }

  private Typed math(ScalarType type, Scope scope, int depth) {
    Builtin function =
        choices.pick(
            List.of(
                Builtin.EXP,
                Builtin.LOG,
                Builtin.SQRT,
                Builtin.SIN,
                Builtin.COS,
                Builtin.ERF,
                Builtin.FLOOR));
    return new Typed(
        new Expr.Call(function.functionName(), List.of(generate(type, scope, depth).expr()), AT),
        type);
  }

  private Typed numericBuiltin(ScalarType type, Scope scope, int depth) {
    Builtin function = choices.pick(List.of(Builtin.ABS, Builtin.MIN, Builtin.MAX));
    List<Expr> args = new ArrayList<>();
    for (int i = 0; i < function.arity(); i++) {
      args.add(generate(type, scope, depth).expr());
    }
    return new Typed(new Expr.Call(function.functionName(), args, AT), type);
  }

  private Typed comparison(Scope scope, int depth) {
    ScalarType operands = types.scalar();
    List<BinaryOperator> ops =
        operands == ScalarType.BOOL
            ? List.of(BinaryOperator.EQ, BinaryOperator.NEQ)
            : List.of(
                BinaryOperator.LT,
                BinaryOperator.EQ,
                BinaryOperator.LEQ,
                BinaryOperator.GT,
                BinaryOperator.GEQ,
                BinaryOperator.NEQ);
    BinaryOperator op = choices.pick(ops);
    return binary(
        op,
        generate(operands, scope, depth),
        generate(operands, scope, depth).expr(),
        ScalarType.BOOL);
  }

  private Typed logical(Scope scope, int depth) {
    BinaryOperator op = choices.pick(List.of(BinaryOperator.AND, BinaryOperator.OR));
    Typed left = generate(ScalarType.BOOL, scope, depth);
    return binary(op, left, generate(ScalarType.BOOL, scope, depth).expr(), ScalarType.BOOL);
  }

  // ---------------------------------------------------------------- array constructors

  /** {@code zip(a1, ..., an)} of arrays of one outer size. */
  private Typed zip(Type.Array request, Scope scope, int depth) {
    Dim common = soacs.zipDim(request.size(), scope);
    List<Expr> arrays = new ArrayList<>();
    List<Type> parts = new ArrayList<>();
    for (Type part : ((Type.Tuple) request.element()).elements()) {
      Typed array = generate(arrayOf(part, common), scope, depth);
      arrays.add(array.expr());
      parts.add(((Type.Array) array.type()).element());
    }
    return new Typed(new Expr.Zip(arrays, AT), arrayOf(new Type.Tuple(parts), common));
  }

  /**
   * The common outer size an {@code unzip} must produce for this tuple request, or null if none.
   */
  private static Dim unzipDim(Type.Tuple request) {
    Dim common = Dim.UNKNOWN;
    for (Type part : request.elements()) {
      if (!(part instanceof Type.Array a) || a.element() instanceof Type.Tuple) {
        return null;
      }
      if (!(a.size() instanceof Dim.Unknown)) {
        if (!(common instanceof Dim.Unknown) && !common.equals(a.size())) {
          return null;
        }
        common = a.size();
      }
    }
    return common;
  }

  private Typed unzip(Type.Tuple request, Scope scope, int depth) {
    List<Type> elements = request.elements().stream().map(t -> ((Type.Array) t).element()).toList();
    Typed zipped = generate(arrayOf(new Type.Tuple(elements), unzipDim(request)), scope, depth);
    Type.Array zippedType = (Type.Array) zipped.type();
    List<Type> parts =
        ((Type.Tuple) zippedType.element())
            .elements().stream().map(e -> (Type) arrayOf(e, zippedType.size())).toList();
    return new Typed(new Expr.Unzip(zipped.expr(), AT), new Type.Tuple(parts));
  }

  private static boolean splittable(Type.Tuple request) {
    return request.elements().size() == 2
        && request.elements().get(0) instanceof Type.Array a
        && request.elements().get(1) instanceof Type.Array b
        && a.element().equals(b.element())
        && !(a.size() instanceof Dim.Named)
        && !(b.size() instanceof Dim.Named);
  }

  /** {@code split(n, a)} = {@code {a[0..n-1], a[n..]}} with a known split point. */
  private Typed split(Type.Tuple request, Scope scope, int depth) {
    Type.Array first = (Type.Array) request.elements().get(0);
    Type.Array second = (Type.Array) request.elements().get(1);
    long n1 = first.size() instanceof Dim.Const c ? c.size() : types.size(1);
    long n2 = second.size() instanceof Dim.Const c ? c.size() : types.size(1);
    Typed array = generate(arrayOf(first.element(), n1 + n2), scope, depth);
    Type element = ((Type.Array) array.type()).element();
    return new Typed(
        new Expr.Split(i32(n1), array.expr(), AT),
        Type.tuple(arrayOf(element, n1), arrayOf(element, n2)));
  }

  private Typed iota(Type.Array request, Scope scope) {
    Count count = count(request.size(), scope);
    return new Typed(new Expr.Iota(count.expr(), AT), arrayOf(ScalarType.I32, count.size()));
  }

  private Typed replicate(Type.Array request, Scope scope, int depth) {
    Count count = count(request.size(), scope);
    Typed value = generate(request.element(), scope, depth);
    return new Typed(
        new Expr.Replicate(count.expr(), value.expr(), AT), arrayOf(value.type(), count.size()));
  }

  private Typed concat(Type.Array request, Scope scope, int depth) {
    Type.Array left;
    Type.Array right;
    if (request.size() instanceof Dim.Const c) {
      long n1 = choices.below((int) c.size() + 1);
      left = arrayOf(request.element(), n1);
      right = arrayOf(request.element(), c.size() - n1);
    } else {
      left = request;
      right = request;
    }
    Typed a = generate(left, scope, depth);
    Typed b = generate(right, scope, depth);
    Dim sa = ((Type.Array) a.type()).size();
    Dim sb = ((Type.Array) b.type()).size();
    Dim size =
        sa instanceof Dim.Const x && sb instanceof Dim.Const y
            ? new Dim.Const(x.size() + y.size())
            : freshTag();
    return new Typed(
        new Expr.Concat(a.expr(), b.expr(), AT), arrayOf(((Type.Array) a.type()).element(), size));
  }

  /** {@code reshape((d1, ..., dn), a)} from a source of another shape with as many elements. */
  private Typed reshape(Type request, Scope scope, int depth) {
    List<Dim> target = SizedTypes.dims(request);
    Type base = request.baseElement();
    long total = target.stream().mapToLong(SizedTypes::constant).reduce(1, (x, y) -> x * y);
    List<Dim> source;
    if (target.size() == 1) {
      long rows = total == 0 ? choices.between(0, 3) : divisor(total);
      long columns = rows == 0 ? choices.between(0, 3) : total / rows;
      source = List.of(new Dim.Const(rows), new Dim.Const(columns));
    } else {
      source = List.of(new Dim.Const(total));
    }
    Typed array = generate(arrayOf(base, source), scope, depth);
    List<Expr> shape = target.stream().map(d -> (Expr) i32(constant(d))).toList();
    boolean nestable = target.size() == 2 && base instanceof ScalarType;
    return withMapNests(
        array, a -> new Expr.Reshape(shape, a, AT), request, nestable, scope, depth);
  }

  private long divisor(long n) {
    List<Long> divisors = new ArrayList<>();
    for (long d = 1; d <= n; d++) {
      if (n % d == 0) {
        divisors.add(d);
      }
    }
    return choices.pick(divisors);
  }

  /**
   * {@code transpose(k, n, a)} (thesis §2.3): dimension k of the source becomes dimension k+n of
   * the result, so the source has the result's dimension k+n at position k.
   */
  private Typed transpose(Type request, Scope scope, int depth) {
    List<Dim> result = SizedTypes.dims(request);
    if (result.contains(new Dim.Const(0))) {
      // An empty source array would not carry the sizes of its lost inner dimensions.
      return leaf(request, scope);
    }
    List<int[]> moves =
        result.size() == 2
            ? List.of(new int[] {0, 1})
            : List.of(new int[] {0, 1}, new int[] {0, 2}, new int[] {1, 1});
    int[] move = choices.pick(moves);
    List<Dim> source = new ArrayList<>(result);
    source.add(move[0], source.remove(move[0] + move[1]));
    Typed array = generate(arrayOf(request.baseElement(), source), scope, depth);
    boolean nestable = result.size() == 2 && request.baseElement() instanceof ScalarType;
    return withMapNests(
        array, a -> new Expr.Transpose(move[0], move[1], a, AT), request, nestable, scope, depth);
  }

  /**
   * {@code indexFunction(source)} of type {@code request}, where {@code nestable} (a matrix of
   * scalars) also with the shapes the fusion rules across transpose and reshape rewrite (thesis ch.
   * 8): one in five each with a map nest making the source (a producer: {@code transpose(map(fn r
   * => map(f, r), a))}, {@code reshape((n, m), map(f, a))}), with a map nest reading the result (a
   * consumer: {@code map(fn r => map(g, r), transpose(a))}), or both.
   */
  private Typed withMapNests(
      Typed source,
      UnaryOperator<Expr> indexFunction,
      Type request,
      boolean nestable,
      Scope scope,
      int depth) {
    int form = nestable ? choices.weighted(2, 1, 1, 1) : 0;
    boolean producer = form == 1 || form == 3;
    boolean consumer = form == 1 || form == 2;
    Typed array = producer ? mapNest(source, scope, depth) : source;
    Typed result = new Typed(indexFunction.apply(array.expr()), request);
    return consumer ? mapNest(result, scope, depth) : result;
  }

  /**
   * {@code map(fn r => map(fn x => e, r), a)}, a perfect nest of as many maps as {@code a} has
   * dimensions (its base scalar type in and out), each element's {@code e} reading {@code x}.
   */
  private Typed mapNest(Typed array, Scope scope, int depth) {
    Type.Array type = (Type.Array) array.type();
    String name = freshName("e");
    Scope inner = scope.with(name, type.element());
    Typed body =
        type.element() instanceof Type.Array
            ? mapNest(new Typed(var(name), type.element()), inner, depth)
            : generate(type.element(), inner, depth);
    return new Typed(
        new Expr.Map(
            new FunArg.Lambda(
                body.type().erased(),
                List.of(new Param(type.element().erased(), name, AT)),
                body.expr(),
                AT),
            array.expr(),
            AT),
        arrayOf(body.type(), type.size()));
  }

  private Typed copy(Type request, Scope scope, int depth) {
    Typed value = generate(request, scope, depth);
    return new Typed(new Expr.Copy(value.expr(), AT), value.type());
  }

  private Typed arrayLiteral(Type.Array request, Scope scope, int depth) {
    long length = request.size() instanceof Dim.Const c ? c.size() : 1 + choices.below(4);
    Type element = request.element();
    List<Expr> elements = new ArrayList<>();
    for (long i = 0; i < length; i++) {
      elements.add(generate(element, scope, depth).expr());
    }
    return new Typed(new Expr.ArrayLit(elements, AT), arrayOf(element, length));
  }

  private Typed tupleLiteral(Type.Tuple request, Scope scope, int depth) {
    return tupleOf(request.elements().stream().map(t -> generate(t, scope, depth)).toList());
  }
}
