package dev.l0.testing;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import java.util.ArrayList;
import java.util.List;

/**
 * An associative operator with its neutral element, as {@code reduce} and {@code scan} require
 * (thesis §2.2); at most one of {@code operator} and {@code builtin} is set ({@link #combine} says
 * what neither means). Float {@code +} and {@code *} are not associative in floating point: the
 * interpreter's left fold defines their result.
 */
record Monoid(BinaryOperator operator, Builtin builtin, Expr neutral) {
  private static final SourcePos AT = SourcePos.NONE;

  /**
   * {@code x op y}, or {@code min(x, y)} / {@code max(x, y)}, or where neither is set the rightmost
   * operand that is not the neutral element, {@code if y = ne then x else y}.
   */
  Expr combine(Expr x, Expr y) {
    if (operator != null) {
      return new Expr.Binary(operator, x, y, AT);
    }
    if (builtin != null) {
      return new Expr.Call(builtin.functionName(), List.of(x, y), AT);
    }
    return new Expr.If(new Expr.Binary(BinaryOperator.EQ, y, neutral, AT), x, y, AT);
  }

  /** The monoids on {@code type}; the simplest ({@code +}, or {@code &&}) first. */
  static List<Monoid> of(ScalarType type) {
    return switch (type) {
      case BOOL ->
          List.of(
              new Monoid(BinaryOperator.AND, null, new Expr.Literal(ScalarValue.bool(true), AT)),
              new Monoid(BinaryOperator.OR, null, new Expr.Literal(ScalarValue.bool(false), AT)));
      case F32, F64 ->
          List.of(
              new Monoid(
                  BinaryOperator.ADD, null, new Expr.Literal(new ScalarValue.Float(type, 0.0), AT)),
              new Monoid(
                  BinaryOperator.MUL,
                  null,
                  new Expr.Literal(new ScalarValue.Float(type, 1.0), AT)));
      case I32, I64 -> {
        long max = type == ScalarType.I32 ? Integer.MAX_VALUE : Long.MAX_VALUE;
        Expr negatedMax = new Expr.Unary(PrefixOperator.NEG, integer(max, type), AT);
        yield List.of(
            new Monoid(BinaryOperator.ADD, null, integer(0, type)),
            new Monoid(BinaryOperator.MUL, null, integer(1, type)),
            new Monoid(
                BinaryOperator.BAND,
                null,
                new Expr.Unary(PrefixOperator.NEG, integer(1, type), AT)),
            new Monoid(BinaryOperator.BOR, null, integer(0, type)),
            new Monoid(BinaryOperator.XOR, null, integer(0, type)),
            new Monoid(null, Builtin.MIN, integer(max, type)),
            new Monoid(
                null,
                Builtin.MAX,
                new Expr.Binary(BinaryOperator.SUB, negatedMax, integer(1, type), AT)));
      }
    };
  }

  /**
   * The monoids of {@link #of}, and for integers also the rightmost non-zero operand (associative
   * but not commutative: a backend that combines partial results out of order gets another result),
   * for floats also {@code min} and {@code max} (NaN and -0.0 decide them).
   */
  static List<Monoid> withEdges(ScalarType type) {
    List<Monoid> all = new ArrayList<>(of(type));
    if (type.isInteger()) {
      all.add(new Monoid(null, null, integer(0, type)));
      return all;
    }
    if (!type.isFloat()) {
      return all;
    }
    all.add(
        new Monoid(
            null,
            Builtin.MIN,
            new Expr.Literal(new ScalarValue.Float(type, Double.POSITIVE_INFINITY), AT)));
    all.add(
        new Monoid(
            null,
            Builtin.MAX,
            new Expr.Literal(new ScalarValue.Float(type, Double.NEGATIVE_INFINITY), AT)));
    return all;
  }

  private static Expr integer(long value, ScalarType type) {
    return new Expr.Literal(new ScalarValue.Int(type, value), AT);
  }
}
