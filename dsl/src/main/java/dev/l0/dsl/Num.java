package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.SourcePos;
import java.util.ArrayList;
import java.util.List;

/**
 * A staged number of one scalar type {@code N}: arithmetic and comparison with numbers of the same
 * type only (thesis §2.3), {@code abs}/{@code min}/{@code max}, and conversions to the other types.
 *
 * @param <N> the handle class itself, so that {@code x.add(y)} needs {@code y} of the same type
 */
public abstract class Num<N extends Num<N>> extends Val {
  Num(Parts parts) {
    super(parts);
  }

  public N add(N other) {
    CallSite.nonNull("add(other)", other);
    return arithmetic(BinaryOperator.ADD, other);
  }

  public N sub(N other) {
    CallSite.nonNull("sub(other)", other);
    return arithmetic(BinaryOperator.SUB, other);
  }

  public N mul(N other) {
    CallSite.nonNull("mul(other)", other);
    return arithmetic(BinaryOperator.MUL, other);
  }

  public N div(N other) {
    CallSite.nonNull("div(other)", other);
    return arithmetic(BinaryOperator.DIV, other);
  }

  /** {@code -this}. */
  public N neg() {
    SourcePos pos = CallSite.current();
    return stage(selfType(), new Expr.Unary(PrefixOperator.NEG, use(pos), pos));
  }

  /**
   * The built-in {@code abs}; a program that defines its own {@code abs} calls that one instead.
   */
  public N abs() {
    return builtin(Builtin.ABS, selfType());
  }

  public N min(N other) {
    CallSite.nonNull("min(other)", other);
    return builtin(Builtin.MIN, selfType(), other);
  }

  public N max(N other) {
    CallSite.nonNull("max(other)", other);
    return builtin(Builtin.MAX, selfType(), other);
  }

  public Bool lt(N other) {
    CallSite.nonNull("lt(other)", other);
    return comparison(BinaryOperator.LT, other);
  }

  public Bool le(N other) {
    CallSite.nonNull("le(other)", other);
    return comparison(BinaryOperator.LEQ, other);
  }

  public Bool gt(N other) {
    CallSite.nonNull("gt(other)", other);
    return comparison(BinaryOperator.GT, other);
  }

  public Bool ge(N other) {
    CallSite.nonNull("ge(other)", other);
    return comparison(BinaryOperator.GEQ, other);
  }

  public Bool eq(N other) {
    CallSite.nonNull("eq(other)", other);
    return comparison(BinaryOperator.EQ, other);
  }

  public Bool ne(N other) {
    CallSite.nonNull("ne(other)", other);
    return comparison(BinaryOperator.NEQ, other);
  }

  public F64 toF64() {
    return builtin(Builtin.TO_F64, F64.TYPE);
  }

  public F32 toF32() {
    return builtin(Builtin.TO_F32, F32.TYPE);
  }

  /** Conversion to i32; from a float it truncates toward zero. */
  public I32 toI32() {
    return builtin(Builtin.TO_I32, I32.TYPE);
  }

  /** Conversion to i64; from a float it truncates toward zero. */
  public I64 toI64() {
    return builtin(Builtin.TO_I64, I64.TYPE);
  }

  @SuppressWarnings("unchecked")
  final ValType<N> selfType() {
    return (ValType<N>) type;
  }

  final N arithmetic(BinaryOperator op, N other) {
    SourcePos pos = CallSite.current();
    return stage(selfType(), new Expr.Binary(op, use(pos), other.use(pos), pos));
  }

  private Bool comparison(BinaryOperator op, N other) {
    SourcePos pos = CallSite.current();
    return stage(Bool.TYPE, new Expr.Binary(op, use(pos), other.use(pos), pos));
  }

  /** A call of {@code builtin} on this value and {@code more}. */
  final <R extends Val> R builtin(Builtin builtin, ValType<R> resultType, Val... more) {
    SourcePos pos = CallSite.current();
    List<Expr> args = new ArrayList<>();
    args.add(use(pos));
    for (Val arg : more) {
      args.add(arg.use(pos));
    }
    return stage(resultType, new Expr.Call(builtin.functionName(), args, pos));
  }
}
