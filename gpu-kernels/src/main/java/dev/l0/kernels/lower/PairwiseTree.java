package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.lt;

import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.opt.ir.Lambda;
import java.util.ArrayList;
import java.util.List;

/**
 * One step of the contract's pairwise tree (package {@code dev.l0.kernels.ir}, "Reduction
 * order"): {@code p[j] = combine(p[j], p[j + s])} where {@code j + s < count}, on accumulators
 * kept in shared or global memory.
 */
final class PairwiseTree {
  /** Where the accumulator components live. */
  interface Storage {
    KernelExpr load(int component, KernelExpr index);

    KernelStmt store(int component, KernelExpr index, KernelExpr value);
  }

  private PairwiseTree() {}

  static KernelStmt combineStep(ThreadCode code, Lambda combine, int components, Storage storage,
      KernelExpr j, KernelExpr s, KernelExpr count) {
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
