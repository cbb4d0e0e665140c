package dev.l0.opt.eval;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.UnaryOperator;
import dev.l0.math.L0Math;
import java.util.List;

/**
 * Scalar operators and built-ins with exactly the reference interpreter's results (thesis §2.3 and
 * shared/notes/l0-language-decisions.md): integers wrap at their width, {@code /} and {@code %}
 * truncate and fail on zero, shifts mask as Java does, integer {@code pow} fails on a negative
 * exponent, {@code f32} is computed in {@code float}, math is {@link L0Math}'s. Used by the
 * evaluator and by constant folding, so folding can never change a result. It repeats the
 * interpreter's package-private {@code dev.l0.interp.ScalarOperations} on typed scalars; once that
 * class is public, this one should delegate to it.
 */
public final class ScalarSemantics {
  private ScalarSemantics() {}

  public static ScalarValue binary(BinaryOperator op, ScalarValue left, ScalarValue right, SourcePos pos) {
    switch (op.kind()) {
      case LOGICAL: {
        boolean l = ((ScalarValue.Bool) left).value();
        boolean r = ((ScalarValue.Bool) right).value();
        return ScalarValue.bool(op == BinaryOperator.AND ? l && r : l || r);
      }
      case COMPARISON:
        return ScalarValue.bool(compare(op, left, right));
      default:
        if (left instanceof ScalarValue.Float f) {
          return floatArithmetic(op, f, (ScalarValue.Float) right);
        }
        return integerArithmetic(op, (ScalarValue.Int) left, (ScalarValue.Int) right, pos);
    }
  }

  private static ScalarValue integerArithmetic(BinaryOperator op, ScalarValue.Int left, ScalarValue.Int right, SourcePos pos) {
    long a = left.value();
    long b = right.value();
    boolean narrow = left.type() == ScalarType.I32;
    long result;
    switch (op) {
      case ADD: result = a + b; break;
      case SUB: result = a - b; break;
      case MUL: result = a * b; break;
      case DIV: result = a / nonZero(op, b, pos); break;
      case MOD: result = a % nonZero(op, b, pos); break;
      case POW: result = integerPower(a, b, pos); break;
      case BAND: result = a & b; break;
      case BOR: result = a | b; break;
      case XOR: result = a ^ b; break;
      case SHL: result = narrow ? (int) a << b : a << b; break;
      case SHR: result = narrow ? (int) a >> b : a >> b; break;
      default: throw new IllegalArgumentException(op.symbol() + " on integers");
    }
    return new ScalarValue.Int(left.type(), result);
  }

  private static long nonZero(BinaryOperator op, long divisor, SourcePos pos) {
    if (divisor == 0) {
      throw new L0RuntimeError(op.symbol(), pos, "integer division by zero");
    }
    return divisor;
  }

