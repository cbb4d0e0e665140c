package dev.l0.types;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.List;
import java.util.Optional;

/**
 * Typing of the scalar operators and built-in functions (thesis §2.3, "x arithop y" to "-x", and
 * dev.l0.ir.Builtin). L0 has no implicit conversions: operands must have exactly one type.
 */
final class ScalarRules {
  private ScalarRules() {}

  /**
   * The type of {@code left op right}; errors point at the operand that does not fit, and an error
   * for operands of two types ends with {@code hint} (empty, or {@link #literalHint}'s).
   */
  static Type binary(
      BinaryOperator op,
      Type left,
      SourcePos leftPos,
      Type right,
      SourcePos rightPos,
      String hint) {
    Category wanted =
        switch (op.kind()) {
          case ARITHMETIC -> Category.NUMERIC;
          case COMPARISON ->
              op == BinaryOperator.EQ || op == BinaryOperator.NEQ
                  ? Category.SCALAR
                  : Category.NUMERIC;
          case BITWISE -> Category.INTEGER;
          case LOGICAL -> Category.BOOL;
        };
    if (!wanted.contains(left)) {
      throw new L0CompileError(
          leftPos,
          "operator '" + op.symbol() + "' needs " + wanted + " operand, got " + name(left));
    }
    if (!right.equals(left)) {
      throw new L0CompileError(
          rightPos,
          "operator '"
              + op.symbol()
              + "' needs operands of one type, got "
              + name(left)
              + " and "
              + name(right)
              + hint);
    }
    return op.kind() == BinaryOperator.Kind.COMPARISON ? ScalarType.BOOL : left;
  }

  /**
   * For operands of two numeric types where exactly one is a number literal that the other's type
   * can write, how to write it so (L0 converts nothing implicitly, but a literal takes a type
   * suffix): {@code " (write the literal as 1i64 to make it an i64)"} for {@code cents + 1} with
   * {@code cents : i64}, {@code 2.0} for {@code 2 * x} with {@code x : f64}; else empty.
   */
  static String literalHint(Expr left, Type leftType, Expr right, Type rightType) {
    boolean leftIsLiteral = left instanceof Expr.Literal;
    Type otherType = leftIsLiteral ? rightType : leftType;
    if (leftIsLiteral == right instanceof Expr.Literal
        || !(otherType instanceof ScalarType target)) {
      return "";
    }
    Expr.Literal literal = (Expr.Literal) (leftIsLiteral ? left : right);
    return asLiteralOf(literal.value(), target)
        .map(
            value ->
                " (write the literal as "
                    + L0Printer.print(new Expr.Literal(value, literal.pos()))
                    + " to make it an "
                    + name(target)
                    + ")")
        .orElse("");
  }

  /** {@code value} as a literal of {@code target}, where that keeps an integer's value. */
  private static Optional<ScalarValue> asLiteralOf(ScalarValue value, ScalarType target) {
    boolean fitsTarget =
        switch (target) {
          case I32 ->
              value instanceof ScalarValue.Int i
                  && i.value() >= Integer.MIN_VALUE
                  && i.value() <= Integer.MAX_VALUE;
          case I64 -> value instanceof ScalarValue.Int;
          case F32, F64 -> value instanceof ScalarValue.Int || value instanceof ScalarValue.Float;
          default -> false;
        };
    if (!fitsTarget) {
      return Optional.empty();
    }
    if (value instanceof ScalarValue.Int i) {
      return Optional.of(
          target.isFloat()
              ? new ScalarValue.Float(target, floatIn(target, i.value()))
              : new ScalarValue.Int(target, i.value()));
    }
    return Optional.of(
        new ScalarValue.Float(target, floatIn(target, ((ScalarValue.Float) value).value())));
  }

  /** {@code v} rounded to {@code target}'s precision. */
  private static double floatIn(ScalarType target, double v) {
    return target == ScalarType.F32 ? (float) v : v;
  }

  /** The type of {@code -e} or {@code not e}. */
  static Type unary(PrefixOperator op, Type operand, SourcePos operandPos) {
    Category wanted = op == PrefixOperator.NEG ? Category.NUMERIC : Category.BOOL;
    if (!wanted.contains(operand)) {
      throw new L0CompileError(
          operandPos,
          "operator '" + op.symbol() + "' needs " + wanted + " operand, got " + name(operand));
    }
    return operand;
  }

  /** The result type of calling {@code builtin} on arguments of {@code args} types. */
  static Type builtin(
      Builtin builtin, List<Type> args, List<SourcePos> argPositions, SourcePos callPos) {
    String fn = "function '" + builtin.functionName() + "'";
    checkArity(fn, builtin.arity(), args.size(), callPos);
    Category wanted = builtin.kind() == Builtin.Kind.FLOAT_MATH ? Category.FLOAT : Category.NUMERIC;
    Type first = args.get(0);
    if (!wanted.contains(first)) {
      throw new L0CompileError(
          argPositions.get(0), fn + " needs " + wanted + " argument, got " + name(first));
    }
    for (int i = 1; i < args.size(); i++) {
      if (!args.get(i).equals(first)) {
        throw new L0CompileError(
            argPositions.get(i),
            fn + " needs arguments of one type, got " + name(first) + " and " + name(args.get(i)));
      }
    }
    return builtin.kind() == Builtin.Kind.CONVERSION ? builtin.conversionTarget() : first;
  }

  /** Fails with "function 'f' expects 3 arguments, got 2" unless {@code actual == expected}. */
  static void checkArity(String what, int expected, int actual, SourcePos pos) {
    if (expected != actual) {
      throw new L0CompileError(
          pos,
          what
              + " expects "
              + expected
              + (expected == 1 ? " argument" : " arguments")
              + ", got "
              + actual);
    }
  }

  /** Whether {@code t} is an i32 or i64. */
  static boolean isIndex(Type t) {
    return t instanceof ScalarType s && s.isInteger();
  }

  /** How messages write a type. */
  static String name(Type t) {
    return L0Printer.print(t);
  }

  /** The operand types an operator or built-in accepts. */
  private enum Category {
    SCALAR("a scalar"),
    NUMERIC("a numeric"),
    INTEGER("an integer"),
    FLOAT("an f32 or f64"),
    BOOL("a bool");

    private final String description;

    Category(String description) {
      this.description = description;
    }

    boolean contains(Type t) {
      if (!(t instanceof ScalarType s)) {
        return false;
      }
      return switch (this) {
        case SCALAR -> true;
        case NUMERIC -> s.isNumeric();
        case INTEGER -> s.isInteger();
        case FLOAT -> s.isFloat();
        case BOOL -> s == ScalarType.BOOL;
      };
    }

    @Override
    public String toString() {
      return description;
    }
  }
}
