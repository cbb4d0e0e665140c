package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The entry point of the Java DSL: {@link #program} and the L0 constructs that are not methods of a
 * handle: literals, {@code let}, {@code if}, {@code loop}, the SOACs (thesis §2.2) and the array
 * built-ins (thesis §2.3). Meant to be imported statically. Every construct is staged at the user's
 * calling line (see the package documentation).
 */
public final class L0 {
  private L0() {}

  /**
   * Stages a program: {@code definitions} defines its functions with {@link ProgramBuilder#fun}.
   */
  public static Program program(Consumer<ProgramBuilder> definitions) {
    CallSite.nonNull("program(definitions)", definitions);
    SourcePos pos = CallSite.current();
    return Stager.stage(
        pos,
        stager -> {
          ProgramBuilder builder = new ProgramBuilder(stager);
          definitions.accept(builder);
          builder.checkDeclaredCalls();
        });
  }

  // ---- literals ----

  public static F64 f64(double value) {
    return literal(F64.TYPE, ScalarValue.f64(value));
  }

  public static F32 f32(float value) {
    return literal(F32.TYPE, ScalarValue.f32(value));
  }

  public static I32 i32(int value) {
    return literal(I32.TYPE, ScalarValue.i32(value));
  }

  public static I64 i64(long value) {
    return literal(I64.TYPE, ScalarValue.i64(value));
  }

  public static Bool bool(boolean value) {
    return literal(Bool.TYPE, ScalarValue.bool(value));
  }

  private static <V extends Val> V literal(ValType<V> type, ScalarValue value) {
    return type.wrap(new Expr.Literal(value, CallSite.current()), null);
  }

  /** The array literal {@code [first, rest...]}. */
  @SafeVarargs
  public static <T extends Val> Arr<T> array(T first, T... rest) {
    CallSite.nonNull("array(first, rest)", first, rest);
    SourcePos pos = CallSite.current();
    List<Expr> elements = new ArrayList<>();
    elements.add(first.use(pos));
    for (T element : rest) {
      elements.add(element.use(pos));
    }
    return Val.stage(Arr.ofElements(Val.typeOf(first)), new Expr.ArrayLit(elements, pos));
  }

  // ---- tuples ----

  public static <A extends Val, B extends Val> Tup2<A, B> tuple(A a, B b) {
    CallSite.nonNull("tuple(a, b)", a, b);
    return Tup2.of(Val.typeOf(a), Val.typeOf(b)).assemble(List.of(a, b), CallSite.current());
  }

  public static <A extends Val, B extends Val, C extends Val> Tup3<A, B, C> tuple(A a, B b, C c) {
    CallSite.nonNull("tuple(a, b, c)", a, b, c);
    return Tup3.of(Val.typeOf(a), Val.typeOf(b), Val.typeOf(c))
        .assemble(List.of(a, b, c), CallSite.current());
  }

  public static <A extends Val, B extends Val, C extends Val, D extends Val> Tup4<A, B, C, D> tuple(
      A a, B b, C c, D d) {
    CallSite.nonNull("tuple(a, b, c, d)", a, b, c, d);
    return Tup4.of(Val.typeOf(a), Val.typeOf(b), Val.typeOf(c), Val.typeOf(d))
        .assemble(List.of(a, b, c, d), CallSite.current());
  }

  public static <A extends Val, B extends Val, C extends Val, D extends Val, E extends Val>
      Tup5<A, B, C, D, E> tuple(A a, B b, C c, D d, E e) {
    CallSite.nonNull("tuple(a, b, c, d, e)", a, b, c, d, e);
    return Tup5.of(Val.typeOf(a), Val.typeOf(b), Val.typeOf(c), Val.typeOf(d), Val.typeOf(e))
        .assemble(List.of(a, b, c, d, e), CallSite.current());
  }

  public static <
          A extends Val, B extends Val, C extends Val, D extends Val, E extends Val, F extends Val>
      Tup6<A, B, C, D, E, F> tuple(A a, B b, C c, D d, E e, F f) {
    CallSite.nonNull("tuple(a, b, c, d, e, f)", a, b, c, d, e, f);
    return Tup6.of(
            Val.typeOf(a),
            Val.typeOf(b),
            Val.typeOf(c),
            Val.typeOf(d),
            Val.typeOf(e),
            Val.typeOf(f))
        .assemble(List.of(a, b, c, d, e, f), CallSite.current());
  }

  /**
   * The tuple of seven or more values (fewer make a {@code Tup2} ... {@code Tup6}); its components
   * are read with {@link TupN#get}.
   */
  public static TupN tuple(Val a, Val b, Val c, Val d, Val e, Val f, Val g, Val... more) {
    CallSite.nonNull("tuple(a, b, c, d, e, f, g, more)", a, b, c, d, e, f, g, more);
    List<Val> parts = new ArrayList<>(List.of(a, b, c, d, e, f, g));
    parts.addAll(List.of(more));
    return TupN.of(parts.stream().<ValType<?>>map(Val::typeOf).toList())
        .assemble(parts, CallSite.current());
  }

  // ---- bindings and control ----

  /**
   * {@code let v = value in ...}: binds {@code value} to a variable here, whether used once or not.
   */
  public static <V extends Val> V let(V value) {
    CallSite.nonNull("let(value)", value);
    return bindNamed("v", value, CallSite.current());
  }

  /**
   * {@code let name_N = value in ...}, the variable named after {@code name} (letters, digits and
   * underscores) with a suffix that keeps it unique. A tuple is bound with a tuple pattern {@code
   * let {name_N, ...} = value}.
   */
  public static <V extends Val> V let(String name, V value) {
    CallSite.nonNull("let(name, value)", name, value);
    SourcePos pos = CallSite.current();
    if (!Names.isStem(name)) {
      throw new L0CompileError(
          pos,
          "a let name must be letters, digits and underscores, starting with a letter: " + name);
    }
    return bindNamed(name, value, pos);
  }

  private static <V extends Val> V bindNamed(String name, V value, SourcePos pos) {
    Stager stager = Stager.active(pos);
    ValType<V> type = Val.typeOf(value);
    Expr bound = value.use(pos);
    Pattern pattern = stager.freshPattern(type, name, pos, Optional.empty());
    stager.bind(new Statement.Binding(pattern, bound, pos));
    return Stager.handleOf(pattern, type, stager.currentBlock(pos));
  }

  /** {@code if condition then then() else otherwise()}; each branch is staged in its own block. */
  public static <V extends Val> V ifThenElse(
      Bool condition, Supplier<V> then, Supplier<V> otherwise) {
    CallSite.nonNull("ifThenElse(condition, then, otherwise)", condition, then, otherwise);
    SourcePos pos = CallSite.current();
    Stager stager = Stager.active(pos);
    Expr test = condition.use(pos);
    Stager.Staged<V> yes = stager.nested(pos, then);
    Stager.Staged<V> no = stager.nested(pos, otherwise);
    return Val.stage(yes.type(), new Expr.If(test, yes.expr(), no.expr(), pos));
  }

  /**
   * {@code loop (acc = init) = for i < count do step(acc, i) in ...} (thesis §2.1.1): the value
   * after {@code count} steps.
   */
  public static <V extends Val> V loop(V init, I32 count, BiFunction<V, I32, V> step) {
    CallSite.nonNull("loop(init, count, step)", init, count, step);
    SourcePos pos = CallSite.current();
    return Stager.active(pos).loop(pos, init, count, step);
  }

  // ---- SOACs ----

  /** {@code map(fn (x) => f(x), xs)}. */
  public static <T extends Val, R extends Val> Arr<R> map(Arr<T> xs, Function<T, R> f) {
    CallSite.nonNull("map(xs, f)", xs, f);
    return mapLambda(xs, List.of(xs.elementType()), ps -> f.apply(Val.narrow(ps.get(0))));
  }

  /** {@code map(fn (a, b) => f(a, b), xs)} over an array of pairs, such as a {@link #zip}. */
  public static <A extends Val, B extends Val, R extends Val> Arr<R> map(
      Arr<Tup2<A, B>> xs, BiFunction<A, B, R> f) {
    CallSite.nonNull("map(xs, f)", xs, f);
    return mapLambda(
        xs,
        xs.elementType().components(),
        ps -> f.apply(Val.narrow(ps.get(0)), Val.narrow(ps.get(1))));
  }

  /** {@code map(fn (a, b, c) => f(a, b, c), xs)} over an array of triples. */
  public static <A extends Val, B extends Val, C extends Val, R extends Val> Arr<R> map(
      Arr<Tup3<A, B, C>> xs, Function3<A, B, C, R> f) {
    CallSite.nonNull("map(xs, f)", xs, f);
    return mapLambda(
        xs,
        xs.elementType().components(),
        ps -> f.apply(Val.narrow(ps.get(0)), Val.narrow(ps.get(1)), Val.narrow(ps.get(2))));
  }

  /** {@code map} of an anonymous function with parameters {@code params} over {@code xs}. */
  private static <R extends Val> Arr<R> mapLambda(
      Arr<?> xs, List<ValType<?>> params, Function<List<Val>, R> body) {
    SourcePos pos = CallSite.current();
    Stager.StagedFunction<R> fn = Stager.active(pos).lambda(pos, params, body);
    return map(xs, lambda(fn, pos), fn.resultType(), pos);
  }

  /** {@code map(f, xs)} with a named (possibly curried) function. */
  public static <T extends Val, R extends Val> Arr<R> map(Arr<T> xs, Fn1<T, R> f) {
    CallSite.nonNull("map(xs, f)", xs, f);
    SourcePos pos = CallSite.current();
    return map(xs, f.reference(pos), f.resultType(), pos);
  }

  /** {@code map(f, xs)} with a named two-parameter function over an array of pairs. */
  public static <A extends Val, B extends Val, R extends Val> Arr<R> map(
      Arr<Tup2<A, B>> xs, Fn2<A, B, R> f) {
    CallSite.nonNull("map(xs, f)", xs, f);
    SourcePos pos = CallSite.current();
    return map(xs, f.reference(pos), f.resultType(), pos);
  }

  private static <R extends Val> Arr<R> map(
      Arr<?> xs, FunArg f, ValType<R> resultType, SourcePos pos) {
    return Val.stage(Arr.ofElements(resultType), new Expr.Map(f, xs.use(pos), pos));
  }

  /** {@code filter(fn (x) => keep(x), xs)}: the elements for which {@code keep} holds, in order. */
  public static <T extends Val> Arr<T> filter(Arr<T> xs, Function<T, Bool> keep) {
    CallSite.nonNull("filter(xs, keep)", xs, keep);
    SourcePos pos = CallSite.current();
    Stager.StagedFunction<Bool> fn =
        Stager.active(pos)
            .lambda(pos, List.of(xs.elementType()), ps -> keep.apply(Val.narrow(ps.get(0))));
    return Val.stage(Arr.of(xs.elementType()), new Expr.Filter(lambda(fn, pos), xs.use(pos), pos));
  }

  /**
   * {@code reduce(fn (a, b) => op(a, b), neutral, xs)}; {@code op} must be associative with neutral
   * element {@code neutral}.
   */
  public static <T extends Val> T reduce(
      Arr<T> xs, T neutral, java.util.function.BinaryOperator<T> op) {
    CallSite.nonNull("reduce(xs, neutral, op)", xs, neutral, op);
    SourcePos pos = CallSite.current();
    return reduce(xs, neutral, binaryLambda(xs, op, pos), pos);
  }

  /** {@code reduce(f, neutral, xs)} with a named function. */
  public static <T extends Val> T reduce(Arr<T> xs, T neutral, Fn2<T, T, T> op) {
    CallSite.nonNull("reduce(xs, neutral, op)", xs, neutral, op);
    SourcePos pos = CallSite.current();
    return reduce(xs, neutral, op.reference(pos), pos);
  }

  private static <T extends Val> T reduce(Arr<T> xs, T neutral, FunArg op, SourcePos pos) {
    return Val.stage(xs.elementType(), new Expr.Reduce(op, neutral.use(pos), xs.use(pos), pos));
  }

  /** The inclusive {@code scan(fn (a, b) => op(a, b), neutral, xs)}. */
  public static <T extends Val> Arr<T> scan(
      Arr<T> xs, T neutral, java.util.function.BinaryOperator<T> op) {
    CallSite.nonNull("scan(xs, neutral, op)", xs, neutral, op);
    SourcePos pos = CallSite.current();
    return scan(xs, neutral, binaryLambda(xs, op, pos), pos);
  }

  /** The inclusive {@code scan(f, neutral, xs)} with a named function. */
  public static <T extends Val> Arr<T> scan(Arr<T> xs, T neutral, Fn2<T, T, T> op) {
    CallSite.nonNull("scan(xs, neutral, op)", xs, neutral, op);
    SourcePos pos = CallSite.current();
    return scan(xs, neutral, op.reference(pos), pos);
  }

  private static <T extends Val> Arr<T> scan(Arr<T> xs, T neutral, FunArg op, SourcePos pos) {
    return Val.stage(
        Arr.of(xs.elementType()), new Expr.Scan(op, neutral.use(pos), xs.use(pos), pos));
  }

  private static <T extends Val> FunArg binaryLambda(
      Arr<T> xs, java.util.function.BinaryOperator<T> op, SourcePos pos) {
    ValType<T> element = xs.elementType();
    Stager.StagedFunction<T> fn =
        Stager.active(pos)
            .lambda(
                pos,
                List.of(element, element),
                ps -> op.apply(Val.narrow(ps.get(0)), Val.narrow(ps.get(1))));
    return lambda(fn, pos);
  }

  private static FunArg lambda(Stager.StagedFunction<?> fn, SourcePos pos) {
    return new FunArg.Lambda(fn.resultType().l0Type(), fn.params(), fn.body(), pos);
  }

  /**
   * The operator section {@code op +} (thesis §2.2) as a function of two numbers of {@code type},
   * e.g. {@code reduce(xs, i32(0), op(BinaryOperator.ADD, I32.TYPE))}. Arithmetic and bitwise
   * operators only: the others do not return their operands' type.
   */
  public static <N extends Num<N>> Fn2<N, N, N> op(BinaryOperator operator, ValType<N> type) {
    CallSite.nonNull("op(operator, type)", operator, type);
    BinaryOperator.Kind kind = operator.kind();
    if (kind != BinaryOperator.Kind.ARITHMETIC && kind != BinaryOperator.Kind.BITWISE) {
      throw CallSite.error(
          "op " + operator.symbol() + " does not return its operands' type; use a lambda");
    }
    return new Fn2<>(new Fn.Callee.Operator(operator), List.of(), type);
  }

  // ---- array built-ins ----

  public static <A extends Val, B extends Val> Arr<Tup2<A, B>> zip(Arr<A> as, Arr<B> bs) {
    CallSite.nonNull("zip(as, bs)", as, bs);
    SourcePos pos = CallSite.current();
    return Val.stage(
        Arr.of(Tup2.of(as.elementType(), bs.elementType())),
        new Expr.Zip(List.of(as.use(pos), bs.use(pos)), pos));
  }

  public static <A extends Val, B extends Val, C extends Val> Arr<Tup3<A, B, C>> zip(
      Arr<A> as, Arr<B> bs, Arr<C> cs) {
    CallSite.nonNull("zip(as, bs, cs)", as, bs, cs);
    SourcePos pos = CallSite.current();
    return Val.stage(
        Arr.of(Tup3.of(as.elementType(), bs.elementType(), cs.elementType())),
        new Expr.Zip(List.of(as.use(pos), bs.use(pos), cs.use(pos)), pos));
  }

  public static <A extends Val, B extends Val> Tup2<Arr<A>, Arr<B>> unzip(Arr<Tup2<A, B>> pairs) {
    CallSite.nonNull("unzip(pairs)", pairs);
    SourcePos pos = CallSite.current();
    ValType<Tup2<A, B>> element = pairs.elementType();
    ValType<A> a = element.component(0);
    ValType<B> b = element.component(1);
    return Val.stage(
        Tup2.of(Arr.ofElements(a), Arr.ofElements(b)), new Expr.Unzip(pairs.use(pos), pos));
  }

  public static <A extends Val, B extends Val, C extends Val> Tup3<Arr<A>, Arr<B>, Arr<C>> unzip3(
      Arr<Tup3<A, B, C>> triples) {
    CallSite.nonNull("unzip3(triples)", triples);
    SourcePos pos = CallSite.current();
    ValType<Tup3<A, B, C>> element = triples.elementType();
    ValType<A> a = element.component(0);
    ValType<B> b = element.component(1);
    ValType<C> c = element.component(2);
    return Val.stage(
        Tup3.of(Arr.ofElements(a), Arr.ofElements(b), Arr.ofElements(c)),
        new Expr.Unzip(triples.use(pos), pos));
  }

  /** {@code iota(n)} = {@code [0, ..., n-1]}. */
  public static Arr<I32> iota(I32 n) {
    CallSite.nonNull("iota(n)", n);
    SourcePos pos = CallSite.current();
    return Val.stage(Arr.of(I32.TYPE), new Expr.Iota(n.use(pos), pos));
  }

  /** {@code replicate(n, value)}: an array of {@code n} copies of {@code value}. */
  public static <T extends Val> Arr<T> replicate(I32 n, T value) {
    CallSite.nonNull("replicate(n, value)", n, value);
    SourcePos pos = CallSite.current();
    return Val.stage(
        Arr.ofElements(Val.typeOf(value)), new Expr.Replicate(n.use(pos), value.use(pos), pos));
  }

  /** {@code concat(a, b)}. */
  public static <T extends Val> Arr<T> concat(Arr<T> a, Arr<T> b) {
    CallSite.nonNull("concat(a, b)", a, b);
    SourcePos pos = CallSite.current();
    return Val.stage(Arr.of(a.elementType()), new Expr.Concat(a.use(pos), b.use(pos), pos));
  }

  /** {@code split(n, a)} = {@code {a[0..n-1], a[n..]}}. */
  public static <T extends Val> Tup2<Arr<T>, Arr<T>> split(I32 n, Arr<T> a) {
    CallSite.nonNull("split(n, a)", n, a);
    SourcePos pos = CallSite.current();
    ValType<Arr<T>> part = Arr.of(a.elementType());
    return Val.stage(Tup2.of(part, part), new Expr.Split(n.use(pos), a.use(pos), pos));
  }

  /** {@code transpose(a)}: rows become columns. */
  public static <T extends Val> Arr<Arr<T>> transpose(Arr<Arr<T>> a) {
    CallSite.nonNull("transpose(a)", a);
    SourcePos pos = CallSite.current();
    return Val.stage(Arr.of(a.elementType()), new Expr.Transpose(0, 1, a.use(pos), pos));
  }

  /** {@code copy(value)}: a fresh copy, unique (thesis ch. 3), e.g. to update in place. */
  public static <V extends Val> V copy(V value) {
    CallSite.nonNull("copy(value)", value);
    SourcePos pos = CallSite.current();
    return Val.stage(Val.typeOf(value), new Expr.Copy(value.use(pos), pos));
  }
}
