package dev.l0.ir;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The function argument of a SOAC (thesis §2.2): an anonymous function {@code fn t (t1 x1, ...) =>
 * e}, a named function with optional curried leading arguments {@code f} / {@code f(a, b)}, or an
 * operator section {@code op +} / {@code op +(c)}.
 */
public sealed interface FunArg {
  SourcePos pos();

  /** Rebuilds this argument with {@code f} applied to each direct sub-expression. */
  FunArg mapChildren(UnaryOperator<Expr> f);

  /** The direct sub-expressions, in source order. */
  List<Expr> children();

  record Lambda(Type returnType, List<Param> params, Expr body, SourcePos pos) implements FunArg {
    public Lambda {
      params = List.copyOf(params);
    }

    @Override
    public FunArg mapChildren(UnaryOperator<Expr> f) {
      return new Lambda(returnType, params, f.apply(body), pos);
    }

    @Override
    public List<Expr> children() {
      return List.of(body);
    }
  }

  record FunctionRef(String name, List<Expr> curried, SourcePos pos) implements FunArg {
    public FunctionRef {
      curried = List.copyOf(curried);
    }

    @Override
    public FunArg mapChildren(UnaryOperator<Expr> f) {
      return new FunctionRef(name, Expr.mapAll(curried, f), pos);
    }

    @Override
    public List<Expr> children() {
      return curried;
    }
  }

  record OperatorRef(BinaryOperator operator, List<Expr> curried, SourcePos pos) implements FunArg {
    public OperatorRef {
      curried = List.copyOf(curried);
    }

    @Override
    public FunArg mapChildren(UnaryOperator<Expr> f) {
      return new OperatorRef(operator, Expr.mapAll(curried, f), pos);
    }

    @Override
    public List<Expr> children() {
      return curried;
    }
  }
}
