package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.ZERO;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.lt;
import static dev.l0.kernels.lower.KernelExprs.mul;
import static dev.l0.kernels.lower.KernelExprs.sub;

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
 * A top-level reduction or scan whose accumulators include arrays (an operator that combines
 * arrays), in the contract's order with every accumulator in global memory: each accumulator has a
 * buffer of slots, one per chunk, each as large as the neutral element (whose shape the host
 * knows). A reduction folds each chunk into its slot (kernel {@code _array_partials}), then one
 * block combines the slots by the pairwise tree (kernel {@code _array_tree}); a scan folds each
 * chunk into a total, one thread makes the carries, and each chunk is folded again from its carry,
 * every accumulator copied into its row of the result. Intermediate results of the operator go to
 * the thread's scratch first, as the operator may read its arguments while it makes them. Its
 * kernel names say that it runs this way. A reduce whose operator combines wide rows element by
 * element runs as a map of reduces instead ({@link MapOfReducesLowering}), in the same order per
 * element.
 */
final class ArrayAccumulatorLowering {
  /** The accumulators, one per result, in buffers of slots. */
  private record Slots(List<Buffer> buffers, List<List<KernelExpr>> shapes) {
    /** Slot {@code index} of every accumulator: a view of an array, or of one element. */
    List<Binding> at(KernelExpr index) {
      List<Binding> slots = new ArrayList<>();
      for (int k = 0; k < buffers.size(); k++) {
        slots.add(
            ArrayView.rowMajor(buffers.get(k), mul(index, elements(shapes.get(k))), shapes.get(k)));
      }
      return slots;
    }
  }

  private ArrayAccumulatorLowering() {}

  /** Whether one of the neutral elements is an array. */
  static boolean needed(ThreadCode code, List<SubExp> neutral) {
    return neutral.stream().anyMatch(s -> s instanceof SubExp.Var v && code.isArray(v));
  }

  static KernelGroup reduce(
      GroupContext group,
      ThreadCode code,
      String name,
      List<Ident> pattern,
      Lambda combine,
      Lambda fold,
      List<SubExp> neutral,
      List<ArrayView> views) {
    Chunking chunking = Chunking.of(views.get(0).dims().get(0), group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    Slots partials = slots(group, code, "partial", pattern, neutral, chunking.chunks(), steps);
    List<GroupOutput> outputs = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      outputs.add(
          new GroupOutput(
              pattern.get(k).name(), partials.buffers().get(k), partials.shapes().get(k)));
    }
    ThreadScratch chunkScratch = code.beginKernel();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    List<KernelStmt> work = new ArrayList<>();
    List<Binding> accs = partials.at(chunk);
    initialise(code, accs, neutral, work);
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    code.foldInto(fold, accs, views, i, step);
    work.add(chunking.overChunk(chunk, i, step));
    Kernel chunks =
        KernelAssembler.assemble(name + "_array_partials", chunking.threadPerChunk(chunk, work));
    ThreadScratch treeScratch = code.beginKernel();
    Kernel tree =
        KernelAssembler.assemble(
            name + "_array_tree", tree(code, combine, partials, chunking.chunks()));
    steps.addAll(chunkScratch.launch(chunks, chunking.blocks()));
    steps.addAll(treeScratch.launch(tree, KernelExprs.ONE));
    return new KernelGroup(
        name, group.inputs(), List.of(chunks, tree), steps, outputs, group.errors());
  }

