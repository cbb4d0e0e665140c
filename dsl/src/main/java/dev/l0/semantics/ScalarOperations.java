package dev.l0.semantics;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.math.L0Math;
import java.util.List;

/**
 * Operators and built-in functions on scalars (thesis §2.3, with
 * shared/notes/l0-language-decisions.md). Integers wrap around at their type's width; {@code /} and
 * {@code %} truncate toward zero and fail on a zero divisor; shifts mask their count as Java does;
 * integer {@code pow} multiplies with wrap-around and fails on a negative exponent. {@code f32}
 * arithmetic is done in {@code float}, {@code f64} in {@code double}, with IEEE division by zero;
 * math functions are {@link L0Math}'s. Conversions from float to integer truncate toward zero as
 * Java's casts do: NaN gives 0 and out-of-range values saturate at the type's minimum or maximum.
 * Integer to float rounds to nearest. Float {@code min}/{@code max} are Java's {@code
 * Math.min}/{@code Math.max}: NaN if either operand is NaN, and -0.0 &lt; 0.0.
 *
 * <p>The reference interpreter, the optimiser's evaluator and its constant folding all compute with
 * this class, so a folded or optimised program cannot drift from the reference. Operands are taken
 * as {@link Value}s: one of the wrong kind (an ill-typed program) is an {@link L0CompileError}.
 */
public final class ScalarOperations {
  private ScalarOperations() {}

  public static ScalarValue binary(BinaryOperator op, Value left, Value right, SourcePos pos) {
    switch (op.kind()) {
      case LOGICAL:
        boolean l = Operands.bool(left, pos);
        boolean r = Operands.bool(right, pos);
        return ScalarValue.bool(op == BinaryOperator.AND ? l && r : l || r);
      case COMPARISON:
        return ScalarValue.bool(compare(op, left, right, pos));
      default:
        if (left instanceof ScalarValue.Float f) {
          if (op.kind() == BinaryOperator.Kind.BITWISE) {
            throw Operands.illTyped(pos, "an integer", left);
          }
          return floatArithmetic(op, f, Operands.real(right, pos));
        }
        return integerArithmetic(
            op, Operands.integer(left, pos), Operands.integer(right, pos), pos);
    }
  }

  private static ScalarValue integerArithmetic(
      BinaryOperator op, ScalarValue.Int left, ScalarValue.Int right, SourcePos pos) {
    ScalarType type = left.type();
    long a = left.value();
    long b = right.value();
    boolean narrow = type == ScalarType.I32;
    // Computing in long and then narrowing (the Int constructor) wraps exactly as 32-bit
    // arithmetic does for + - * / % & | ^ and pow; only the shifts depend on the width.
    long result;
    switch (op) {
      case ADD:
        result = a + b;
        break;
      case SUB:
        result = a - b;
        break;
      case MUL:
        result = a * b;
        break;
      case DIV:
        result = a / nonZero(op, b, pos);
        break;
      case MOD:
        result = a % nonZero(op, b, pos);
        break;
      case POW:
        result = integerPower(a, b, pos);
        break;
      case BAND:
        result = a & b;
        break;
      case BOR:
        result = a | b;
        break;
      case XOR:
        result = a ^ b;
        break;
      case SHL:
        result = narrow ? (int) a << b : a << b;
        break;
      case SHR:
        result = narrow ? (int) a >> b : a >> b;
        break;
      default:
        throw new L0CompileError(pos, "ill-typed program: " + op.symbol() + " on integers");
    }
    return new ScalarValue.Int(type, result);
  }

  private static long nonZero(BinaryOperator op, long divisor, SourcePos pos) {
    if (divisor == 0) {
      throw new L0RuntimeError(op.symbol(), pos, "integer division by zero");
    }
    return divisor;
  }

  /**
   * {@code base} multiplied by itself {@code exponent} times, wrapping around (by squaring, which
   * gives the same bits).
   */
  private static long integerPower(long base, long exponent, SourcePos pos) {
    if (exponent < 0) {
      throw new L0RuntimeError(
          "pow", pos, FailureDetails.format(FailureDetails.NEGATIVE_EXPONENT, exponent));
    }
    return wrappingPower(base, exponent);
  }

  /**
   * {@code base} to the non-negative {@code exponent}, wrapping around at 64 bits (by squaring);
   * its low 32 bits are the {@code i32} power of the low 32 bits of {@code base}. What integer
   * {@code pow} computes once its exponent is checked, also in the JVM backend's kernels.
   */
  public static long wrappingPower(long base, long exponent) {
    long result = 1;
    long square = base;
    for (long e = exponent; e != 0; e >>>= 1) {
      if ((e & 1) != 0) {
        result *= square;
      }
      square *= square;
    }
    return result;
  }

  private static ScalarValue floatArithmetic(
      BinaryOperator op, ScalarValue.Float left, ScalarValue.Float right) {
    if (left.type() == ScalarType.F32) {
      float a = (float) left.value();
      float b = (float) right.value();
      float result;
      switch (op) {
        case ADD:
          result = a + b;
          break;
        case SUB:
          result = a - b;
          break;
        case MUL:
          result = a * b;
          break;
        case DIV:
          result = a / b;
          break;
        case MOD:
          result = a % b;
          break;
        default:
          result = L0Math.powf(a, b);
          break;
      }
      return ScalarValue.f32(result);
    }
    double a = left.value();
    double b = right.value();
    double result;
    switch (op) {
      case ADD:
        result = a + b;
        break;
      case SUB:
        result = a - b;
        break;
      case MUL:
        result = a * b;
        break;
      case DIV:
        result = a / b;
        break;
      case MOD:
        result = a % b;
        break;
      default:
        result = L0Math.pow(a, b);
        break;
    }
    return ScalarValue.f64(result);
  }

