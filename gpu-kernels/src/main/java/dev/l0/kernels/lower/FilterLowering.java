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
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;

/**
 * A top-level filter or filtermap (a filter cluster: a map, flags, a scan of counts and a scatter,
 * with its producer's and consumer's work fused in) in three kernels, chunked as the contract says:
 * each chunk counts its kept rows, one thread turns the counts into offsets (and the total the host
 * reads to size the results), and each chunk writes its kept rows (a filter's input rows, a
 * filtermap's values) in order from its offset. The function runs in both the counting and the
 * writing kernel, so no flag array is stored.
 */
final class FilterLowering {
  private FilterLowering() {}

  /**
   * {@code function} returns the keep flag of a row, and for a filtermap ({@code mapsRows}) the
   * row's values after it.
   */
  static KernelGroup lower(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Lambda function,
      List<SubExp> inputs,
      boolean mapsRows) {
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
        KernelAssembler.assemble(name + "_count", count(code, chunking, function, views, counts));
    Kernel offset =
        KernelAssembler.assemble(name + "_offsets", offsets(code, chunking, counts, offsets));
    steps.addAll(countScratch.launch(count, chunking.blocks()));
    steps.add(new HostStep.Launch(offset, ONE));
    KernelExpr.Var total = group.fresh("total", ScalarType.I64);
    steps.add(new HostStep.ReadScalar(total, offsets, chunking.chunks()));
    List<ArrayView> results = new ArrayList<>();
    List<GroupOutput> outputs = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      Buffer result;
      List<KernelExpr> shape = new ArrayList<>(List.of(total));
      if (mapsRows) {
        ScalarType value =
            ThreadCode.scalarType(InternalTypes.row(pattern.get(k).type()), "a filtermap");
        result = group.freshBuffer("kept_" + pattern.get(k).name(), value);
        steps.add(new HostStep.Allocate(result, total));
      } else {
        ArrayView input = views.get(k);
        result = group.freshBuffer("kept_" + pattern.get(k).name(), input.elementType());
        shape.addAll(input.dims().subList(1, input.rank()));
        steps.add(new HostStep.Allocate(result, mul(total, input.rowMajorRowElements())));
      }
      results.add(ArrayView.rowMajor(result, ZERO, shape));
      outputs.add(new GroupOutput(pattern.get(k).name(), result, shape));
    }
    ThreadScratch scatterScratch = code.beginKernel();
    Kernel scatter =
        KernelAssembler.assemble(
            name + "_scatter",
            scatter(code, chunking, function, views, offsets, results, mapsRows));
    steps.addAll(scatterScratch.launch(scatter, chunking.blocks()));
    return new KernelGroup(
        name, group.inputs(), List.of(count, offset, scatter), steps, outputs, group.errors());
  }

  /**
   * {@code function(row i)} into fresh locals, the keep flag first, its code appended to {@code
   * out}.
   */
  private static List<KernelExpr.Var> flagged(
      ThreadCode code, Lambda function, List<ArrayView> views, KernelExpr i, List<KernelStmt> out) {
    return code.applyToLocals(
        function, views.stream().map(v -> ThreadCode.row(v, i)).toList(), out);
  }

  private static List<KernelStmt> count(
      ThreadCode code, Chunking chunking, Lambda function, List<ArrayView> views, Buffer counts) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var kept = group.fresh("kept", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    KernelExpr keep = flagged(code, function, views, i, step).get(0);
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
      Lambda function,
      List<ArrayView> views,
      Buffer offsets,
      List<ArrayView> results,
      boolean mapsRows) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var position = group.fresh("position", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    List<KernelExpr.Var> flagged = flagged(code, function, views, i, step);
    List<KernelStmt> write = new ArrayList<>();
    for (int k = 0; k < results.size(); k++) {
      ArrayView target = results.get(k).rowInBounds(position);
      if (mapsRows) {
        write.add(new KernelStmt.Store(target.buffer(), target.offset(), flagged.get(1 + k)));
      } else {
        code.copyElements(views.get(k).rowInBounds(i), target, write);
      }
    }
    write.add(new KernelStmt.Assign(position, add(position, ONE)));
    step.add(new KernelStmt.If(flagged.get(0), write, List.of()));
    return chunking.threadPerChunk(
        chunk,
        List.of(
            new KernelStmt.Declare(position, new KernelExpr.Load(offsets, chunk)),
            chunking.overChunk(chunk, i, step)));
  }
}