  static KernelGroup scan(
      GroupContext group,
      ThreadCode code,
      String name,
      List<Ident> pattern,
      Lambda combine,
      Lambda fold,
      List<SubExp> neutral,
      List<ArrayView> views) {
    KernelExpr n = views.get(0).dims().get(0);
    Chunking chunking = Chunking.of(n, group);
    List<HostStep> steps = new ArrayList<>(chunking.define());
    Slots totals = slots(group, code, "total", pattern, neutral, chunking.chunks(), steps);
    Slots carries = slots(group, code, "carry", pattern, neutral, chunking.chunks(), steps);
    Slots results = slots(group, code, "scan", pattern, neutral, n, steps);
    List<GroupOutput> outputs = new ArrayList<>();
    for (int k = 0; k < pattern.size(); k++) {
      List<KernelExpr> shape = new ArrayList<>(List.of(n));
      shape.addAll(results.shapes().get(k));
      outputs.add(new GroupOutput(pattern.get(k).name(), results.buffers().get(k), shape));
    }
    ThreadScratch totalsScratch = code.beginKernel();
    KernelExpr.Var chunk = group.fresh("chunk", ScalarType.I64);
    List<KernelStmt> totalsWork = new ArrayList<>();
    initialise(code, totals.at(chunk), neutral, totalsWork);
    totalsWork.add(foldChunk(code, chunking, chunk, fold, totals.at(chunk), views, null));
    Kernel totalsKernel =
        KernelAssembler.assemble(
            name + "_array_totals", chunking.threadPerChunk(chunk, totalsWork));

    ThreadScratch carriesScratch = code.beginKernel();
    List<KernelStmt> carriesWork = new ArrayList<>();
    initialise(code, carries.at(ZERO), neutral, carriesWork);
    KernelExpr.Var c = group.fresh("c", ScalarType.I64);
    List<KernelStmt> carryStep = new ArrayList<>();
    List<Binding> next = carries.at(add(c, KernelExprs.ONE));
    copy(code, carries.at(c), next, carryStep);
    code.accumulate(combine, next, arguments(totals.at(c)), carryStep);
    carriesWork.add(
        new KernelStmt.For(
            c, ZERO, sub(chunking.chunks(), KernelExprs.ONE), KernelExprs.ONE, carryStep));
    Kernel carriesKernel =
        KernelAssembler.assemble(
            name + "_array_carries",
            List.of(new KernelStmt.If(eq(GLOBAL_THREAD, ZERO), carriesWork, List.of())));

    ThreadScratch rescanScratch = code.beginKernel();
    KernelExpr.Var again = group.fresh("chunk", ScalarType.I64);
    List<KernelStmt> rescanWork =
        List.of(foldChunk(code, chunking, again, fold, carries.at(again), views, results));
    Kernel rescanKernel =
        KernelAssembler.assemble(
            name + "_array_rescan", chunking.threadPerChunk(again, rescanWork));
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

  /**
   * The fold over chunk {@code chunk} into {@code accs}, each step's accumulators copied to {@code
   * prefixes} (if any) at its row.
   */
  private static KernelStmt foldChunk(
      ThreadCode code,
      Chunking chunking,
      KernelExpr chunk,
      Lambda fold,
      List<Binding> accs,
      List<ArrayView> views,
      Slots prefixes) {
    KernelExpr.Var i = code.group().fresh("i", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    code.foldInto(fold, accs, views, i, step);
    if (prefixes != null) {
      copy(code, accs, prefixes.at(i), step);
    }
    return chunking.overChunk(chunk, i, step);
  }

  /** One block: the pairwise tree over the {@code count} slots, level by level. */
  private static List<KernelStmt> tree(
      ThreadCode code, Lambda combine, Slots partials, KernelExpr count) {
    GroupContext group = code.group();
    KernelExpr.Var s = group.fresh("s", ScalarType.I64);
    KernelExpr.Var j = group.fresh("j", ScalarType.I64);
    KernelExpr twice = mul(i64(2), s);
    List<KernelStmt> combineStep = new ArrayList<>();
    code.accumulate(combine, partials.at(j), arguments(partials.at(add(j, s))), combineStep);
    KernelStmt pairs =
        new KernelStmt.For(
            j,
            mul(THREAD_IDX, twice),
            count,
            mul(BLOCK_DIM, twice),
            List.of(new KernelStmt.If(lt(add(j, s), count), combineStep, List.of())));
    return List.of(
        new KernelStmt.Declare(s, KernelExprs.ONE),
        new KernelStmt.While(
            lt(s, count),
            List.of(pairs, new KernelStmt.Barrier(), new KernelStmt.Assign(s, twice))));
  }

  /** A buffer of {@code count} slots per accumulator, each of the shape of its neutral element. */
  private static Slots slots(
      GroupContext group,
      ThreadCode code,
      String base,
      List<Ident> pattern,
      List<SubExp> neutral,
      KernelExpr count,
      List<HostStep> steps) {
    List<Buffer> buffers = new ArrayList<>();
    List<List<KernelExpr>> shapes = new ArrayList<>();
    for (int k = 0; k < neutral.size(); k++) {
      SubExp ne = neutral.get(k);
      List<KernelExpr> shape;
      ScalarType type;
      if (ne instanceof SubExp.Var v && code.isArray(v)) {
        ArrayView view = code.array(ne);
        shape = view.dims();
        type = view.elementType();
        if (!shape.stream().allMatch(group::isHostExpression)) {
          throw new UnsupportedKernelException(
              "a neutral array whose size is not known before the kernel runs");
        }
      } else {
        shape = List.of();
        type = code.scalar(ne).type();
      }
      Buffer buffer = group.freshBuffer(base + "_" + pattern.get(k).name(), type);
      steps.add(new HostStep.Allocate(buffer, mul(count, elements(shape))));
      buffers.add(buffer);
      shapes.add(shape);
    }
    return new Slots(buffers, shapes);
  }

  private static KernelExpr elements(List<KernelExpr> shape) {
    KernelExpr e = KernelExprs.ONE;
    for (KernelExpr d : shape) {
      e = mul(e, d);
    }
    return e;
  }

  /** The neutral elements written into {@code accs}. */
  private static void initialise(
      ThreadCode code, List<Binding> accs, List<SubExp> neutral, List<KernelStmt> out) {
    for (int k = 0; k < accs.size(); k++) {
      ArrayView slot = (ArrayView) accs.get(k);
      SubExp ne = neutral.get(k);
      if (slot.rank() == 0) {
        out.add(new KernelStmt.Store(slot.buffer(), slot.offset(), code.scalar(ne)));
      } else {
        ArrayView source = code.array(ne);
        List<KernelStmt> body = new ArrayList<>();
        code.copyElements(source, slot, body);
        ThreadCode.addGuarded(source.valid(), body, List.of(), out);
      }
    }
  }

  /** Each slot of {@code from} copied into the slot of {@code to}. */
  private static void copy(
      ThreadCode code, List<Binding> from, List<Binding> to, List<KernelStmt> out) {
    for (int k = 0; k < from.size(); k++) {
      code.copyElements((ArrayView) from.get(k), (ArrayView) to.get(k), out);
    }
  }

  private static List<Binding> arguments(List<Binding> slots) {
    return slots.stream().map(ThreadCode::asArgument).toList();
  }
}
