package dev.l0.types;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import java.util.List;

/**
 * Typing of the scalar operators and built-in functions (thesis §2.3, "x arithop y" to "-x", and
 * dev.l0.ir.Builtin). L0 has no implicit conversions: operands must have exactly one type.
 */
final class ScalarRules {
  private ScalarRules() {}

  /** The type of {@code left op right}; errors point at the operand that does not fit. */
  static Type binary(
      BinaryOperator op, Type left, SourcePos leftPos, Type right, SourcePos rightPos) {
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
              + name(right));
    }
    return op.kind() == BinaryOperator.Kind.COMPARISON ? ScalarType.BOOL : left;
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
