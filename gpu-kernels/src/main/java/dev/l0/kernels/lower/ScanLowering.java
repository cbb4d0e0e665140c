package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.eq;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
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
 * A top-level scan or scanomap as reduce-then-scan in three kernels, in the contract's order: each
 * chunk's total (a thread per chunk folds it), the chunks' carries (one thread combines the totals
 * left to right), and each chunk folded again from its carry, writing every prefix. Accumulators
 * that include arrays go to {@link ArrayAccumulatorLowering}.
 */
final class ScanLowering {
  private ScanLowering() {}

  static KernelGroup lower(
      GroupContext group,
      String name,
      List<Ident> pattern,
      Lambda combine,
      Lambda fold,
      List<SubExp> neutral,
      List<SubExp> inputs) {
    ThreadCode code = new ThreadCode(group);
    List<ArrayView> views = inputs.stream().map(code::array).toList();
    if (ArrayAccumulatorLowering.needed(code, neutral)) {
      return ArrayAccumulatorLowering.scan(
          group, code, name, pattern, combine, fold, neutral, views);
    }
    KernelExpr n = views.get(0).dims().get(0);
    Chunking chunking = Chunking.of(n, group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    List<Buffer> totals = new ArrayList<>();
    List<Buffer> carries = new ArrayList<>();
    List<Buffer> results = new ArrayList<>();
    List<GroupOutput> outputs = new ArrayList<>();
    for (Ident id : pattern) {
      Type element = id.type() instanceof Type.Array array ? array.element() : id.type();
      ScalarType type = ThreadCode.scalarType(element, "a scan with array accumulators");
      totals.add(allocate(group, "total_" + id.name(), type, chunking.chunks(), steps));
      carries.add(allocate(group, "carry_" + id.name(), type, chunking.chunks(), steps));
      Buffer result = allocate(group, "scan_" + id.name(), type, n, steps);
      results.add(result);
      outputs.add(new GroupOutput(id.name(), result, List.of(n)));
    }
    List<KernelExpr> neutralValues = neutral.stream().map(code::scalar).toList();
    ThreadScratch totalsScratch = code.beginKernel();
    Kernel totalsKernel =
        KernelAssembler.assemble(
            name + "_totals", perChunk(code, chunking, neutralValues, fold, views, totals, null));
    ThreadScratch carriesScratch = code.beginKernel();
    Kernel carriesKernel =
        KernelAssembler.assemble(
            name + "_carries", carries(code, chunking, neutralValues, combine, totals, carries));
    List<KernelExpr> carryIn = new ArrayList<>();
    KernelExpr.Var chunkOfThread = group.fresh("chunk", ScalarType.I64);
    carries.forEach(c -> carryIn.add(new KernelExpr.Load(c, chunkOfThread)));
    ThreadScratch rescanScratch = code.beginKernel();
    Kernel rescanKernel =
        KernelAssembler.assemble(
            name + "_rescan",
            perChunkFrom(code, chunking, chunkOfThread, carryIn, fold, views, null, results));
    steps.addAll(totalsScratch.launch(totalsKernel, chunking.blocks()));
    steps.addAll(carriesScratch.launch(carriesKernel, KernelExprs.ONE));
    steps.addAll(rescanScratch.launch(rescanKernel, chunking.blocks()));
    return new KernelGroup(
        name,
        group.inputs(),
        List.of(totalsKernel, carriesKernel, rescanKernel),
        steps,
        outputs,
        group.errors());
  }

  private static Buffer allocate(
      GroupContext group, String base, ScalarType type, KernelExpr elements, List<HostStep> steps) {
    Buffer buffer = group.freshBuffer(base, type);
    steps.add(new HostStep.Allocate(buffer, elements));
    return buffer;
  }

  private static List<KernelStmt> perChunk(
      ThreadCode code,
      Chunking chunking,
      List<KernelExpr> initial,
      Lambda fold,
      List<ArrayView> views,
      List<Buffer> totals,
      List<Buffer> prefixes) {
    KernelExpr.Var chunk = code.group().fresh("chunk", ScalarType.I64);
    return perChunkFrom(code, chunking, chunk, initial, fold, views, totals, prefixes);
  }

  /**
   * A thread per chunk {@code chunk < C}: folds its chunk from {@code initial}, writing each prefix
   * to {@code prefixes} and the chunk's total to {@code totals} (either may be {@code null}).
   */
  private static List<KernelStmt> perChunkFrom(
      ThreadCode code,
      Chunking chunking,
      KernelExpr.Var chunk,
      List<KernelExpr> initial,
      Lambda fold,
      List<ArrayView> views,
      List<Buffer> totals,
      List<Buffer> prefixes) {
    GroupContext group = code.group();
    List<KernelStmt> work = new ArrayList<>();
    List<KernelExpr.Var> accs = code.declareAccumulators(initial, work);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    code.foldStep(fold, accs, views, i, step);
    for (int k = 0; prefixes != null && k < accs.size(); k++) {
      step.add(new KernelStmt.Store(prefixes.get(k), i, accs.get(k)));
    }
    work.add(chunking.overChunk(chunk, i, step));
    for (int k = 0; totals != null && k < accs.size(); k++) {
      work.add(new KernelStmt.Store(totals.get(k), chunk, accs.get(k)));
    }
    return chunking.threadPerChunk(chunk, work);
  }

  /** One thread: {@code carry[0] = neutral, carry[c+1] = combine(carry[c], total[c])}. */
  private static List<KernelStmt> carries(
      ThreadCode code,
      Chunking chunking,
      List<KernelExpr> neutral,
      Lambda combine,
      List<Buffer> totals,
      List<Buffer> carries) {
    GroupContext group = code.group();
    List<KernelStmt> work = new ArrayList<>();
    List<KernelExpr.Var> carry = code.declareAccumulators(neutral, work);
    KernelExpr.Var c = group.fresh("c", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    List<Binding> args = new ArrayList<>();
    for (int k = 0; k < carry.size(); k++) {
      step.add(new KernelStmt.Store(carries.get(k), c, carry.get(k)));
      args.add(new Binding.Scalar(carry.get(k)));
    }
    totals.forEach(t -> args.add(new Binding.Scalar(new KernelExpr.Load(t, c))));
    List<KernelExpr.Var> next = code.applyToLocals(combine, args, step);
    for (int k = 0; k < carry.size(); k++) {
      step.add(new KernelStmt.Assign(carry.get(k), next.get(k)));
    }
    work.add(new KernelStmt.For(c, ZERO, chunking.chunks(), KernelExprs.ONE, step));
    return List.of(new KernelStmt.If(eq(GLOBAL_THREAD, ZERO), work, List.of()));
  }
}
