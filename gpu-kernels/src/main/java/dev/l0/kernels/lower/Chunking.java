package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.min;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import java.util.List;

/**
 * The chunking of the reduction-order contract for {@code n} elements: host scalars for the chunk
 * count {@code C}, the chunk size {@code S} and the number of blocks {@code G} that give every
 * chunk a thread, and the loop over one chunk's elements.
 */
record Chunking(
    KernelExpr n, KernelExpr.Var chunks, KernelExpr.Var chunkSize, KernelExpr.Var blocks) {

  static Chunking of(KernelExpr n, GroupContext group) {
    return new Chunking(
        n,
        group.fresh("chunks", ScalarType.I64),
        group.fresh("chunkSize", ScalarType.I64),
        group.fresh("blocks", ScalarType.I64));
  }

  /** The host steps defining {@code C}, {@code S} and {@code G}. */
  List<HostStep> define() {
    return List.of(
        new HostStep.Define(chunks, ReductionOrder.chunkCountExpr(n)),
        new HostStep.Define(chunkSize, ReductionOrder.ceilDivExpr(n, chunks)),
        new HostStep.Define(blocks, ReductionOrder.ceilDivExpr(chunks, KernelGroup.BLOCK_SIZE)));
  }

  /**
   * Declares {@code chunk} as the thread's global index and runs {@code work} where {@code chunk <
   * C}.
   */
  List<KernelStmt> threadPerChunk(KernelExpr.Var chunk, List<KernelStmt> work) {
    return List.of(
        new KernelStmt.Declare(chunk, KernelExprs.GLOBAL_THREAD),
        new KernelStmt.If(KernelExprs.lt(chunk, chunks), work, List.of()));
  }

  /** {@code for (i = c*S; i < min((c+1)*S, n); i++) body}. */
  KernelStmt overChunk(KernelExpr chunk, KernelExpr.Var i, List<KernelStmt> body) {
    KernelExpr end = min(mul(add(chunk, KernelExprs.ONE), chunkSize), n);
    return new KernelStmt.For(i, mul(chunk, chunkSize), end, KernelExprs.ONE, body);
  }
}
