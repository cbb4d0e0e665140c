package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.BLOCK_IDX;
import static dev.l0.kernels.lower.KernelExprs.GRID_DIM;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.min;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Segmented reductions and scans: a top-level map whose function's body is one redomap, reduce,
 * scanomap or scan over its row (thesis §7.1's fused forms nested in a map; ISWIM, §8.3, makes such
 * segmented scans) run with a block per row, for outer sizes too small to fill the device with a
 * thread per row. Thread {@code t} of the block folds the {@code t}-th contiguous slice of {@code
 * ceil(m / blockDim)} of the row's {@code m} elements from the neutral element. A reduction then
 * combines the non-empty slices' accumulators in order by the block's pairwise tree, and thread 0
 * writes the row's results. A scan has thread 0 turn the slices' accumulators into exclusive
 * carries (a left fold of them from the neutral element), and each thread folds its slice again
 * from its carry, writing every prefix.
 *
 * <p>That bracketing differs from the thread-per-row left fold, so the lowering only offers it
 * where every bracketing gives the same bits: integer and boolean accumulators, combined by the
 * associative operator with a neutral element that L0 requires of a reduction or scan (integer
 * arithmetic wraps around exactly). Floating-point rows keep the thread per row, so a program's
 * results never depend on the device.
 */
final class SegmentedRows {
  private static final Set<ScalarType> EXACT_TYPES =
      EnumSet.of(ScalarType.BOOL, ScalarType.I32, ScalarType.I64);

  private final Lambda function;
  private final Lambda fold;
  private final Lambda combine;
  private final List<SubExp> neutral;
  private final List<SubExp> inputs;
  private final List<ScalarType> accumulatorTypes;
  private final boolean scan;

  private SegmentedRows(
      Lambda function,
      Lambda fold,
      Lambda combine,
      List<SubExp> neutral,
      List<SubExp> inputs,
      List<ScalarType> accumulatorTypes,
      boolean scan) {
    this.function = function;
    this.fold = fold;
    this.combine = combine;
    this.neutral = neutral;
    this.inputs = inputs;
    this.accumulatorTypes = accumulatorTypes;
    this.scan = scan;
  }

  /**
   * The row reduction or scan of {@code map}'s function, where its body is exactly one with integer
   * or boolean accumulators; else empty.
   */
  static Optional<SegmentedRows> of(Exp.Screma map) {
    Lambda function = map.function();
    Body body = function.body();
    if (body.stms().size() != 1 || !returnsPattern(body)) {
      return Optional.empty();
    }
    Stm stm = body.stms().get(0);
    Exp e = stm.exp();
    if (!(e instanceof Exp.Screma s && s.folds())) {
      return Optional.empty();
    }
    boolean scan = s.scans();
    List<ScalarType> types = new ArrayList<>();
    for (Ident id : stm.pattern()) {
      Type accumulator = id.type();
      if (scan) {
        if (!(accumulator instanceof Type.Array array)) {
          return Optional.empty();
        }
        accumulator = array.element();
      }
      if (!(accumulator instanceof ScalarType scalar) || !EXACT_TYPES.contains(scalar)) {
        return Optional.empty();
      }
      types.add(scalar);
    }
    return of(function, s.fold(), s.combiner(), s.neutral(), s.inputs(), types, scan);
  }

  private static Optional<SegmentedRows> of(
      Lambda function,
      Lambda fold,
      Lambda combine,
      List<SubExp> neutral,
      List<SubExp> inputs,
      List<ScalarType> types,
      boolean scan) {
    if (inputs.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SegmentedRows(function, fold, combine, neutral, inputs, types, scan));
  }

