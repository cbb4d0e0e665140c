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
    SPLIT("split");

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
    Expr failing = g.failing(failure, exprs, scope);
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
   * The failing expression. Sizes that must disagree are hidden from the type checker's static size
   * analysis behind {@link #runTimeSized}, so that the program is well typed and fails only when it
   * runs.
   */
  private Expr failing(Failure failure, ExprGenerator exprs, Scope scope) {
    int depth = 2;
    long n = types.size(1);
    long beyond = n + 1 + choices.below(3);
    return switch (failure) {
      case INDEX -> {
        Expr array =
            runTimeSized(exprs.generate(types.array(new Dim.Const(n)), scope, depth), exprs);
        yield new Expr.Index(
            array, List.of(ExprGenerator.i32(n + choices.below(3))), ExprGenerator.AT);
      }
      case DIVISION, MODULO -> {
        ScalarType type = types.integer();
        BinaryOperator op = failure == Failure.DIVISION ? BinaryOperator.DIV : BinaryOperator.MOD;
        Typed dividend = exprs.generate(type, scope, depth);
        yield new Expr.Binary(
            op, dividend.expr(), ExprGenerator.intLiteral(0, type), ExprGenerator.AT);
      }
      case ZIP -> {
        Expr first = exprs.generate(types.zipComponent(new Dim.Const(n)), scope, depth).expr();
        Expr second =
            runTimeSized(
                exprs.generate(types.zipComponent(new Dim.Const(beyond)), scope, depth), exprs);
        yield new Expr.Zip(
            choices.percent(50) ? List.of(first, second) : List.of(second, first),
            ExprGenerator.AT);
      }
      case RESHAPE -> {
        Typed array = exprs.generate(Type.array(types.scalar(), new Dim.Const(n)), scope, depth);
        yield new Expr.Reshape(
            List.of(ExprGenerator.i32(beyond)), runTimeSized(array, exprs), ExprGenerator.AT);
      }
      case SPLIT -> {
        Typed array = exprs.generate(types.array(new Dim.Const(n)), scope, depth);
        yield new Expr.Split(
            ExprGenerator.i32(beyond), runTimeSized(array, exprs), ExprGenerator.AT);
      }
    };
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
