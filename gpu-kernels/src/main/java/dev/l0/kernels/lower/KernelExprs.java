package dev.l0.kernels.lower;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.List;

/** Builders for the kernel expressions the lowerings emit, mostly {@code i64} index arithmetic. */
final class KernelExprs {
  static final KernelExpr TRUE = new KernelExpr.Constant(ScalarValue.bool(true));
  static final KernelExpr ZERO = i64(0);
  static final KernelExpr ONE = i64(1);
  static final KernelExpr THREAD_IDX = new KernelExpr.Thread(ThreadIndex.THREAD_IDX);
  static final KernelExpr BLOCK_IDX = new KernelExpr.Thread(ThreadIndex.BLOCK_IDX);
  static final KernelExpr BLOCK_DIM = new KernelExpr.Thread(ThreadIndex.BLOCK_DIM);
  static final KernelExpr GRID_DIM = new KernelExpr.Thread(ThreadIndex.GRID_DIM);

  /** {@code blockIdx.x * blockDim.x + threadIdx.x} */
  static final KernelExpr GLOBAL_THREAD = add(mul(BLOCK_IDX, BLOCK_DIM), THREAD_IDX);

  private KernelExprs() {}

  static KernelExpr i64(long v) {
    return new KernelExpr.Constant(ScalarValue.i64(v));
  }

  static KernelExpr add(KernelExpr a, KernelExpr b) {
    if (isConstant(a, 0)) {
      return b;
    }
    return isConstant(b, 0) ? a : i64Op(BinaryOperator.ADD, a, b);
  }

  static KernelExpr sub(KernelExpr a, KernelExpr b) {
    return i64Op(BinaryOperator.SUB, a, b);
  }

  static KernelExpr mul(KernelExpr a, KernelExpr b) {
    if (isConstant(a, 1)) {
      return b;
    }
    return isConstant(b, 1) ? a : i64Op(BinaryOperator.MUL, a, b);
  }

  static KernelExpr div(KernelExpr a, KernelExpr b) {
    return i64Op(BinaryOperator.DIV, a, b);
  }

  static KernelExpr mod(KernelExpr a, KernelExpr b) {
    return i64Op(BinaryOperator.MOD, a, b);
  }

  static KernelExpr min(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Call(Builtin.MIN, List.of(a, b));
  }

  static KernelExpr max(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Call(Builtin.MAX, List.of(a, b));
  }

  static KernelExpr lt(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.LT, a.type(), a, b);
  }

  static KernelExpr eq(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.EQ, a.type(), a, b);
  }

  static KernelExpr and(KernelExpr a, KernelExpr b) {
    if (a.equals(TRUE)) {
      return b;
    }
    return b.equals(TRUE) ? a : new KernelExpr.Binary(BinaryOperator.AND, ScalarType.BOOL, a, b);
  }

  static KernelExpr or(KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(BinaryOperator.OR, ScalarType.BOOL, a, b);
  }

  static KernelExpr not(KernelExpr a) {
    return new KernelExpr.Unary(PrefixOperator.NOT, a);
  }

  /** {@code 0 <= index < size} for {@code i64} operands. */
  static KernelExpr inRange(KernelExpr index, KernelExpr size) {
    return and(not(lt(index, ZERO)), lt(index, size));
  }

  /**
   * {@code value} converted to {@code type} (no conversion when it has that type already; constants
   * folded).
   */
  static KernelExpr convert(KernelExpr value, ScalarType type) {
    if (value.type() == type) {
      return value;
    }
    if (value instanceof KernelExpr.Constant c
        && c.value() instanceof ScalarValue.Int i
        && type == ScalarType.I64) {
      return i64(i.value());
    }
    Builtin conversion =
        switch (type) {
          case I32 -> Builtin.TO_I32;
          case I64 -> Builtin.TO_I64;
          case F32 -> Builtin.TO_F32;
          case F64 -> Builtin.TO_F64;
          case BOOL -> throw new UnsupportedKernelException("conversion to bool");
        };
    return new KernelExpr.Call(conversion, List.of(value));
  }

  /** The zero of a scalar type: the initial value of a local that is assigned later. */
  static KernelExpr zeroOf(ScalarType type) {
    return switch (type) {
      case BOOL -> new KernelExpr.Constant(ScalarValue.bool(false));
      case I32 -> new KernelExpr.Constant(ScalarValue.i32(0));
      case I64 -> ZERO;
      case F32 -> new KernelExpr.Constant(ScalarValue.f32(0));
      case F64 -> new KernelExpr.Constant(ScalarValue.f64(0));
    };
  }

  private static KernelExpr i64Op(BinaryOperator op, KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(op, ScalarType.I64, a, b);
  }

  private static boolean isConstant(KernelExpr e, long v) {
    return e instanceof KernelExpr.Constant c && c.value().equals(ScalarValue.i64(v));
  }
}
