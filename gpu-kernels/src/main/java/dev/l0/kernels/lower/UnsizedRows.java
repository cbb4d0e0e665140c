package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_DIM;
import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.GRID_DIM;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.and;
import static dev.l0.kernels.lower.KernelExprs.eq;
import static dev.l0.kernels.lower.KernelExprs.i64;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupOutput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.ArrayList;
import java.util.List;

/**
 * A result of a top-level map whose row sizes only the rows tell (a row that is a filtered array,
 * say). Each thread writes its row row-major into {@code wide} at a stride of the rows' bounded
 * capacity ({@link UnsizedResult}) and its sizes into {@code sizes}; the host reads the first row's
 * sizes (over no rows, those {@link #storeZeroRowSizes} stored), allocates {@code buffer}, and a
 * second kernel copies every row to its place, raising the map's irregular-array error where a
 * row's sizes differ from the first's (arrays are regular), with the row and both shapes.
 */
final class UnsizedRows {
  private final int position;
  private final String name;
  private final int rank;
  private final Buffer buffer;
  private final Buffer wide;
  private final Buffer sizes;
  private final List<KernelExpr.Var> rowShape = new ArrayList<>();
  private UnsizedResult result;

  UnsizedRows(int position, String name, int rank, Buffer buffer, Buffer wide, Buffer sizes) {
    this.position = position;
    this.name = name;
    this.rank = rank;
    this.buffer = buffer;
    this.wide = wide;
    this.sizes = sizes;
  }

  int position() {
    return position;
  }

  UnsizedResult result() {
    return result;
  }

  /** Row {@code i}'s destination; its size locals are declared in {@code body}. */
  Destination destination(ThreadCode code, KernelExpr i, List<KernelStmt> body) {
    result = code.unsized(name, rank, body).in(wide);
    return new Destination.ToUnsized(result, mul(i, result.capacity()));
  }

  /** Row {@code i}'s sizes stored for the host and the compaction. */
  List<KernelStmt> storeSizes(KernelExpr i) {
    List<KernelStmt> stores = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      stores.add(new KernelStmt.Store(sizes, add(mul(i, i64(rank)), i64(d)), result.dims().get(d)));
    }
    return stores;
  }

  /**
   * Stores {@code dims}, the sizes of the function's result on the zero row, as the first row's
   * (the rows of a map over no rows take them), or where the function failed there the sizes its
   * type gives the host ({@link GroupContext#staticShape}).
   */
  KernelStmt storeZeroRowSizes(
      List<KernelExpr> dims, KernelExpr failed, List<KernelExpr> staticShape) {
    List<KernelStmt> computed = new ArrayList<>();
    List<KernelStmt> fromType = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      computed.add(new KernelStmt.Store(sizes, i64(d), dims.get(d)));
      fromType.add(new KernelStmt.Store(sizes, i64(d), staticShape.get(d)));
    }
    return new KernelStmt.If(failed, fromType, computed);
  }

  /** The allocations of the wide rows and of the sizes (at least one row's, zero-filled). */
  List<HostStep> allocate(GroupContext group, KernelExpr n) {
    List<HostStep> steps = new ArrayList<>(group.takeDeferredDefinitions());
    steps.add(new HostStep.Allocate(wide, mul(n, result.capacity())));
    steps.add(new HostStep.Allocate(sizes, mul(KernelExprs.max(n, KernelExprs.ONE), i64(rank))));
    return steps;
  }

  /** The kernel copying row {@code i} from its wide place to its place in {@code buffer}. */
  Kernel compaction(ThreadCode code, String kernelName, KernelExpr n) {
    GroupContext group = code.group();
    for (int d = 0; d < rank; d++) {
      rowShape.add(group.deferredHostScalar(name + "_row_d" + d));
    }
    KernelExpr.Var i = group.fresh("i", ScalarType.I64);
    KernelExpr same = KernelExprs.TRUE;
    KernelExpr elements = KernelExprs.ONE;
    List<KernelExpr> rowSizes = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      KernelExpr size = new KernelExpr.Load(sizes, add(mul(i, i64(rank)), i64(d)));
      rowSizes.add(size);
      same = and(same, eq(size, rowShape.get(d)));
      elements = mul(elements, rowShape.get(d));
    }
    KernelExpr.Var e = group.fresh("e", ScalarType.I64);
    KernelStmt copy =
        new KernelStmt.For(
            e,
            KernelExprs.ZERO,
            elements,
            KernelExprs.ONE,
            List.of(
                new KernelStmt.Store(
                    buffer,
                    add(mul(i, elements), e),
                    new KernelExpr.Load(wide, add(mul(i, result.capacity()), e)))));
    KernelStmt row =
        new KernelStmt.If(
            same,
            List.of(copy),
            List.of(code.irregularRow(i, rowSizes, List.<KernelExpr>copyOf(rowShape))));
    return KernelAssembler.assemble(
        kernelName + "_compact_" + position,
        List.of(new KernelStmt.For(i, GLOBAL_THREAD, n, mul(BLOCK_DIM, GRID_DIM), List.of(row))));
  }

  /** Reads the first row's sizes, allocates the result and launches {@code compact}. */
  List<HostStep> readSizesAndCompact(
      GroupContext group, KernelExpr n, Kernel compact, KernelExpr blocks) {
    List<HostStep> steps = new ArrayList<>();
    KernelExpr elements = n;
    for (int d = 0; d < rank; d++) {
      steps.add(new HostStep.ReadScalar(rowShape.get(d), sizes, i64(d)));
      elements = mul(elements, rowShape.get(d));
    }
    steps.add(new HostStep.Allocate(buffer, elements));
    steps.add(new HostStep.Launch(compact, blocks));
    return steps;
  }

  GroupOutput output(KernelExpr n) {
    List<KernelExpr> shape = new ArrayList<>(List.of(n));
    shape.addAll(rowShape);
    return new GroupOutput(name, buffer, shape);
  }
}
