package dev.l0.kernels.sim;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.List;

/**
 * Short builders for the hand-written kernel-IR kernels of the simulator's tests ({@code i64}
 * arithmetic unless named).
 */
final class KernelCode {
  static final KernelExpr THREAD = new KernelExpr.Thread(ThreadIndex.THREAD_IDX);
  static final KernelExpr BLOCK = new KernelExpr.Thread(ThreadIndex.BLOCK_IDX);
  static final KernelExpr BLOCK_DIM = new KernelExpr.Thread(ThreadIndex.BLOCK_DIM);
  static final KernelExpr GLOBAL_THREAD = add(mul(BLOCK, BLOCK_DIM), THREAD);

  private KernelCode() {}

  static KernelExpr i64(long v) {
    return new KernelExpr.Constant(ScalarValue.i64(v));
  }

  static KernelExpr.Var var(String name) {
    return new KernelExpr.Var(name, ScalarType.I64);
  }

  static KernelExpr add(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.ADD, a, b);
  }

  static KernelExpr mul(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.MUL, a, b);
  }

  static KernelExpr div(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.DIV, a, b);
  }

  static KernelExpr mod(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.MOD, a, b);
  }

  static KernelExpr lt(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.LT, a, b);
  }

  static KernelExpr eq(KernelExpr a, KernelExpr b) {
    return op(BinaryOperator.EQ, a, b);
  }

  static KernelExpr op(BinaryOperator op, KernelExpr a, KernelExpr b) {
    return new KernelExpr.Binary(op, ScalarType.I64, a, b);
  }

  static KernelExpr load(Buffer b, KernelExpr index) {
    return new KernelExpr.Load(b, index);
  }

  static KernelExpr load(SharedArray a, KernelExpr index) {
    return new KernelExpr.SharedLoad(a, index);
  }

  static KernelStmt declare(String name, KernelExpr initial) {
    return new KernelStmt.Declare(var(name), initial);
  }

  static KernelStmt assign(String name, KernelExpr value) {
    return new KernelStmt.Assign(var(name), value);
  }

  static KernelStmt store(Buffer b, KernelExpr index, KernelExpr value) {
    return new KernelStmt.Store(b, index, value);
  }

  static KernelStmt store(SharedArray a, KernelExpr index, KernelExpr value) {
    return new KernelStmt.SharedStore(a, index, value);
  }

  static KernelStmt when(KernelExpr condition, KernelStmt... body) {
    return new KernelStmt.If(condition, List.of(body), List.of());
  }

  static KernelStmt barrier() {
    return new KernelStmt.Barrier();
  }
}
