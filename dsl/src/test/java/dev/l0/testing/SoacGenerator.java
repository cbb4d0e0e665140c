package dev.l0.testing;

import static dev.l0.testing.ExprGenerator.AT;
import static dev.l0.testing.ExprGenerator.var;
import static dev.l0.testing.SizedTypes.arrayOf;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Generation of SOACs (thesis §2.2) for {@link ExprGenerator}: map, filter, reduce and scan over
 * each other's results and over variables, zips of mapped arrays, one producer with several
 * consumers (the case of the thesis's T2 fusion, ch. 7), reductions and scans with associative
 * operators and their neutral elements ({@link Monoid}), and every form of function argument:
 * lambdas, references to generated helper functions with curried arguments, operator sections
 * {@code op +} / {@code op +(c)}, and tuple shimming (§2.3.1).
 */
final class SoacGenerator {
  /** A SOAC's function argument with the type it returns. */
  private record SoacFunction(FunArg function, Type result) {}

  /** The operator of a reduction or scan with its neutral element. */
  private record Combiner(FunArg function, Expr neutral) {}

  private final ExprGenerator exprs;
  private final Choices choices;
  private final TypeGenerator types;

  SoacGenerator(ExprGenerator exprs, Choices choices, TypeGenerator types) {
    this.exprs = exprs;
    this.choices = choices;
    this.types = types;
  }

  /**
   * {@code reduce(op, ne, a)} with an associative operator and its neutral element; with scalar
   * edges, one in four integer reductions is {@code let {a, b} = reduce(op, ne, <pairs>) in b},
   * often by composing affine maps ({@link #combiner}).
   */
  Typed reduce(Type request, Scope scope, int depth) {
    if (exprs.scalarEdges()
        && request instanceof ScalarType integer
        && integer.isInteger()
        && choices.percent(25)) {
      Typed pairs =
          exprs.generate(arrayOf(Type.tuple(integer, integer), Dim.UNKNOWN), scope, depth);
      String first = exprs.freshName("a");
      String second = exprs.freshName("b");
      Pattern both =
          new Pattern.Tuple(List.of(new Pattern.Name(first, AT), new Pattern.Name(second, AT)), AT);
      return new Typed(new Expr.Let(both, reduceOver(pairs).expr(), var(second), AT), integer);
    }
    return reduceOver(exprs.generate(arrayOf(request, Dim.UNKNOWN), scope, depth));
  }

  private Typed reduceOver(Typed input) {
    Type element = ((Type.Array) input.type()).element();
    Combiner operator = combiner(element);
    return new Typed(
        new Expr.Reduce(operator.function(), operator.neutral(), input.expr(), AT), element);
  }

  /**
   * {@code reduce(fn [t] ([t] a, [t] b) => map(op, zip(a, b)), replicate(m, ne), xss)}: a reduction
   * whose operator combines arrays, element by element with one monoid. One in five, where the
   * request leaves the width open, has rows of 32 to 44 elements and an operator whose row type
   * says so (a reduction of wide rows, which the kernels run as a map of reduces).
   */
  Typed arrayReduce(Type.Array request, Scope scope, int depth) {
    boolean wide = !(request.size() instanceof Dim.Const) && choices.percent(20);
    Type.Array row = wide ? arrayOf(request.element(), 32 + types.size(1)) : constantRow(request);
    Monoid monoid = choices.pick(exprs.monoids((ScalarType) row.element()));
    Typed rows = exprs.generate(arrayOf(row, Dim.UNKNOWN), scope, depth);
    return new Typed(
        new Expr.Reduce(rowCombiner(row, monoid, wide), rowNeutral(row, monoid), rows.expr(), AT),
        row);
  }

  /**
   * {@code scan} with the operators of {@link #arrayReduce}: prefixes of arrays combined element by
   * element.
   */
  Typed arrayScan(Type.Array request, Scope scope, int depth) {
    Type.Array row = constantRow((Type.Array) request.element());
    Monoid monoid = choices.pick(exprs.monoids((ScalarType) row.element()));
    Typed rows = exprs.generate(arrayOf(row, request.size()), scope, depth);
    return new Typed(
        new Expr.Scan(rowCombiner(row, monoid, false), rowNeutral(row, monoid), rows.expr(), AT),
        rows.type());
  }

  /**
   * The requested row type with a constant size (the neutral element is a {@code replicate} of it).
   */
  private Type.Array constantRow(Type.Array request) {
    long m = request.size() instanceof Dim.Const c ? c.size() : types.size(1);
    return arrayOf(request.element(), m);
  }

  /**
   * The element-by-element operator on rows of type {@code row}, whose own row type is {@code row}
   * if {@code sized}, else unsized.
   */
  private FunArg rowCombiner(Type.Array row, Monoid monoid, boolean sized) {
    Type element = row.element();
    String a = exprs.freshName("a");
    String b = exprs.freshName("b");
    String x = exprs.freshName("x");
    String y = exprs.freshName("y");
    FunArg elementwise =
        new FunArg.Lambda(
            element,
            List.of(new Param(element, x, AT), new Param(element, y, AT)),
            monoid.combine(var(x), var(y)),
            AT);
    Expr body = new Expr.Map(elementwise, new Expr.Zip(List.of(var(a), var(b)), AT), AT);
    Type rowType = sized ? row : row.erased();
    return new FunArg.Lambda(
        rowType, List.of(new Param(rowType, a, AT), new Param(rowType, b, AT)), body, AT);
  }

  private static Expr rowNeutral(Type.Array row, Monoid monoid) {
    return new Expr.Replicate(
        ExprGenerator.i32(((Dim.Const) row.size()).size()), monoid.neutral(), AT);
  }

  /**
   * {@code scan(op, ne, a)}: an inclusive prefix scan with the same operators as {@link #reduce}.
   */
  Typed scan(Type.Array request, Scope scope, int depth) {
    return scanOver(exprs.generate(request, scope, depth));
  }

  private Typed scanOver(Typed input) {
    Combiner operator = combiner(((Type.Array) input.type()).element());
    return new Typed(
        new Expr.Scan(operator.function(), operator.neutral(), input.expr(), AT), input.type());
  }

  /**
   * The operator of a reduction or scan over {@code type} (a scalar or a tuple of scalars, one
   * monoid per component) with its neutral element: an operator section {@code op +}, a lambda, or
   * a generated helper function.
   */
  private Combiner combiner(Type type) {
    List<Monoid> monoids = new ArrayList<>();
    List<Type> parts = type instanceof Type.Tuple t ? t.elements() : List.of(type);
    for (Type part : parts) {
      monoids.add(choices.pick(exprs.monoids((ScalarType) part)));
    }
    List<Expr> neutrals = monoids.stream().map(Monoid::neutral).toList();
    String x = exprs.freshName("x");
    String y = exprs.freshName("y");
    if (type instanceof ScalarType) {
      Monoid m = monoids.get(0);
      int form = choices.weighted(m.operator() != null ? 3 : 0, 2, exprs.canAddHelper() ? 1 : 0);
      if (form == 0) {
        return new Combiner(new FunArg.OperatorRef(m.operator(), List.of(), AT), m.neutral());
      }
      Expr body = m.combine(var(x), var(y));
      List<Param> params = List.of(new Param(type, x, AT), new Param(type, y, AT));
      if (form == 2) {
        Helper helper = exprs.defineHelper(params, List.of(type, type), type, body);
        return new Combiner(new FunArg.FunctionRef(helper.name(), List.of(), AT), m.neutral());
      }
      return new Combiner(new FunArg.Lambda(type, params, body, AT), m.neutral());
    }
    // Tuples: fn {t1, t2} ({t1, t2} x, {t1, t2} y) => let {x1, x2} = x in let {y1, y2} = y in {x1
    // op y1, ...}
    List<Pattern> xs = new ArrayList<>();
    List<Pattern> ys = new ArrayList<>();
    List<Expr> combined = new ArrayList<>();
    for (Monoid m : monoids) {
      String xi = exprs.freshName("x");
      String yi = exprs.freshName("y");
      xs.add(new Pattern.Name(xi, AT));
      ys.add(new Pattern.Name(yi, AT));
      combined.add(m.combine(var(xi), var(yi)));
    }
    List<Expr> tupleNeutral = new ArrayList<>(neutrals);
    int[] pair = affinePair(parts);
    if (exprs.scalarEdges() && pair != null && choices.percent(60)) {
      // Two components of one integer type compose as affine maps v -> a*v + b, {a1, b1} then
      // {a2, b2}: {a1 * a2, b1 * a2 + b2}, neutral {1, 0}; associative (integers wrap around), not
      // commutative, and each result component reads both components of both operands.
      ScalarType integer = (ScalarType) parts.get(pair[0]);
      Expr a1 = var(((Pattern.Name) xs.get(pair[0])).name());
      Expr b1 = var(((Pattern.Name) xs.get(pair[1])).name());
      Expr a2 = var(((Pattern.Name) ys.get(pair[0])).name());
      Expr b2 = var(((Pattern.Name) ys.get(pair[1])).name());
      combined.set(pair[0], new Expr.Binary(BinaryOperator.MUL, a1, a2, AT));
      combined.set(
          pair[1],
          new Expr.Binary(
              BinaryOperator.ADD, new Expr.Binary(BinaryOperator.MUL, b1, a2, AT), b2, AT));
      tupleNeutral.set(pair[0], ExprGenerator.intLiteral(1, integer));
      tupleNeutral.set(pair[1], ExprGenerator.intLiteral(0, integer));
    }
    Expr body =
        new Expr.Let(
            new Pattern.Tuple(xs, AT),
            var(x),
            new Expr.Let(new Pattern.Tuple(ys, AT), var(y), new Expr.TupleLit(combined, AT), AT),
            AT);
    FunArg lambda =
        new FunArg.Lambda(type, List.of(new Param(type, x, AT), new Param(type, y, AT)), body, AT);
    return new Combiner(lambda, new Expr.TupleLit(tupleNeutral, AT));
  }

  /** The first two components of one integer type (indices, in order), or null if none. */
  private static int[] affinePair(List<Type> parts) {
    for (int i = 0; i < parts.size(); i++) {
      for (int j = i + 1; j < parts.size(); j++) {
        if (parts.get(i) instanceof ScalarType s && s.isInteger() && parts.get(j).equals(s)) {
          return new int[] {i, j};
        }
      }
    }
    return null;
  }

  /**
   * {@code map(f, a)} over one array, over a zip (with a shimmed or a tuple parameter), or with an
   * operator section {@code op +(c)} / {@code op +} on a zip.
   */
  Typed map(Type.Array request, Scope scope, int depth) {
    Type element = request.element();
    boolean sections = SizedTypes.isNumeric(element) || element == ScalarType.BOOL;
    int form = choices.weighted(5, 3, sections ? 2 : 0);
    if (form == 2) {
      return mapSection(request, scope, depth);
    }
    Typed input;
    if (form == 0) {
      input = existingOrNew(arrayLike(request.size(), scope), e -> true, scope, depth);
    } else {
      Dim common = zipDim(request.size(), scope);
      int width = 2 + choices.below(2);
      List<Expr> arrays = new ArrayList<>();
      List<Type> parts = new ArrayList<>();
      for (int i = 0; i < width; i++) {
        Typed part =
            existingOrNew(
                types.zipComponent(common), e -> !(e instanceof Type.Tuple), scope, depth);
        arrays.add(part.expr());
        parts.add(((Type.Array) part.type()).element());
      }
      input = new Typed(new Expr.Zip(arrays, AT), arrayOf(new Type.Tuple(parts), common));
    }
    return mapOver(input, element, scope, depth);
  }

  private Typed mapOver(Typed input, Type result, Scope scope, int depth) {
    Type.Array inputType = (Type.Array) input.type();
    SoacFunction f = function(inputType.element(), result, scope, depth);
    return new Typed(
        new Expr.Map(f.function(), input.expr(), AT), arrayOf(f.result(), inputType.size()));
  }

  /**
   * {@code let x = <map or filter> in let y1 = <SOAC over x> in let y2 = <SOAC over x> in body}:
   * one producer whose result several SOACs consume, the case the thesis's T2 fusion handles beyond
   * rewrite-rule fusion (ch. 7).
   */
  Typed fanOut(Type request, Scope scope, int depth) {
    Type.Array produced = arrayLike(Dim.UNKNOWN, scope);
    Typed producer =
        choices.percent(60) ? map(produced, scope, depth) : filter(produced, scope, depth);
    String name = exprs.freshName("x");
    Typed shared = new Typed(var(name), producer.type());
    Scope inner = scope.with(name, producer.type());
    int count = 2 + choices.below(2);
    List<String> names = new ArrayList<>();
    List<Typed> consumers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Typed consumer = consumer(shared, inner, depth);
      names.add(exprs.freshName("y"));
      consumers.add(consumer);
      inner = inner.with(names.get(i), consumer.type());
    }
    Typed body = exprs.generate(request, inner, depth);
    Expr expr = body.expr();
    for (int i = count - 1; i >= 0; i--) {
      expr = new Expr.Let(new Pattern.Name(names.get(i), AT), consumers.get(i).expr(), expr, AT);
    }
    return new Typed(
        new Expr.Let(new Pattern.Name(name, AT), producer.expr(), expr, AT), body.type());
  }

  /**
   * A SOAC over the array {@code input}: a map, filter, or (for scalar elements) reduce or scan.
   */
  private Typed consumer(Typed input, Scope scope, int depth) {
    boolean combinable = SizedTypes.combinable(((Type.Array) input.type()).element());
    return switch (choices.weighted(3, 2, combinable ? 2 : 0, combinable ? 1 : 0)) {
      case 0 -> mapOver(input, types.element(1), scope, depth);
      case 1 -> filterOver(input, scope, depth);
      case 2 -> reduceOver(input);
      default -> scanOver(input);
    };
  }

  /**
   * An array for a SOAC whose element type is free: often a variable in scope (so that SOACs
   * consume each other's let-bound results), else a new expression of type {@code fallback}.
   */
  private Typed existingOrNew(
      Type.Array fallback, Predicate<Type> elementOk, Scope scope, int depth) {
    Dim outer = fallback.size();
    List<Binding> fitting =
        scope.arrays().stream()
            .filter(
                b -> SizedTypes.fits(b.type(), arrayOf(((Type.Array) b.type()).element(), outer)))
            .filter(b -> elementOk.test(((Type.Array) b.type()).element()))
            .toList();
    if (!fitting.isEmpty() && choices.percent(55)) {
      return exprs.variable(fitting);
    }
    return exprs.generate(fallback, scope, depth);
  }

  /**
   * An array type of outer size {@code outer}, often with the element type of an array in scope, so
   * that generated SOACs over it have variables to work with.
   */
  Type.Array arrayLike(Dim outer, Scope scope) {
    List<Binding> arrays = scope.arrays();
    if (!arrays.isEmpty() && choices.percent(60)) {
      return arrayOf(((Type.Array) choices.pick(arrays).type()).element(), outer);
    }
    return types.array(outer);
  }

  /**
   * {@code map(op +(c), a)}, {@code map(op <(c), a)}, or {@code map(op +, zip(a, b))} (tuple
   * shimming).
   */
  private Typed mapSection(Type.Array request, Scope scope, int depth) {
    ScalarType result = (ScalarType) request.element();
    ScalarType operands = result == ScalarType.BOOL ? types.numeric() : result;
    List<BinaryOperator> ops =
        result == ScalarType.BOOL
            ? List.of(BinaryOperator.LT, BinaryOperator.EQ, BinaryOperator.GEQ)
            : operands.isInteger()
                ? List.of(
                    BinaryOperator.ADD,
                    BinaryOperator.MUL,
                    BinaryOperator.SUB,
                    BinaryOperator.BAND,
                    BinaryOperator.XOR)
                : List.of(BinaryOperator.ADD, BinaryOperator.MUL, BinaryOperator.SUB);
    BinaryOperator op = choices.pick(ops);
    if (choices.percent(50)) {
      Typed operand = exprs.generate(operands, scope, depth);
      Typed input = exprs.generate(arrayOf(operands, request.size()), scope, depth);
      FunArg section = new FunArg.OperatorRef(op, List.of(operand.expr()), AT);
      return new Typed(
          new Expr.Map(section, input.expr(), AT),
          arrayOf(result, ((Type.Array) input.type()).size()));
    }
    Dim common = zipDim(request.size(), scope);
    Typed left = exprs.generate(arrayOf(operands, common), scope, depth);
    Typed right = exprs.generate(arrayOf(operands, common), scope, depth);
    Expr zipped = new Expr.Zip(List.of(left.expr(), right.expr()), AT);
    return new Typed(
        new Expr.Map(new FunArg.OperatorRef(op, List.of(), AT), zipped, AT),
        arrayOf(result, common));
  }

  /** The outer size of the arrays of a zip: the requested one, or a constant, or a tag in scope. */
  Dim zipDim(Dim requested, Scope scope) {
    if (!(requested instanceof Dim.Unknown)) {
      return requested;
    }
    List<Dim> tags = scope.tags();
    if (!tags.isEmpty() && choices.percent(40)) {
      return choices.pick(tags);
    }
    return new Dim.Const(types.size(1));
  }

  /** {@code filter(p, a)}: a predicate lambda, a helper, or an operator section {@code op <(c)}. */
  Typed filter(Type.Array request, Scope scope, int depth) {
    return filterOver(exprs.generate(request, scope, depth), scope, depth);
  }

  Typed filterOver(Typed input, Scope scope, int depth) {
    Type element = ((Type.Array) input.type()).element();
    FunArg predicate;
    if (SizedTypes.isNumeric(element) && choices.percent(25)) {
      BinaryOperator op =
          choices.pick(List.of(BinaryOperator.LT, BinaryOperator.GEQ, BinaryOperator.NEQ));
      predicate =
          new FunArg.OperatorRef(op, List.of(exprs.generate(element, scope, depth).expr()), AT);
    } else {
      predicate = function(element, ScalarType.BOOL, scope, depth).function();
    }
    return new Typed(
        new Expr.Filter(predicate, input.expr(), AT), arrayOf(element, exprs.freshTag()));
  }

  /**
   * The function a SOAC applies to each element: a lambda (taking a tuple element whole, or its
   * components by tuple shimming) or a reference to a new helper, sometimes with a curried leading
   * argument.
   */
  private SoacFunction function(Type element, Type result, Scope scope, int depth) {
    List<Type> params =
        element instanceof Type.Tuple t && choices.percent(50) ? t.elements() : List.of(element);
    boolean helper = exprs.canAddHelper() && choices.percent(20);
    if (helper) {
      List<Type> curriedTypes = choices.percent(40) ? List.of(types.scalar()) : List.of();
      List<Type> all = new ArrayList<>(curriedTypes);
      all.addAll(params);
      Helper h = exprs.newHelper(all, result, depth);
      List<Expr> curried =
          curriedTypes.stream().map(t -> exprs.generate(t, scope, depth).expr()).toList();
      return new SoacFunction(new FunArg.FunctionRef(h.name(), curried, AT), h.resultType());
    }
    List<Param> declared = new ArrayList<>();
    Scope inner = scope;
    for (Type t : params) {
      String name = exprs.freshName("e");
      declared.add(new Param(t.erased(), name, AT));
      inner = inner.with(name, t);
    }
    Typed body = exprs.generate(result, inner, depth);
    return new SoacFunction(
        new FunArg.Lambda(body.type().erased(), declared, body.expr(), AT), body.type());
  }
}