  /**
   * Floats compare as IEEE does (NaN is unordered and unequal to itself); bools as false &lt; true.
   */
  private static boolean compare(BinaryOperator op, Value left, Value right, SourcePos pos) {
    if (left instanceof ScalarValue.Float f) {
      double a = f.value();
      double b = Operands.real(right, pos).value();
      switch (op) {
        case EQ:
          return a == b;
        case NEQ:
          return a != b;
        case LT:
          return a < b;
        case LEQ:
          return a <= b;
        case GT:
          return a > b;
        default:
          return a >= b;
      }
    }
    int c =
        left instanceof ScalarValue.Bool
            ? Boolean.compare(Operands.bool(left, pos), Operands.bool(right, pos))
            : Long.compare(
                Operands.integer(left, pos).value(), Operands.integer(right, pos).value());
    switch (op) {
      case EQ:
        return c == 0;
      case NEQ:
        return c != 0;
      case LT:
        return c < 0;
      case LEQ:
        return c <= 0;
      case GT:
        return c > 0;
      default:
        return c >= 0;
    }
  }

  public static ScalarValue unary(PrefixOperator op, Value operand, SourcePos pos) {
    if (op == PrefixOperator.NOT) {
      return ScalarValue.bool(!Operands.bool(operand, pos));
    }
    if (operand instanceof ScalarValue.Float f) {
      return new ScalarValue.Float(f.type(), -f.value());
    }
    ScalarValue.Int i = Operands.integer(operand, pos);
    return new ScalarValue.Int(i.type(), -i.value());
  }

  public static ScalarValue builtin(Builtin function, List<? extends Value> args, SourcePos pos) {
    if (args.size() != function.arity()) {
      throw new L0CompileError(
          pos,
          "ill-typed program: "
              + function.functionName()
              + " takes "
              + function.arity()
              + " argument(s), given "
              + args.size());
    }
    Value x = args.get(0);
    switch (function.kind()) {
      case CONVERSION:
        return convert(x, function.conversionTarget(), pos);
      case FLOAT_MATH:
        return floatMath(function, Operands.real(x, pos));
      default:
        return numeric(function, x, function == Builtin.ABS ? x : args.get(1), pos);
    }
  }

  private static ScalarValue floatMath(Builtin function, ScalarValue.Float x) {
    if (x.type() == ScalarType.F32) {
      float v = (float) x.value();
      switch (function) {
        case EXP:
          return ScalarValue.f32(L0Math.expf(v));
        case LOG:
          return ScalarValue.f32(L0Math.logf(v));
        case SQRT:
          return ScalarValue.f32(L0Math.sqrtf(v));
        case SIN:
          return ScalarValue.f32(L0Math.sinf(v));
        case COS:
          return ScalarValue.f32(L0Math.cosf(v));
        case ERF:
          return ScalarValue.f32(L0Math.erff(v));
        default:
          return ScalarValue.f32(L0Math.floorf(v));
      }
    }
    double v = x.value();
    switch (function) {
      case EXP:
        return ScalarValue.f64(L0Math.exp(v));
      case LOG:
        return ScalarValue.f64(L0Math.log(v));
      case SQRT:
        return ScalarValue.f64(L0Math.sqrt(v));
      case SIN:
        return ScalarValue.f64(L0Math.sin(v));
      case COS:
        return ScalarValue.f64(L0Math.cos(v));
      case ERF:
        return ScalarValue.f64(L0Math.erf(v));
      default:
        return ScalarValue.f64(L0Math.floor(v));
    }
  }

  /** {@code abs(x)} (then {@code y} is {@code x}), {@code min(x, y)} or {@code max(x, y)}. */
  private static ScalarValue numeric(Builtin function, Value x, Value y, SourcePos pos) {
    if (x instanceof ScalarValue.Float f) {
      double a = f.value();
      double b = Operands.real(y, pos).value();
      double result =
          function == Builtin.ABS
              ? Math.abs(a)
              : function == Builtin.MIN ? Math.min(a, b) : Math.max(a, b);
      return new ScalarValue.Float(f.type(), result);
    }
    ScalarValue.Int i = Operands.integer(x, pos);
    long a = i.value();
    long b = Operands.integer(y, pos).value();
    // abs of the most negative value wraps to itself, as negation does (narrowing does it for i32).
    long result =
        function == Builtin.ABS
            ? Math.abs(a)
            : function == Builtin.MIN ? Math.min(a, b) : Math.max(a, b);
    return new ScalarValue.Int(i.type(), result);
  }

  private static ScalarValue convert(Value x, ScalarType target, SourcePos pos) {
    if (x instanceof ScalarValue.Float f) {
      double v = f.value();
      switch (target) {
        case I32:
          return ScalarValue.i32((int) v);
        case I64:
          return ScalarValue.i64((long) v);
        case F32:
          return ScalarValue.f32((float) v);
        default:
          return ScalarValue.f64(v);
      }
    }
    ScalarValue.Int i = Operands.integer(x, pos);
    long v = i.value();
    switch (target) {
      case I32:
        return new ScalarValue.Int(ScalarType.I32, v);
      case I64:
        return ScalarValue.i64(v);
      case F32:
        return ScalarValue.f32((float) v);
      default:
        return ScalarValue.f64((double) v);
    }
  }
}
