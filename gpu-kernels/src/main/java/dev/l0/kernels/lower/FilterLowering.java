package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.ONE;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;

/**
 * A top-level filter in three kernels, chunked as the contract says: each chunk counts its kept
 * rows, one thread turns the counts into offsets (and the total the host reads to size the
 * results), and each chunk writes its kept rows in order from its offset.
 */
final class FilterLowering {
  private FilterLowering() {}

  static KernelGroup lower(
      GroupContext group, String name, List<Ident> pattern, Lambda predicate, List<SubExp> inputs) {
    ThreadCode code = new ThreadCode(group);
    List<ArrayView> views = inputs.stream().map(code::array).toList();
    Chunking chunking = Chunking.of(views.get(0).dims().get(0), group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    Buffer counts = group.freshBuffer("kept", ScalarType.I64);
    Buffer offsets = group.freshBuffer("offset", ScalarType.I64);
    steps.add(new HostStep.Allocate(counts, chunking.chunks()));
    steps.add(new HostStep.Allocate(offsets, add(chunking.chunks(), ONE)));
    ThreadScratch countScratch = code.beginKernel();
    Kernel count =
        KernelAssembler.assemble(name + "_count", count(code, chunking, predicate, views, counts));
    Kernel offset =
        KernelAssembler.assemble(name + "_offsets", offsets(code, chunking, counts, offsets));
    steps.addAll(countScratch.launch(count, chunking.blocks()));
    steps.add(new HostStep.Launch(offset, ONE));
    KernelExpr.Var total = group.fresh("total", ScalarType.I64);
    steps.add(new HostStep.ReadScalar(total, offsets, chunking.chunks()));
    List<ArrayView> results = new ArrayList<>();
    List<GroupOutput> outputs = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      ArrayView input = views.get(k);
      Buffer result = group.freshBuffer("kept_" + pattern.get(k).name(), input.elementType());
      List<KernelExpr> shape = new ArrayList<>(List.of(total));
      shape.addAll(input.dims().subList(1, input.rank()));
      steps.add(new HostStep.Allocate(result, mul(total, input.rowMajorRowElements())));
      results.add(ArrayView.rowMajor(result, ZERO, shape));
      outputs.add(new GroupOutput(pattern.get(k).name(), result, shape));
    }
    ThreadScratch scatterScratch = code.beginKernel();
    Kernel scatter =
        KernelAssembler.assemble(
            name + "_scatter", scatter(code, chunking, predicate, views, offsets, results));
    steps.addAll(scatterScratch.launch(scatter, chunking.blocks()));
    return new KernelGroup(
        name, group.inputs(), List.of(count, offset, scatter), steps, outputs, group.errors());
  }

  /** {@code keep(row i)} into a fresh local, its code appended to {@code out}. */
  private static KernelExpr keeps(
      ThreadCode code,
      Lambda predicate,
      List<ArrayView> views,
      KernelExpr i,
      List<KernelStmt> out) {
    return code.applyToLocals(
            predicate, views.stream().map(v -> ThreadCode.row(v, i)).toList(), out)
        .get(0);
  }

  private static List<KernelStmt> count(
      ThreadCode code, Chunking chunking, Lambda predicate, List<ArrayView> views, Buffer counts) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var kept = group.fresh("kept", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    KernelExpr keep = keeps(code, predicate, views, i, step);
    step.add(
        new KernelStmt.If(keep, List.of(new KernelStmt.Assign(kept, add(kept, ONE))), List.of()));
    return chunking.threadPerChunk(
        chunk,
        List.of(
            new KernelStmt.Declare(kept, ZERO),
            chunking.overChunk(chunk, i, step),
            new KernelStmt.Store(counts, chunk, kept)));
  }

  /** One thread: the exclusive offsets of the chunks, and the total at index {@code C}. */
  private static List<KernelStmt> offsets(
      ThreadCode code, Chunking chunking, Buffer counts, Buffer offsets) {
    GroupContext group = code.group();
    KernelExpr.Var running = group.fresh("running", ScalarType.I64);
    KernelExpr.Var c = group.fresh("c", ScalarType.I64);
    KernelStmt loop =
        new KernelStmt.For(
            c,
            ZERO,
            chunking.chunks(),
            ONE,
            List.of(
                new KernelStmt.Store(offsets, c, running),
                new KernelStmt.Assign(running, add(running, new KernelExpr.Load(counts, c)))));
    return List.of(
        new KernelStmt.If(
            eq(GLOBAL_THREAD, ZERO),
            List.of(
                new KernelStmt.Declare(running, ZERO),
                loop,
                new KernelStmt.Store(offsets, chunking.chunks(), running)),
            List.of()));
  }

  private static List<KernelStmt> scatter(
      ThreadCode code,
      Chunking chunking,
      Lambda predicate,
      List<ArrayView> views,
      Buffer offsets,
      List<ArrayView> results) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var position = group.fresh("position", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    KernelExpr keep = keeps(code, predicate, views, i, step);
    List<KernelStmt> write = new ArrayList<>();
    for (int k = 0; k < results.size(); k++) {
      code.copyElements(views.get(k).rowInBounds(i), results.get(k).rowInBounds(position), write);
    }
    write.add(new KernelStmt.Assign(position, add(position, ONE)));
    step.add(new KernelStmt.If(keep, write, List.of()));
    return chunking.threadPerChunk(
        chunk,
        List.of(
            new KernelStmt.Declare(position, new KernelExpr.Load(offsets, chunk)),
            chunking.overChunk(chunk, i, step)));
  }
}