  private static boolean returnsPattern(Body body) {
    List<Ident> pattern = body.stms().get(0).pattern();
    List<SubExp> result = body.result();
    if (result.size() != pattern.size()) {
      return false;
    }
    for (int k = 0; k < result.size(); k++) {
      if (!(result.get(k) instanceof SubExp.Var v) || !v.name().equals(pattern.get(k).name())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The block-per-row code: block {@code b} handles rows {@code b, b + gridDim, ...} below {@code
   * rows} and writes row {@code r}'s results into row {@code r} of {@code targets}.
   */
  List<KernelStmt> blockPerRow(
      ThreadCode code, List<ArrayView> mapInputs, KernelExpr rows, List<ArrayView> targets) {
    GroupContext group = code.group();
    KernelExpr.Var row = group.fresh("row", ScalarType.I64);
    code.bind(function, mapInputs.stream().map(in -> ThreadCode.row(in, row)).toList());
    List<KernelStmt> body = new ArrayList<>();
    List<KernelExpr.Var> accs =
        code.declareAccumulators(neutral.stream().map(code::scalar).toList(), body);
    List<ArrayView> views = inputs.stream().map(code::array).toList();
    KernelExpr elements = views.get(0).dims().get(0);
    KernelExpr.Var slice = group.fresh("slice", ScalarType.I64);
    body.add(new KernelStmt.Declare(slice, ReductionOrder.ceilDivExpr(elements, BLOCK_DIM)));
    body.addAll(overSlice(code, accs, views, slice, elements, j -> List.of()));
    List<SharedArray> shared = new ArrayList<>();
    for (ScalarType type : accumulatorTypes) {
      shared.add(new SharedArray(group.freshName("row_" + type.keyword()), type, 1));
    }
    KernelExpr nonEmptySlices =
        ReductionOrder.ceilDivExpr(elements, KernelExprs.max(slice, KernelExprs.ONE));
    if (scan) {
      body.addAll(
          scanSlices(code, accs, views, shared, slice, elements, nonEmptySlices, row, targets));
    } else {
      body.addAll(PairwiseTree.blockTree(code, combine, accs, shared, nonEmptySlices));
      body.add(
          PairwiseTree.publishBlockResult(
              shared, targets.stream().map(ArrayView::buffer).toList(), row));
    }
    body.add(new KernelStmt.Barrier());
    return List.of(new KernelStmt.For(row, BLOCK_IDX, rows, GRID_DIM, body));
  }

  /**
   * {@code accs = fold(accs, element j)} over the running thread's slice, each step followed by
   * {@code after(j)}; nothing where an input view is not valid.
   */
  private List<KernelStmt> overSlice(
      ThreadCode code,
      List<KernelExpr.Var> accs,
      List<ArrayView> views,
      KernelExpr slice,
      KernelExpr elements,
      Function<KernelExpr, List<KernelStmt>> after) {
    KernelExpr.Var j = code.group().fresh("j", ScalarType.I64);
    List<KernelStmt> step = new ArrayList<>();
    code.foldStep(fold, accs, views, j, step);
    step.addAll(after.apply(j));
    KernelExpr end = min(mul(add(THREAD_IDX, KernelExprs.ONE), slice), elements);
    List<KernelStmt> guarded = new ArrayList<>();
    ThreadCode.addGuarded(
        ThreadCode.allValid(views),
        List.of(new KernelStmt.For(j, mul(THREAD_IDX, slice), end, KernelExprs.ONE, step)),
        List.of(),
        guarded);
    return guarded;
  }

  /**
   * The scan's carries and second pass: each thread refolds its slice from its carry, storing every
   * prefix.
   */
  private List<KernelStmt> scanSlices(
      ThreadCode code,
      List<KernelExpr.Var> accs,
      List<ArrayView> views,
      List<SharedArray> shared,
      KernelExpr slice,
      KernelExpr elements,
      KernelExpr nonEmptySlices,
      KernelExpr row,
      List<ArrayView> targets) {
    GroupContext group = code.group();
    List<KernelStmt> body = new ArrayList<>();
    for (int k = 0; k < accs.size(); k++) {
      body.add(new KernelStmt.SharedStore(shared.get(k), THREAD_IDX, accs.get(k)));
    }
    body.add(new KernelStmt.Barrier());
    List<KernelStmt> carries = new ArrayList<>();
    List<KernelExpr.Var> running =
        code.declareAccumulators(neutral.stream().map(code::scalar).toList(), carries);
    KernelExpr.Var t = group.fresh("t", ScalarType.I64);
    List<KernelStmt> next = new ArrayList<>();
    List<Binding> args = new ArrayList<>();
    running.forEach(r -> args.add(new Binding.Scalar(r)));
    for (int k = 0; k < accs.size(); k++) {
      KernelExpr.Var partial = group.fresh("partial", accumulatorTypes.get(k));
      next.add(new KernelStmt.Declare(partial, new KernelExpr.SharedLoad(shared.get(k), t)));
      next.add(new KernelStmt.SharedStore(shared.get(k), t, running.get(k)));
      args.add(new Binding.Scalar(partial));
    }
    List<KernelExpr.Var> combined = code.applyToLocals(combine, args, next);
    for (int k = 0; k < accs.size(); k++) {
      next.add(new KernelStmt.Assign(running.get(k), combined.get(k)));
    }
    carries.add(new KernelStmt.For(t, KernelExprs.ZERO, nonEmptySlices, KernelExprs.ONE, next));
    body.add(new KernelStmt.If(eq(THREAD_IDX, KernelExprs.ZERO), carries, List.of()));
    body.add(new KernelStmt.Barrier());
    for (int k = 0; k < accs.size(); k++) {
      body.add(
          new KernelStmt.Assign(accs.get(k), new KernelExpr.SharedLoad(shared.get(k), THREAD_IDX)));
    }
    body.addAll(
        overSlice(
            code,
            accs,
            views,
            slice,
            elements,
            j -> {
              List<KernelStmt> stores = new ArrayList<>();
              for (int k = 0; k < accs.size(); k++) {
                ArrayView prefix = targets.get(k).rowInBounds(row).rowInBounds(j);
                stores.add(new KernelStmt.Store(prefix.buffer(), prefix.offset(), accs.get(k)));
              }
              return stores;
            }));
    return body;
  }
}
