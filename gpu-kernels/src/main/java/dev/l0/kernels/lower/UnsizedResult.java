package dev.l0.kernels.lower;

import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import java.util.ArrayList;
import java.util.List;

/**
 * An array result whose sizes the host does not know before the kernel runs (a branch or a map row
 * that returns a filtered array, say): each write records the host bounds of the written array's
 * sizes, and the result's space ({@code capacity} elements per result, a host scalar defined before
 * the launch) is their largest product. The thread keeps the written sizes in the locals {@code
 * dims}; {@code written} says whether one was written yet, as later writes (the rows of a map) must
 * have the same shape.
 */
record UnsizedResult(
    Buffer buffer,
    List<KernelExpr.Var> dims,
    KernelExpr.Var written,
    KernelExpr.Var capacity,
    List<List<KernelExpr>> boundsSeen) {

  UnsizedResult {
    dims = List.copyOf(dims);
  }

  /** A result of {@code rank} without its buffer yet ({@link #in}). */
  static UnsizedResult of(GroupContext group, int rank, String name) {
    List<KernelExpr.Var> dims = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      dims.add(group.fresh(name + "_d" + d, dev.l0.ir.ScalarType.I64));
    }
    return new UnsizedResult(
        null,
        dims,
        group.fresh(name + "_written", dev.l0.ir.ScalarType.BOOL),
        group.deferredHostScalar(name + "_capacity"),
        new ArrayList<>());
  }

  /** This result stored in {@code region}; the bounds seen are shared. */
  UnsizedResult in(Buffer region) {
    return new UnsizedResult(region, dims, written, capacity, boundsSeen);
  }

  /** The largest bound of each size over all writes (0 where nothing was written). */
  List<KernelExpr> dimBounds() {
    List<KernelExpr> bounds = new ArrayList<>();
    for (int d = 0; d < dims.size(); d++) {
      KernelExpr largest = KernelExprs.ZERO;
      for (List<KernelExpr> seen : boundsSeen) {
        largest =
            largest.equals(KernelExprs.ZERO) ? seen.get(d) : KernelExprs.max(largest, seen.get(d));
      }
      bounds.add(largest);
    }
    return bounds;
  }

  /** The capacity's definition: the product of {@link #dimBounds}. */
  KernelExpr capacityValue() {
    KernelExpr elements = KernelExprs.ONE;
    for (KernelExpr b : dimBounds()) {
      elements = KernelExprs.mul(elements, b);
    }
    return elements;
  }
}
