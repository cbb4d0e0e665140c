package dev.l0.testing;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Builds whole programs from a decision tape: an entry function {@value #ENTRY} with one to three
 * parameters, the helper functions its body calls, and argument values for the entry, generated
 * with exactly the sizes the body was generated for.
 */
final class ProgramGenerator {
  static final String ENTRY = "main";
  private static final int ENTRY_DEPTH = 5;

  /** A run-time failure a failing program provokes, with the operation name it must report. */
  private enum Failure {
    INDEX("index"),
    DIVISION("/"),
    MODULO("%"),
    ZIP("zip"),
    RESHAPE("reshape"),
    SPLIT("split"),
    IOTA("iota"),
    REPLICATE("replicate");

    final String operation;

    Failure(String operation) {
      this.operation = operation;
    }
  }

  private final Choices choices;
  private final TypeGenerator types;

  private ProgramGenerator(List<Integer> tape) {
    this(tape, false);
  }

  private ProgramGenerator(List<Integer> tape, boolean wide) {
    this.choices = new Choices(tape);
    this.types = new TypeGenerator(choices, wide);
  }

  /** A well-typed program; rarely, it indexes out of bounds. */
  static ProgramCase program(List<Integer> tape) {
    return program(tape, false);
  }

  /**
   * A well-typed program as {@link #program(List)}, with the per-thread array shapes of {@link
   * ExprGenerator} when {@code kernelArrays} is set.
   */
  static ProgramCase program(List<Integer> tape, boolean kernelArrays) {
    ProgramGenerator g = new ProgramGenerator(tape);
    ExprGenerator exprs = new ExprGenerator(g.choices, g.types, true, kernelArrays);
    List<Binding> params = g.parameters(exprs);
    Typed body = exprs.generate(g.types.binding(), new Scope(params), ENTRY_DEPTH);
    return g.finish(exprs, params, body.type(), body.expr(), new ValueGenerator(g.choices));
  }

  /**
   * A well-typed program as {@link #program(List)} with the scalar edges of {@link ExprGenerator}
   * and some wide arrays ({@link TypeGenerator#TypeGenerator(Choices, boolean)}), its arguments
   * drawn from their own tape {@code values}, often edge values ({@link ValueGenerator#edge}).
   */
  static ProgramCase scalarEdgeProgram(List<Integer> tape, List<Integer> values) {
    ProgramGenerator g = new ProgramGenerator(tape, true);
    ExprGenerator exprs = new ExprGenerator(g.choices, g.types, true, false, true);
    List<Binding> params = g.parameters(exprs);
    Typed body = exprs.generate(g.types.binding(), new Scope(params), ENTRY_DEPTH);
    return g.finish(
        exprs, params, body.type(), body.expr(), new ValueGenerator(new Choices(values), true));
  }

  /**
   * A well-typed program whose entry first evaluates {@code let bad = <failing expression>}; every
   * other expression is generated without any possible run-time failure.
   */
  static FailingProgramCase failingProgram(List<Integer> tape) {
    ProgramGenerator g = new ProgramGenerator(tape);
    ExprGenerator exprs = new ExprGenerator(g.choices, g.types, false);
    List<Binding> params = g.parameters(exprs);
    Scope scope = new Scope(params);
    Failure failure = g.choices.pick(List.of(Failure.values()));
    Expr failing =
        g.choices.percent(50)
            ? g.failingInKernel(failure, exprs, scope)
            : g.failing(failure, exprs, scope, ExprGenerator::i32).expr();
    Typed rest = exprs.generate(g.types.binding(), scope, ENTRY_DEPTH - 1);
    Expr body =
        new Expr.Let(
            new Pattern.Name(exprs.freshName("bad"), ExprGenerator.AT),
            failing,
            rest.expr(),
            ExprGenerator.AT);
    return new FailingProgramCase(
        g.finish(exprs, params, rest.type(), body, new ValueGenerator(g.choices)),
        failure.operation);
  }

  private List<Binding> parameters(ExprGenerator exprs) {
    int count = 1 + choices.below(3);
    List<Binding> params = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      params.add(new Binding(exprs.freshName("arg"), types.parameter()));
    }
    return params;
  }

  private ProgramCase finish(
      ExprGenerator exprs, List<Binding> params, Type result, Expr body, ValueGenerator values) {
    List<Param> declared =
        params.stream().map(b -> new Param(b.type().erased(), b.name(), ExprGenerator.AT)).toList();
    List<FunDef> functions = new ArrayList<>(exprs.helperDefinitions());
    functions.add(new FunDef(ENTRY, result.erased(), declared, body, ExprGenerator.AT));
    List<Value> args = params.stream().map(b -> values.value(b.type())).toList();
    return new ProgramCase(new Program(functions), ENTRY, args);
  }

  /**
   * The failing expression inside a kernel's rows: {@code let p = <point> in map(fn t (i32 r) =>
   * <failing>, iota(m))} over one to three rows (a failing expression of an array or tuple is
   * {@code let bad = <failing> in 0}), where each index, split point or new size of the failing
   * expression ({@code point}) is a literal, a value the host computes before the kernel ({@code
   * size(0, filter(fn bool (i32 x) => true, iota(v)))}, bound outside the map), or, for an index,
   * one each row computes ({@code r - r + v}; a row's array whose size the row computes is not
   * lowered to kernels). A failing split's parts are read ({@link #rotatedSplit}).
   */
  private Expr failingInKernel(Failure failure, ExprGenerator exprs, Scope scope) {
    String row = exprs.freshName("r");
    List<Pattern> hostNames = new ArrayList<>();
    List<Expr> hostPoints = new ArrayList<>();
    LongFunction<Expr> point =
        v ->
            switch (choices.below(failure == Failure.INDEX ? 3 : 2)) {
              case 0 -> ExprGenerator.i32(v);
              case 1 -> {
                String name = exprs.freshName("p");
                hostNames.add(new Pattern.Name(name, ExprGenerator.AT));
                hostPoints.add(hostComputed(v, exprs));
                yield ExprGenerator.var(name);
              }
              default ->
                  new Expr.Binary(
                      BinaryOperator.ADD,
                      new Expr.Binary(
                          BinaryOperator.SUB,
                          ExprGenerator.var(row),
                          ExprGenerator.var(row),
                          ExprGenerator.AT),
                      ExprGenerator.i32(v),
                      ExprGenerator.AT);
            };
    Scope inRow = scope.with(row, ScalarType.I32);
    Typed failing =
        switch (failure) {
          case SPLIT -> rotatedSplit(exprs, inRow, point);
          case IOTA, REPLICATE -> {
            // The negative count's array read by a map and a concat, as a split's parts.
            Typed made = failing(failure, exprs, inRow, point);
            Typed other = rowArray(exprs, inRow, types.size(1));
            yield new Typed(doubledAndSummed(made.expr(), other.expr()), ScalarType.I32);
          }
          default -> failing(failure, exprs, inRow, point);
        };
    if (!(failing.type() instanceof ScalarType)) {
      // Rows of arrays whose sizes the rows compute are not lowered: the row is let bad = e in 0.
      failing =
          new Typed(
              new Expr.Let(
                  new Pattern.Name(exprs.freshName("bad"), ExprGenerator.AT),
                  failing.expr(),
                  ExprGenerator.i32(0),
                  ExprGenerator.AT),
              ScalarType.I32);
    }
    Expr map =
        new Expr.Map(
            new FunArg.Lambda(
                failing.type(),
                List.of(new Param(ScalarType.I32, row, ExprGenerator.AT)),
                failing.expr(),
                ExprGenerator.AT),
            new Expr.Iota(ExprGenerator.i32(1 + choices.below(3)), ExprGenerator.AT),
            ExprGenerator.AT);
    for (int i = hostNames.size() - 1; i >= 0; i--) {
      map = new Expr.Let(hostNames.get(i), hostPoints.get(i), map, ExprGenerator.AT);
    }
    return map;
  }

  /**
   * {@code let {a, b} = split(p, <i32 array>) in reduce(op +, 0, concat(map(op *(2), b), a))}, p
   * beyond the array's rows: a failing split whose parts a map and a concat read (where the parts'
   * sizes once went negative in a kernel thread's scratch). The array's size stays known ({@link
   * #rowArray}): the part of rows a thread computes, less a split point from the host, is a size no
   * host bounds.
   */
  private Typed rotatedSplit(ExprGenerator exprs, Scope scope, LongFunction<Expr> point) {
    long n = types.size(1);
    Typed array = rowArray(exprs, scope, n);
    Expr split =
        new Expr.Split(point.apply(n + 1 + choices.below(3)), array.expr(), ExprGenerator.AT);
    String first = exprs.freshName("a");
    String second = exprs.freshName("b");
    Expr sum = doubledAndSummed(ExprGenerator.var(second), ExprGenerator.var(first));
    Pattern parts =
        new Pattern.Tuple(
            List.of(
                new Pattern.Name(first, ExprGenerator.AT),
                new Pattern.Name(second, ExprGenerator.AT)),
            ExprGenerator.AT);
    return new Typed(new Expr.Let(parts, split, sum, ExprGenerator.AT), ScalarType.I32);
  }

  /**
   * {@code map(fn i32 (i32 j) => <i32>, iota(n))} in a kernel's row: an array of {@code n} rows
   * whose values the row computes and whose size the host bounds. A generated array of that type
   * may be a loop's result, whose size only the thread knows, and such a row is not lowered to
   * kernels (a compile error, not the failure the program is made for).
   */
  private static Typed rowArray(ExprGenerator exprs, Scope scope, long n) {
    String index = exprs.freshName("j");
    Typed value = exprs.generate(ScalarType.I32, scope.with(index, ScalarType.I32), 1);
    Expr map =
        new Expr.Map(
            new FunArg.Lambda(
                ScalarType.I32,
                List.of(new Param(ScalarType.I32, index, ExprGenerator.AT)),
                value.expr(),
                ExprGenerator.AT),
            new Expr.Iota(ExprGenerator.i32(n), ExprGenerator.AT),
            ExprGenerator.AT);
    return new Typed(map, SizedTypes.arrayOf(ScalarType.I32, new Dim.Const(n)));
  }

  /** {@code reduce(op +, 0, concat(map(op *(2), a), b))} of two {@code i32} arrays. */
  private static Expr doubledAndSummed(Expr a, Expr b) {
    Expr doubled =
        new Expr.Map(
            new FunArg.OperatorRef(
                BinaryOperator.MUL, List.of(ExprGenerator.i32(2)), ExprGenerator.AT),
            a,
            ExprGenerator.AT);
    return new Expr.Reduce(
        new FunArg.OperatorRef(BinaryOperator.ADD, List.of(), ExprGenerator.AT),
        ExprGenerator.i32(0),
        new Expr.Concat(doubled, b, ExprGenerator.AT),
        ExprGenerator.AT);
  }

  /**
   * {@code size(0, filter(fn bool (i32 x) => true, iota(v)))}, or {@code 0 - size(...)} of {@code
   * -v} where v is negative: v, known only at run time.
   */
  private static Expr hostComputed(long v, ExprGenerator exprs) {
    long magnitude = Math.abs(v);
    Typed iota =
        new Typed(
            new Expr.Iota(ExprGenerator.i32(magnitude), ExprGenerator.AT),
            SizedTypes.arrayOf(ScalarType.I32, new Dim.Const(magnitude)));
    Expr size = new Expr.Size(0, runTimeSized(iota, exprs), ExprGenerator.AT);
    return v >= 0
        ? size
        : new Expr.Binary(BinaryOperator.SUB, ExprGenerator.i32(0), size, ExprGenerator.AT);
  }

  /**
   * The failing expression. Sizes that must disagree are hidden from the type checker's static size
   * analysis behind {@link #runTimeSized}, so that the program is well typed and fails only when it
   * runs. Indices, split points, new sizes and (negative) counts are {@code point} of their value.
   */
  private Typed failing(
      Failure failure, ExprGenerator exprs, Scope scope, LongFunction<Expr> point) {
    int depth = 2;
    long n = types.size(1);
    long beyond = n + 1 + choices.below(3);
    return switch (failure) {
      case INDEX -> {
        Typed array = exprs.generate(types.array(new Dim.Const(n)), scope, depth);
        yield new Typed(
            new Expr.Index(
                runTimeSized(array, exprs),
                List.of(point.apply(n + choices.below(3))),
                ExprGenerator.AT),
            ((Type.Array) array.type()).element());
      }
      case DIVISION, MODULO -> {
        ScalarType type = types.integer();
        BinaryOperator op = failure == Failure.DIVISION ? BinaryOperator.DIV : BinaryOperator.MOD;
        Typed dividend = exprs.generate(type, scope, depth);
        yield new Typed(
            new Expr.Binary(
                op, dividend.expr(), ExprGenerator.intLiteral(0, type), ExprGenerator.AT),
            type);
      }
      case ZIP -> {
        Typed first = exprs.generate(types.zipComponent(new Dim.Const(n)), scope, depth);
        Typed second = exprs.generate(types.zipComponent(new Dim.Const(beyond)), scope, depth);
        Expr hidden = runTimeSized(second, exprs);
        boolean firstFirst = choices.percent(50);
        List<Type> parts =
            firstFirst
                ? List.of(element(first), element(second))
                : List.of(element(second), element(first));
        yield new Typed(
            new Expr.Zip(
                firstFirst ? List.of(first.expr(), hidden) : List.of(hidden, first.expr()),
                ExprGenerator.AT),
            Type.array(new Type.Tuple(parts)));
      }
      case RESHAPE -> {
        Typed array = exprs.generate(Type.array(types.scalar(), new Dim.Const(n)), scope, depth);
        yield new Typed(
            new Expr.Reshape(
                List.of(point.apply(beyond)), runTimeSized(array, exprs), ExprGenerator.AT),
            Type.array(element(array)));
      }
      case IOTA ->
          new Typed(
              new Expr.Iota(point.apply(-1 - choices.below(3)), ExprGenerator.AT),
              Type.array(ScalarType.I32));
      case REPLICATE ->
          new Typed(
              new Expr.Replicate(
                  point.apply(-1 - choices.below(3)),
                  exprs.generate(ScalarType.I32, scope, depth).expr(),
                  ExprGenerator.AT),
              Type.array(ScalarType.I32));
      case SPLIT -> {
        Typed array = exprs.generate(types.array(new Dim.Const(n)), scope, depth);
        Type part = Type.array(element(array));
        yield new Typed(
            new Expr.Split(point.apply(beyond), runTimeSized(array, exprs), ExprGenerator.AT),
            Type.tuple(part, part));
      }
    };
  }

  private static Type element(Typed array) {
    return ((Type.Array) array.type()).element();
  }

  /**
   * {@code filter(fn bool (t x) => true, a)}: the same array, with a size known only at run time.
   */
  private static Expr runTimeSized(Typed array, ExprGenerator exprs) {
    Type element = ((Type.Array) array.type()).element().erased();
    Param x = new Param(element, exprs.freshName("e"), ExprGenerator.AT);
    Expr always = new Expr.Literal(ScalarValue.bool(true), ExprGenerator.AT);
    FunArg keepAll = new FunArg.Lambda(ScalarType.BOOL, List.of(x), always, ExprGenerator.AT);
    return new Expr.Filter(keepAll, array.expr(), ExprGenerator.AT);
  }
}
