package dev.l0.kernels.jvm;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Java source for L0's scalar operations, each with exactly {@link
 * dev.l0.semantics.ScalarOperations}' meaning: Java's own operators where they agree (integer
 * wrap-around, masked shifts, f32 in float, {@code MIN / -1} wrapping), {@link dev.l0.math.L0Math}
 * for the math functions (StrictMath-exact), {@link JvmSupport#power} for integer powers, Java
 * casts for conversions (saturating, NaN to 0), {@code Math.min/max/abs} (NaN wins, -0.0 &lt; 0.0),
 * and booleans ordered false &lt; true. Integer division, remainder and power must be guarded by
 * the caller against the operands {@code ScalarOperations} rejects (a zero divisor, a negative
 * exponent), as the kernel IR guarantees. Float literals become {@code static final} fields built
 * from their bits, which {@link #constantFields} declares.
 */
final class JavaScalarSyntax {
  private final Map<String, String> floatFields = new LinkedHashMap<>();
  private final Map<String, String> fieldTypes = new LinkedHashMap<>();

  static String javaType(ScalarType t) {
    return switch (t) {
      case BOOL -> "boolean";
      case I32 -> "int";
      case I64 -> "long";
      case F32 -> "float";
      case F64 -> "double";
    };
  }

  /** The boxed type of {@code t}, for unboxing a scalar argument. */
  static String boxedType(ScalarType t) {
    return switch (t) {
      case BOOL -> "Boolean";
      case I32 -> "Integer";
      case I64 -> "Long";
      case F32 -> "Float";
      case F64 -> "Double";
    };
  }

  /** {@code l op r}, operands of {@code t}. */
  static String binary(BinaryOperator op, ScalarType t, String l, String r) {
    switch (op) {
      case POW:
        if (t.isInteger()) {
          return "dev.l0.kernels.jvm.JvmSupport.power(" + l + ", " + r + ")";
        }
        return "dev.l0.math.L0Math."
            + (t == ScalarType.F32 ? "powf(" : "pow(")
            + l
            + ", "
            + r
            + ")";
      case LT:
      case LEQ:
      case GT:
      case GEQ:
        if (t == ScalarType.BOOL) {
          // false < true, as ScalarOperations compares booleans
          return "((" + l + " ? 1 : 0) " + op.symbol() + " (" + r + " ? 1 : 0))";
        }
        return "(" + l + " " + op.symbol() + " " + r + ")";
      case EQ:
        return "(" + l + " == " + r + ")";
      case AND:
        return "(" + l + " && " + r + ")";
      case OR:
        return "(" + l + " || " + r + ")";
      default:
        return "(" + l + " " + javaSymbol(op) + " " + r + ")";
    }
  }

  private static String javaSymbol(BinaryOperator op) {
    return switch (op) {
      case ADD -> "+";
      case SUB -> "-";
      case MUL -> "*";
      case DIV -> "/";
      case MOD -> "%";
      case NEQ -> "!=";
      case XOR -> "^";
      case BAND -> "&";
      case BOR -> "|";
      case SHL -> "<<";
      case SHR -> ">>";
      default -> throw new IllegalArgumentException("no Java operator for " + op);
    };
  }

  /** {@code op operand}. */
  static String unary(PrefixOperator op, String operand) {
    return op == PrefixOperator.NOT ? "(!" + operand + ")" : "(-" + operand + ")";
  }

  /** Built-in {@code f} applied to {@code args}, the first of type {@code argType}. */
  static String builtin(Builtin f, ScalarType argType, List<String> args) {
    String x = args.get(0);
    return switch (f.kind()) {
      case CONVERSION -> "((" + javaType(f.conversionTarget()) + ") " + x + ")";
      case FLOAT_MATH ->
          "dev.l0.math.L0Math."
              + f.functionName()
              + (argType == ScalarType.F32 ? "f(" : "(")
              + x
              + ")";
      default ->
          f == Builtin.ABS
              ? "Math.abs(" + x + ")"
              : "Math." + f.functionName() + "(" + x + ", " + args.get(1) + ")";
    };
  }

  /**
   * A Java expression with exactly the bits of {@code v}: booleans and integers as literals, floats
   * as {@code static final} fields of the class (see {@link #constantFields}) built from their
   * bits.
   */
  String literal(ScalarValue v) {
    if (v instanceof ScalarValue.Bool b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof ScalarValue.Int i) {
      String bits = "0x" + Long.toHexString(i.value()) + "L";
      return i.type() == ScalarType.I32 ? "((int) " + bits + ")" : bits;
    }
    ScalarValue.Float f = (ScalarValue.Float) v;
    String init =
        f.type() == ScalarType.F32
            ? "Float.intBitsToFloat(" + Float.floatToRawIntBits((float) f.value()) + ")"
            : "Double.longBitsToDouble(0x"
                + Long.toHexString(Double.doubleToRawLongBits(f.value()))
                + "L)";
    String field = floatFields.get(init);
    if (field == null) {
      field = "c$" + floatFields.size();
      floatFields.put(init, field);
      fieldTypes.put(field, javaType(f.type()));
    }
    return field;
  }

  /** The declarations of the float constants {@link #literal} used. */
  String constantFields() {
    StringBuilder fields = new StringBuilder();
    floatFields.forEach(
        (init, field) ->
            fields
                .append("  private static final ")
                .append(fieldTypes.get(field))
                .append(' ')
                .append(field)
                .append(" = ")
                .append(init)
                .append(";\n"));
    return fields.toString();
  }
}
