package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.ArrayList;
import java.util.List;

/**
 * A function value of the program (thesis §2.2): a top-level function defined with {@link
 * ProgramBuilder#fun}, or an operator section {@code op +} from {@link L0#op}, possibly with
 * leading arguments already supplied (the curried {@code f(a)}). Calling it stages a call (or the
 * operator); passing it to a SOAC stages a reference to it. The common part of {@link Fn1}, {@link
 * Fn2}, {@link Fn3}. Immutable.
 *
 * @param <R> the result handle class
 */
public abstract class Fn<R extends Val> {
  /** What a function value refers to. */
  sealed interface Callee {
    /**
     * A top-level function, by name, of the program {@code program} stages, defined at {@code
     * definedAt}.
     */
    record Named(String name, Stager program, SourcePos definedAt) implements Callee {}

    /** A binary operator, {@code op +}. */
    record Operator(BinaryOperator operator) implements Callee {}
  }

  private final Callee callee;
  private final List<Val> curried;
  private final ValType<R> resultType;

  Fn(Callee callee, List<Val> curried, ValType<R> resultType) {
    this.callee = callee;
    this.curried = List.copyOf(curried);
    this.resultType = resultType;
  }

  /** The function's name; {@code op +} for an operator section. */
  public String name() {
    return callee instanceof Callee.Operator section
        ? "op " + section.operator().symbol()
        : ((Callee.Named) callee).name();
  }

  public ValType<R> resultType() {
    return resultType;
  }

  Callee callee() {
    return callee;
  }

  /** Stages {@code f(curried..., args...)}, or {@code a op b} for an operator section. */
  final R invoke(Val... args) {
    SourcePos pos = CallSite.current();
    requireThisProgram(pos);
    List<Expr> exprs = new ArrayList<>(curriedExprs(pos));
    for (Val arg : args) {
      exprs.add(arg.use(pos));
    }
    Expr call =
        callee instanceof Callee.Operator section
            ? new Expr.Binary(section.operator(), exprs.get(0), exprs.get(1), pos)
            : new Expr.Call(((Callee.Named) callee).name(), exprs, pos);
    return Val.stage(resultType, call);
  }

  /**
   * This function as a SOAC's argument: {@code f}, {@code f(curried...)} or {@code op
   * +(curried...)}.
   */
  final FunArg reference(SourcePos pos) {
    requireThisProgram(pos);
    return callee instanceof Callee.Operator section
        ? new FunArg.OperatorRef(section.operator(), curriedExprs(pos), pos)
        : new FunArg.FunctionRef(((Callee.Named) callee).name(), curriedExprs(pos), pos);
  }

  /**
   * Throws at {@code pos} where this is a function of another program than the one being staged,
   * which would otherwise call a function of its name in this one, or none.
   */
  private void requireThisProgram(SourcePos pos) {
    if (callee instanceof Callee.Named named && Stager.active(pos) != named.program()) {
      throw new L0CompileError(
          pos,
          "the function '"
              + named.name()
              + "' was defined by another L0.program (at "
              + named.definedAt()
              + "); define it in this one with fun(...)");
    }
  }

  /** The arguments supplied so far followed by {@code more}. */
  final List<Val> curriedWith(Val more) {
    List<Val> all = new ArrayList<>(curried);
    all.add(more);
    return all;
  }

  private List<Expr> curriedExprs(SourcePos pos) {
    return curried.stream().map(v -> v.use(pos)).toList();
  }
}
