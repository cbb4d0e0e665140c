package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.lt;
import static dev.l0.kernels.lower.KernelExprs.mod;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.opt.ir.Lambda;
import java.util.ArrayList;
import java.util.List;

/**
 * One step of the contract's pairwise tree (package {@code dev.l0.kernels.ir}, "Reduction order"):
 * {@code p[j] = combine(p[j], p[j + s])} where {@code j + s < count}, on accumulators kept in
 * shared or global memory; and the levels {@code s < blockDim} of that tree over the accumulators
 * of a block's threads, in shared memory.
 */
final class PairwiseTree {
  /** Where the accumulator components live. */
  interface Storage {
    KernelExpr load(int component, KernelExpr index);

    KernelStmt store(int component, KernelExpr index, KernelExpr value);
  }

  private PairwiseTree() {}

  /**
   * Thread 0 stores the block's result (index 0 of {@code shared}) at {@code index} of {@code
   * targets}.
   */
  static KernelStmt publishBlockResult(
      List<SharedArray> shared, List<Buffer> targets, KernelExpr index) {
    List<KernelStmt> publish = new ArrayList<>();
    for (int k = 0; k < shared.size(); k++) {
      publish.add(
          new KernelStmt.Store(
              targets.get(k), index, new KernelExpr.SharedLoad(shared.get(k), ZERO)));
    }
    return new KernelStmt.If(eq(THREAD_IDX, ZERO), publish, List.of());
  }

  /**
   * Every thread of the block stores its accumulators {@code accs} at its index of {@code shared}
   * (one array per component); the threads below {@code count} are combined by the pairwise tree,
   * level by level between barriers, leaving the block's result at index 0 of {@code shared}.
   */
  static List<KernelStmt> blockTree(
      ThreadCode code,
      Lambda combine,
      List<KernelExpr.Var> accs,
      List<SharedArray> shared,
      KernelExpr count) {
    List<KernelStmt> body = new ArrayList<>();
    for (int k = 0; k < accs.size(); k++) {
      body.add(new KernelStmt.SharedStore(shared.get(k), THREAD_IDX, accs.get(k)));
    }
    body.add(new KernelStmt.Barrier());
    KernelExpr.Var counted = code.group().fresh("count", ScalarType.I64);
    body.add(new KernelStmt.Declare(counted, count));
    Storage sharedStorage =
        new Storage() {
          @Override
          public KernelExpr load(int component, KernelExpr index) {
            return new KernelExpr.SharedLoad(shared.get(component), index);
          }

          @Override
          public KernelStmt store(int component, KernelExpr index, KernelExpr value) {
            return new KernelStmt.SharedStore(shared.get(component), index, value);
          }
        };
    KernelExpr.Var s = code.group().fresh("s", ScalarType.I64);
    body.add(new KernelStmt.Declare(s, KernelExprs.ONE));
    KernelStmt step =
        combineStep(code, combine, accs.size(), sharedStorage, THREAD_IDX, s, counted);
    KernelExpr mine = eq(mod(THREAD_IDX, mul(i64(2), s)), ZERO);
    body.add(
        new KernelStmt.While(
            lt(s, BLOCK_DIM),
            List.of(
                new KernelStmt.If(mine, List.of(step), List.of()),
                new KernelStmt.Barrier(),
                new KernelStmt.Assign(s, mul(s, i64(2))))));
    return body;
  }

  static KernelStmt combineStep(
      ThreadCode code,
      Lambda combine,
      int components,
      Storage storage,
      KernelExpr j,
      KernelExpr s,
      KernelExpr count) {
    KernelExpr partner = add(j, s);
    List<Binding> args = new ArrayList<>();
    for (int k = 0; k < components; k++) {
      args.add(new Binding.Scalar(storage.load(k, j)));
    }
    for (int k = 0; k < components; k++) {
      args.add(new Binding.Scalar(storage.load(k, partner)));
    }
    List<KernelStmt> body = new ArrayList<>();
    List<KernelExpr.Var> results = code.applyToLocals(combine, args, body);
    for (int k = 0; k < components; k++) {
      body.add(storage.store(k, j, results.get(k)));
    }
    return new KernelStmt.If(lt(partner, count), body, List.of());
  }
}
