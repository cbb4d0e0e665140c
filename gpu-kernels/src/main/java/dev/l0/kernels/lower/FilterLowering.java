package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.ONE;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * A top-level filter or filtermap (a filter cluster: a map, flags, a scan of counts and a scatter,
 * with its producer's and consumer's work fused in) in three kernels, chunked as the contract says:
 * each chunk counts its kept rows, one thread turns the counts into offsets (and the total the host
 * reads to size the results), and each chunk writes its kept rows (a filter's input rows, a
 * filtermap's values) in order from its offset. The function runs in both the counting and the
 * writing kernel, so no flag array is stored. A filtermap of several filters counts, offsets and
 * writes each filter's rows beside the others' in the same three kernels: one pass over the input
 * per kernel, however many filters.
 */
final class FilterLowering {
  private FilterLowering() {}

  /** {@code soac}, a filter or filtermap binding {@code pattern}, as its kernel group. */
  static KernelGroup lower(
      GroupContext group, String name, List<Ident> pattern, Exp.FilterMap soac) {
    FilterResults filters = FilterResults.of(soac);
    ThreadCode code = new ThreadCode(group);
    List<ArrayView> views = soac.inputs().stream().map(code::array).toList();
    Chunking chunking = Chunking.of(views.get(0).dims().get(0), group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    Buffer counts = group.freshBuffer("kept", ScalarType.I64);
    Buffer offsets = group.freshBuffer("offset", ScalarType.I64);
    KernelExpr count = i64(filters.count());
    KernelExpr perFilter = add(chunking.chunks(), ONE);
    steps.add(new HostStep.Allocate(counts, mul(count, chunking.chunks())));
    steps.add(new HostStep.Allocate(offsets, mul(count, perFilter)));
    List<GroupOutput> outputs = new ArrayList<>();
    List<Buffer> partials = new ArrayList<>();
    for (int a = 0; a < soac.accumulators(); a++) {
      Ident id = pattern.get(a);
      Buffer partial =
          group.freshBuffer(
              "partial_" + id.name(), ThreadCode.scalarType(id.type(), "an array accumulator"));
      partials.add(partial);
      steps.add(new HostStep.Allocate(partial, chunking.chunks()));
      outputs.add(new GroupOutput(id.name(), partial, List.of()));
    }
    List<Kernel> kernels = new ArrayList<>();
    ThreadScratch countScratch = code.beginKernel();
    Kernel counting =
        KernelAssembler.assemble(
            name + "_count", count(code, chunking, soac, filters, views, counts, partials));
    steps.addAll(countScratch.launch(counting, chunking.blocks()));
    kernels.add(counting);
    if (soac.accumulators() > 0) {
      ThreadScratch treeScratch = code.beginKernel();
      Kernel tree =
          KernelAssembler.assemble(
              name + "_tree",
              ReductionLowering.treeKernel(code, soac.combine(), partials, chunking.chunks()));
      steps.addAll(treeScratch.launch(tree, ONE));
      kernels.add(tree);
    }
    Kernel offset =
        KernelAssembler.assemble(
            name + "_offsets", offsets(code, chunking, filters, counts, offsets));
    steps.add(new HostStep.Launch(offset, ONE));
    kernels.add(offset);
    List<KernelExpr.Var> totals = new ArrayList<>();
    for (int k = 0; k < filters.count(); k++) {
      KernelExpr.Var total = group.fresh("total", ScalarType.I64);
      steps.add(new HostStep.ReadScalar(total, offsets, endOf(k, chunking)));
      totals.add(total);
    }
    List<ArrayView> results = new ArrayList<>();
    for (int r = soac.accumulators(); r < pattern.size(); r++) {
      KernelExpr.Var total = totals.get(filters.filterOf(r));
      Buffer result;
      List<KernelExpr> shape = new ArrayList<>(List.of(total));
      if (filters.mapsRows()) {
        ScalarType value =
            ThreadCode.scalarType(InternalTypes.row(pattern.get(r).type()), "a filtermap");
        result = group.freshBuffer("kept_" + pattern.get(r).name(), value);
        steps.add(new HostStep.Allocate(result, total));
      } else {
        ArrayView input = views.get(r);
        result = group.freshBuffer("kept_" + pattern.get(r).name(), input.elementType());
        shape.addAll(input.dims().subList(1, input.rank()));
        steps.add(new HostStep.Allocate(result, mul(total, input.rowMajorRowElements())));
      }
      results.add(ArrayView.rowMajor(result, ZERO, shape));
      outputs.add(new GroupOutput(pattern.get(r).name(), result, shape));
    }
    ThreadScratch scatterScratch = code.beginKernel();
    Kernel scatter =
        KernelAssembler.assemble(
            name + "_scatter", scatter(code, chunking, soac, filters, views, offsets, results));
    steps.addAll(scatterScratch.launch(scatter, chunking.blocks()));
    kernels.add(scatter);
    return new KernelGroup(name, group.inputs(), kernels, steps, outputs, group.errors());
  }

  /** Where filter {@code k}'s offset of chunk {@code chunk} is: its offsets are {@code C + 1}. */
  private static KernelExpr offsetOf(int k, KernelExpr chunk, Chunking chunking) {
    return add(nthBlock(k, add(chunking.chunks(), ONE)), chunk);
  }

  /** Where the {@code k}th block of {@code length} entries starts. */
  private static KernelExpr nthBlock(int k, KernelExpr length) {
    return k == 0 ? ZERO : mul(i64(k), length);
  }

  /** Where filter {@code k}'s total is, after its chunks' offsets. */
  private static KernelExpr endOf(int k, Chunking chunking) {
    return offsetOf(k, chunking.chunks(), chunking);
  }

  /**
   * {@code soac}'s function of the accumulators {@code accs} and row {@code i} into fresh locals,
   * the folded accumulators and keep flags among them, its code appended to {@code out}.
   */
  private static List<KernelExpr.Var> flagged(
      ThreadCode code,
      FilterResults filters,
      List<KernelExpr> accs,
      List<ArrayView> views,
      KernelExpr i,
      List<KernelStmt> out) {
    List<Binding> args = new ArrayList<>();
    accs.forEach(a -> args.add(new Binding.Scalar(a)));
    views.forEach(v -> args.add(ThreadCode.row(v, i)));
    return code.applyToLocals(filters.function(), args, out);
  }

  /** {@code soac}'s neutral elements, where it has accumulators. */
  private static List<KernelExpr> neutral(ThreadCode code, Exp.FilterMap soac) {
    return soac.neutral().stream().map(code::scalar).toList();
  }

  /**
   * Each chunk counts the kept rows of each filter, and folds its accumulators (where {@code soac}
   * has any) over its rows in order into {@code partials} at its index.
   */
  private static List<KernelStmt> count(
      ThreadCode code,
      Chunking chunking,
      Exp.FilterMap soac,
      FilterResults filters,
      List<ArrayView> views,
      Buffer counts,
      List<Buffer> partials) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    List<KernelExpr.Var> accs = code.declareAccumulators(neutral(code, soac), body);
    List<KernelStmt> step = new ArrayList<>();
    List<KernelExpr.Var> flagged = flagged(code, filters, List.copyOf(accs), views, i, step);
    List<KernelStmt> stores = new ArrayList<>();
    for (int a = 0; a < accs.size(); a++) {
      step.add(new KernelStmt.Assign(accs.get(a), flagged.get(a)));
      stores.add(new KernelStmt.Store(partials.get(a), chunk, accs.get(a)));
    }
    for (int k = 0; k < filters.count(); k++) {
      KernelExpr.Var kept = group.fresh("kept", ScalarType.I64);
      body.add(new KernelStmt.Declare(kept, ZERO));
      step.add(
          new KernelStmt.If(
              flagged.get(filters.flags().get(k)),
              List.of(new KernelStmt.Assign(kept, add(kept, ONE))),
              List.of()));
      stores.add(new KernelStmt.Store(counts, add(nthBlock(k, chunking.chunks()), chunk), kept));
    }
    body.add(chunking.overChunk(chunk, i, step));
    body.addAll(stores);
    return chunking.threadPerChunk(chunk, body);
  }

  /**
   * One thread: for each filter, the exclusive offsets of the chunks, and the total at index {@code
   * C}.
   */
  private static List<KernelStmt> offsets(
      ThreadCode code, Chunking chunking, FilterResults filters, Buffer counts, Buffer offsets) {
    GroupContext group = code.group();
    List<KernelStmt> body = new ArrayList<>();
    for (int k = 0; k < filters.count(); k++) {
      KernelExpr.Var running = group.fresh("running", ScalarType.I64);
      KernelExpr.Var c = group.fresh("c", ScalarType.I64);
      KernelExpr countOf = new KernelExpr.Load(counts, add(nthBlock(k, chunking.chunks()), c));
      body.add(new KernelStmt.Declare(running, ZERO));
      body.add(
          new KernelStmt.For(
              c,
              ZERO,
              chunking.chunks(),
              ONE,
              List.of(
                  new KernelStmt.Store(offsets, offsetOf(k, c, chunking), running),
                  new KernelStmt.Assign(running, add(running, countOf)))));
      body.add(new KernelStmt.Store(offsets, endOf(k, chunking), running));
    }
    return List.of(new KernelStmt.If(eq(GLOBAL_THREAD, ZERO), body, List.of()));
  }

  /**
   * Each chunk writes the kept values of each filter from its offsets; the function's folded
   * accumulators (from the neutral elements here) go unused.
   */
  private static List<KernelStmt> scatter(
      ThreadCode code,
      Chunking chunking,
      Exp.FilterMap soac,
      FilterResults filters,
      List<ArrayView> views,
      Buffer offsets,
      List<ArrayView> results) {
    GroupContext group = code.group();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    List<KernelStmt> step = new ArrayList<>();
    List<KernelExpr.Var> flagged = flagged(code, filters, neutral(code, soac), views, i, step);
    for (int k = 0; k < filters.count(); k++) {
      KernelExpr.Var position = group.fresh("position", ScalarType.I64);
      body.add(
          new KernelStmt.Declare(
              position, new KernelExpr.Load(offsets, offsetOf(k, chunk, chunking))));
      int flag = filters.flags().get(k);
      int first = filters.firstResults().get(k);
      List<KernelStmt> write = new ArrayList<>();
      for (int r = first; r < first + filters.sizes().get(k); r++) {
        ArrayView target = results.get(r - filters.accumulators()).rowInBounds(position);
        if (filters.mapsRows()) {
          write.add(
              new KernelStmt.Store(
                  target.buffer(), target.offset(), flagged.get(flag + 1 + r - first)));
        } else {
          code.copyElements(views.get(r).rowInBounds(i), target, write);
        }
      }
      write.add(new KernelStmt.Assign(position, add(position, ONE)));
      step.add(new KernelStmt.If(flagged.get(flag), write, List.of()));
    }
    body.add(chunking.overChunk(chunk, i, step));
    return chunking.threadPerChunk(chunk, body);
  }
}
