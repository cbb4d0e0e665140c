package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.BLOCK_IDX;
import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.lt;
import static dev.l0.kernels.lower.KernelExprs.min;
import static dev.l0.kernels.lower.KernelExprs.mul;
import static dev.l0.kernels.lower.KernelExprs.sub;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A top-level redomap or reduce (thesis §7.1) as two kernels, in the contract's order: the first
 * gives each chunk a thread that folds it with the fold function (a screma's fold also writes each
 * row's values of its map part, {@link Exp.Screma#reducesAndMaps}, to their arrays in the same
 * pass), then combines its block's chunk partials by the pairwise tree in shared memory; the
 * second, one block, combines the block partials by the same tree in global memory. Accumulators
 * that include arrays go to {@link MapOfReducesLowering} where the operator combines wide rows
 * element by element and the device reads best across threads (a GPU: {@link
 * LaunchConfiguration#transposeRowReads}), else to {@link ArrayAccumulatorLowering} (also on the
 * JVM, whose cores read best along a row).
 */
final class ReductionLowering {
  private ReductionLowering() {}

  static KernelGroup lower(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Exp.Screma reduction,
      LaunchConfiguration configuration) {
    Lambda combine = reduction.combiner();
    Lambda fold = reduction.fold();
    List<SubExp> neutral = reduction.neutral();
    ThreadCode code = new ThreadCode(group);
    List<ArrayView> views = reduction.inputs().stream().map(code::array).toList();
    if (ArrayAccumulatorLowering.needed(code, neutral)) {
      if (reduction.reducesAndMaps()) {
        throw new UnsupportedKernelException(
            "a reduce of arrays over a map whose rows are used elsewhere too (the optimiser fused"
                + " them into one pass)");
      }
      Optional<KernelGroup> mapOfReduces =
          configuration.transposeRowReads()
              ? MapOfReducesLowering.lower(
                  group, code, name, pattern, combine, fold, neutral, views)
              : Optional.empty();
      return mapOfReduces.orElseGet(
          () ->
              ArrayAccumulatorLowering.reduce(
                  group, code, name, pattern, combine, fold, neutral, views));
    }
    Chunking chunking = Chunking.of(views.get(0).dims().get(0), group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    List<Buffer> partials = new ArrayList<>();
    List<SharedArray> shared = new ArrayList<>();
    List<GroupOutput> outputs = new ArrayList<>();
    for (Ident id : pattern.subList(0, neutral.size())) {
      ScalarType type = ThreadCode.scalarType(id.type(), "a reduction with array accumulators");
      Buffer partial = group.freshBuffer("partial_" + id.name(), type);
      partials.add(partial);
      shared.add(new SharedArray(group.freshName("block_" + id.name()), type, 1));
      steps.add(new HostStep.Allocate(partial, chunking.blocks()));
      outputs.add(new GroupOutput(id.name(), partial, List.of()));
    }
    KernelExpr rows = views.get(0).dims().get(0);
    List<ArrayView> rowTargets = new ArrayList<>();
    for (Ident id : pattern.subList(neutral.size(), pattern.size())) {
      Type row = ((Type.Array) id.type()).element();
      ScalarType type = ThreadCode.scalarType(row.baseElement(), "a screma of tuples");
      Buffer values = group.freshBuffer("out_" + id.name(), type);
      rowTargets.add(
          MapLowering.rowsOfResult(id.name(), values, rows, group.hostShape(row), steps, outputs));
    }
    ThreadScratch chunkScratch = code.beginKernel();
    Kernel chunks =
        KernelAssembler.assemble(
            name + "_chunks",
            chunkKernel(
                code, chunking, fold, combine, neutral, views, rowTargets, shared, partials));
    ThreadScratch treeScratch = code.beginKernel();
    Kernel tree =
        KernelAssembler.assemble(
            name + "_tree", treeKernel(code, combine, partials, chunking.blocks()));
    steps.addAll(chunkScratch.launch(chunks, chunking.blocks()));
    steps.addAll(treeScratch.launch(tree, KernelExprs.ONE));
    return new KernelGroup(
        name, group.inputs(), List.of(chunks, tree), steps, outputs, group.errors());
  }

  /**
   * Fold one chunk per thread, writing each row's values of a screma's map part into {@code
   * rowTargets}, then the block's pairwise tree over the chunk partials in shared memory.
   */
  private static List<KernelStmt> chunkKernel(
      ThreadCode code,
      Chunking chunking,
      Lambda fold,
      Lambda combine,
      List<SubExp> neutral,
      List<ArrayView> views,
      List<ArrayView> rowTargets,
      List<SharedArray> shared,
      List<Buffer> partials) {
    GroupContext group = code.group();
    List<KernelStmt> body = new ArrayList<>();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    body.add(new KernelStmt.Declare(chunk, GLOBAL_THREAD));
    List<KernelExpr.Var> accs =
        code.declareAccumulators(neutral.stream().map(code::scalar).toList(), body);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> foldBody = new ArrayList<>();
    List<Destination> rowValues =
        rowTargets.stream()
            .map(t -> (Destination) new Destination.ToMemory(t.rowInBounds(i)))
            .toList();
    code.foldStepYielding(fold, accs, views, i, rowValues, foldBody);
    body.add(chunking.overChunk(chunk, i, foldBody));
    body.addAll(
        PairwiseTree.blockTree(
            code,
            combine,
            accs,
            shared,
            min(BLOCK_DIM, sub(chunking.chunks(), mul(BLOCK_IDX, BLOCK_DIM)))));
    body.add(PairwiseTree.publishBlockResult(shared, partials, BLOCK_IDX));
    return body;
  }

  /** One block: the pairwise tree over the {@code count} block partials, level by level. */
  static List<KernelStmt> treeKernel(
      ThreadCode code, Lambda combine, List<Buffer> partials, KernelExpr count) {
    GroupContext group = code.group();
    PairwiseTree.Storage global =
        new PairwiseTree.Storage() {
          @Override
          public KernelExpr load(int component, KernelExpr index) {
            return new KernelExpr.Load(partials.get(component), index);
          }

          @Override
          public KernelStmt store(int component, KernelExpr index, KernelExpr value) {
            return new KernelStmt.Store(partials.get(component), index, value);
          }
        };
    KernelExpr.Var s = group.fresh("s", ScalarType.I64);
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    KernelExpr twice = mul(i64(2), s);
    KernelStmt pairs =
        new KernelStmt.For(
            j,
            mul(THREAD_IDX, twice),
            count,
            mul(BLOCK_DIM, twice),
            List.of(PairwiseTree.combineStep(code, combine, partials.size(), global, j, s, count)));
    return List.of(
        new KernelStmt.Declare(s, KernelExprs.ONE),
        new KernelStmt.While(
            lt(s, count),
            List.of(pairs, new KernelStmt.Barrier(), new KernelStmt.Assign(s, twice))));
  }
}