  private static long integerPower(long base, long exponent, SourcePos pos) {
    if (exponent < 0) {
      throw new L0RuntimeError("pow", pos, "negative exponent " + exponent + " for an integer power");
    }
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

  private static ScalarValue floatArithmetic(BinaryOperator op, ScalarValue.Float left, ScalarValue.Float right) {
    if (left.type() == ScalarType.F32) {
      float a = (float) left.value();
      float b = (float) right.value();
      float result;
      switch (op) {
        case ADD: result = a + b; break;
        case SUB: result = a - b; break;
        case MUL: result = a * b; break;
        case DIV: result = a / b; break;
        case MOD: result = a % b; break;
        default: result = L0Math.powf(a, b); break;
      }
      return ScalarValue.f32(result);
    }
    double a = left.value();
    double b = right.value();
    double result;
    switch (op) {
      case ADD: result = a + b; break;
      case SUB: result = a - b; break;
      case MUL: result = a * b; break;
      case DIV: result = a / b; break;
      case MOD: result = a % b; break;
      default: result = L0Math.pow(a, b); break;
    }
    return ScalarValue.f64(result);
  }

  private static boolean compare(BinaryOperator op, ScalarValue left, ScalarValue right) {
    if (left instanceof ScalarValue.Float f) {
      double a = f.value();
      double b = ((ScalarValue.Float) right).value();
      switch (op) {
        case EQ: return a == b;
        case NEQ: return a != b;
        case LT: return a < b;
        case LEQ: return a <= b;
        case GT: return a > b;
        default: return a >= b;
      }
    }
    int c = left instanceof ScalarValue.Bool l
        ? Boolean.compare(l.value(), ((ScalarValue.Bool) right).value())
        : Long.compare(((ScalarValue.Int) left).value(), ((ScalarValue.Int) right).value());
    switch (op) {
      case EQ: return c == 0;
      case NEQ: return c != 0;
      case LT: return c < 0;
      case LEQ: return c <= 0;
      case GT: return c > 0;
      default: return c >= 0;
    }
  }

  public static ScalarValue unary(UnaryOperator op, ScalarValue operand) {
    if (op == UnaryOperator.NOT) {
      return ScalarValue.bool(!((ScalarValue.Bool) operand).value());
    }
    if (operand instanceof ScalarValue.Float f) {
      return new ScalarValue.Float(f.type(), -f.value());
    }
    ScalarValue.Int i = (ScalarValue.Int) operand;
    return new ScalarValue.Int(i.type(), -i.value());
  }

  public static ScalarValue builtin(Builtin function, List<ScalarValue> args) {
    ScalarValue x = args.get(0);
    switch (function.kind()) {
      case CONVERSION:
        return convert(x, function.conversionTarget());
      case FLOAT_MATH:
        return floatMath(function, (ScalarValue.Float) x);
      default:
        return numeric(function, x, function == Builtin.ABS ? x : args.get(1));
    }
  }

  private static ScalarValue floatMath(Builtin function, ScalarValue.Float x) {
    if (x.type() == ScalarType.F32) {
      float v = (float) x.value();
      switch (function) {
        case EXP: return ScalarValue.f32(L0Math.expf(v));
        case LOG: return ScalarValue.f32(L0Math.logf(v));
        case SQRT: return ScalarValue.f32(L0Math.sqrtf(v));
        case SIN: return ScalarValue.f32(L0Math.sinf(v));
        case COS: return ScalarValue.f32(L0Math.cosf(v));
        case ERF: return ScalarValue.f32(L0Math.erff(v));
        default: return ScalarValue.f32(L0Math.floorf(v));
      }
    }
    double v = x.value();
    switch (function) {
      case EXP: return ScalarValue.f64(L0Math.exp(v));
      case LOG: return ScalarValue.f64(L0Math.log(v));
      case SQRT: return ScalarValue.f64(L0Math.sqrt(v));
      case SIN: return ScalarValue.f64(L0Math.sin(v));
      case COS: return ScalarValue.f64(L0Math.cos(v));
      case ERF: return ScalarValue.f64(L0Math.erf(v));
      default: return ScalarValue.f64(L0Math.floor(v));
    }
  }

  private static ScalarValue numeric(Builtin function, ScalarValue x, ScalarValue y) {
    if (x instanceof ScalarValue.Float f) {
      double a = f.value();
      double b = ((ScalarValue.Float) y).value();
      double result = function == Builtin.ABS ? Math.abs(a) : function == Builtin.MIN ? Math.min(a, b) : Math.max(a, b);
      return new ScalarValue.Float(f.type(), result);
    }
    ScalarValue.Int i = (ScalarValue.Int) x;
    long a = i.value();
    long b = ((ScalarValue.Int) y).value();
    long result = function == Builtin.ABS ? Math.abs(a) : function == Builtin.MIN ? Math.min(a, b) : Math.max(a, b);
    return new ScalarValue.Int(i.type(), result);
  }

  public static ScalarValue convert(ScalarValue x, ScalarType target) {
    if (x instanceof ScalarValue.Float f) {
      double v = f.value();
      switch (target) {
        case I32: return ScalarValue.i32((int) v);
        case I64: return ScalarValue.i64((long) v);
        case F32: return ScalarValue.f32((float) v);
        default: return ScalarValue.f64(v);
      }
    }
    long v = ((ScalarValue.Int) x).value();
    switch (target) {
      case I32: return new ScalarValue.Int(ScalarType.I32, v);
      case I64: return ScalarValue.i64(v);
      case F32: return ScalarValue.f32((float) v);
      default: return ScalarValue.f64((double) v);
    }
  }
}
