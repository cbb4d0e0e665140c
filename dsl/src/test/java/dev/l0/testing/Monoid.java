package dev.l0.testing;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import java.util.List;

/**
 * An associative operator with its neutral element, as {@code reduce} and {@code scan} require
 * (thesis §2.2); exactly one of {@code operator} and {@code builtin} is set. Float {@code +} and
 * {@code *} are not associative in floating point: the interpreter's left fold defines their
 * result.
 */
record Monoid(BinaryOperator operator, Builtin builtin, Expr neutral) {
  private static final SourcePos AT = SourcePos.NONE;

  /** {@code x op y}, or {@code min(x, y)} / {@code max(x, y)}. */
  Expr combine(Expr x, Expr y) {
    return operator != null
        ? new Expr.Binary(operator, x, y, AT)
        : new Expr.Call(builtin.functionName(), List.of(x, y), AT);
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

  private static Expr integer(long value, ScalarType type) {
    return new Expr.Literal(new ScalarValue.Int(type, value), AT);
  }
}
