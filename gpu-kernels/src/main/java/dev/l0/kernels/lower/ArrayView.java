package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.and;
import static dev.l0.kernels.lower.KernelExprs.inRange;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.KernelExpr;
import java.util.ArrayList;
import java.util.List;

/**
 * What an array of a program stands for in kernel code: element {@code [i1, ..., ik]} is the
 * element of {@code source} at {@code offset + sum(ij * strides j)}. Arrays in buffers are
 * row-major; a replicated array repeats its rows with stride 0 and an {@code iota} computes its
 * elements. {@code valid} is false where an index that selected this part was out of bounds (an
 * error was raised then, and nothing may be read through the view). A view without dimensions is
 * one element.
 */
record ArrayView(
    Source source,
    KernelExpr offset,
    List<KernelExpr> dims,
    List<KernelExpr> strides,
    KernelExpr valid)
    implements Binding {
  ArrayView {
    dims = List.copyOf(dims);
    strides = List.copyOf(strides);
  }

  /** Where the elements come from. */
  sealed interface Source permits Memory, Replicated, Iota {}

  /** A global buffer. */
  record Memory(Buffer buffer) implements Source {}

  /** Every element is {@code value} (a replicated scalar). */
  record Replicated(KernelExpr value) implements Source {}

  /** The element at offset {@code i} is {@code i} as a {@code type} ({@code iota}). */
  record Iota(ScalarType type) implements Source {}

  /** The row-major array of {@code dims} starting at {@code offset} of {@code buffer}. */
  static ArrayView rowMajor(Buffer buffer, KernelExpr offset, List<KernelExpr> dims) {
    return new ArrayView(new Memory(buffer), offset, dims, rowMajorStrides(dims), KernelExprs.TRUE);
  }

  /**
   * The array of {@code dims} whose copy in {@code buffer} has the row index innermost: the
   * row-major {@code [R][dims 0]} matrix, {@code R} the elements of one row, that transposes the
   * array seen as {@code [dims 0][R]} ({@link TiledTranspose}). Neighbouring rows are neighbours in
   * memory, so threads reading one row each read consecutive elements.
   */
  static ArrayView rowIndexInnermost(Buffer buffer, List<KernelExpr> dims) {
    List<KernelExpr> strides = new ArrayList<>(List.of(KernelExprs.ONE));
    for (KernelExpr rowStride : rowMajorStrides(dims.subList(1, dims.size()))) {
      strides.add(mul(rowStride, dims.get(0)));
    }
    return new ArrayView(new Memory(buffer), KernelExprs.ZERO, dims, strides, KernelExprs.TRUE);
  }

  private static List<KernelExpr> rowMajorStrides(List<KernelExpr> dims) {
    List<KernelExpr> strides = new ArrayList<>();
    KernelExpr stride = KernelExprs.ONE;
    for (int d = dims.size() - 1; d >= 0; d--) {
      strides.add(0, stride);
      stride = mul(stride, dims.get(d));
    }
    return strides;
  }

  /** Whether the elements lie in row-major order from {@code offset} (or are all one value). */
  boolean isContiguous() {
    return source instanceof Replicated || strides.equals(rowMajorStrides(dims));
  }

  /**
   * The same elements in row-major order with the sizes {@code newDims} (a contiguous view only).
   */
  ArrayView reshaped(List<KernelExpr> newDims, KernelExpr ok) {
    return new ArrayView(source, offset, newDims, rowMajorStrides(newDims), and(valid, ok));
  }

  /** The rows {@code [start, start + length)}. */
  ArrayView slice(KernelExpr start, KernelExpr length, KernelExpr ok) {
    List<KernelExpr> newDims = new ArrayList<>(List.of(length));
    newDims.addAll(dims.subList(1, dims.size()));
    return new ArrayView(
        source, add(offset, mul(start, strides.get(0))), newDims, strides, and(valid, ok));
  }

  /**
   * {@code transpose(k, n, a)} (thesis §2.3): dimension {@code k} moves to position {@code k + n};
   * an empty array keeps its inner sizes, so a {@code [0][3]} array becomes a {@code [3][0]} one.
   */
  ArrayView transposed(int k, int n) {
    List<Integer> order = new ArrayList<>();
    for (int d = 0; d < rank(); d++) {
      order.add(d);
    }
    order.add(k + n, order.remove(k));
    List<KernelExpr> newDims = new ArrayList<>();
    List<KernelExpr> newStrides = new ArrayList<>();
    for (int d : order) {
      newDims.add(dims.get(d));
      newStrides.add(strides.get(d));
    }
    return new ArrayView(source, offset, newDims, newStrides, valid);
  }

  /** {@code count} copies of this array as the rows of a new one (stride 0). */
  ArrayView replicated(KernelExpr count) {
    List<KernelExpr> newDims = new ArrayList<>(List.of(count));
    newDims.addAll(dims);
    List<KernelExpr> newStrides = new ArrayList<>(List.of(KernelExprs.ZERO));
    newStrides.addAll(strides);
    return new ArrayView(source, offset, newDims, newStrides, valid);
  }

  /** The elements of one row, counted row-major from the dimensions. */
  KernelExpr rowMajorRowElements() {
    KernelExpr elements = KernelExprs.ONE;
    for (KernelExpr d : dims.subList(1, dims.size())) {
      elements = mul(elements, d);
    }
    return elements;
  }

  int rank() {
    return dims.size();
  }

  ScalarType elementType() {
    if (source instanceof Memory m) {
      return m.buffer().elementType();
    }
    return source instanceof Replicated r ? r.value().type() : ((Iota) source).type();
  }

  /** The buffer of a view of memory (destinations always are). */
  Buffer buffer() {
    if (source instanceof Memory m) {
      return m.buffer();
    }
    throw new IllegalStateException("not a view of a buffer: " + source);
  }

  /**
   * Row {@code index} (an {@code i64}), its validity including the bounds check of {@code index}.
   */
  ArrayView row(KernelExpr index) {
    return new ArrayView(
        source,
        add(offset, mul(index, strides.get(0))),
        dims.subList(1, dims.size()),
        strides.subList(1, strides.size()),
        and(valid, inRange(index, dims.get(0))));
  }

  /** Row {@code index} where {@code index} is known to be in bounds (a loop over the rows). */
  ArrayView rowInBounds(KernelExpr index) {
    return new ArrayView(
        source,
        add(offset, mul(index, strides.get(0))),
        dims.subList(1, dims.size()),
        strides.subList(1, strides.size()),
        valid);
  }

  /** The element this zero-dimensional view stands for. */
  KernelExpr load() {
    if (source instanceof Memory m) {
      return new KernelExpr.Load(m.buffer(), offset);
    }
    if (source instanceof Replicated r) {
      return r.value();
    }
    return KernelExprs.convert(offset, ((Iota) source).type());
  }
}
