package dev.l0.syntax;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.testing.SourcePositions;
import java.util.List;

/** Terse builders of position-free expressions, for stating what the parser must produce. */
final class Ast {
  static final SourcePos NONE = SourcePos.NONE;

  private Ast() {}

  /** {@code text} parsed as an expression, positions erased. */
  static Expr parsed(String text) {
    return SourcePositions.erase(L0Parser.parseExpression(text, "test.l0"));
  }

  static Expr var(String name) {
    return new Expr.Var(name, NONE);
  }

  static Expr i32(int value) {
    return new Expr.Literal(ScalarValue.i32(value), NONE);
  }

  static Expr f64(double value) {
    return new Expr.Literal(ScalarValue.f64(value), NONE);
  }

  static Expr bin(BinaryOperator op, Expr left, Expr right) {
    return new Expr.Binary(op, left, right, NONE);
  }

  static Expr neg(Expr operand) {
    return new Expr.Unary(PrefixOperator.NEG, operand, NONE);
  }

  static Expr tuple(Expr... elements) {
    return new Expr.TupleLit(List.of(elements), NONE);
  }

  static Pattern name(String name) {
    return new Pattern.Name(name, NONE);
  }

  static Pattern tuplePattern(Pattern... elements) {
    return new Pattern.Tuple(List.of(elements), NONE);
  }
}
