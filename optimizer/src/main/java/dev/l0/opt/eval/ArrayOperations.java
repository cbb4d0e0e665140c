package dev.l0.opt.eval;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.values.Shape;
import dev.l0.opt.ir.InternalTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The first-order array operations of thesis §2.3 on run-time values (indexing, in-place update,
 * literals, iota, replicate, size, reshape, transpose, split, concat), failing with the same
 * {@link L0RuntimeError} operations as the reference interpreter. It repeats the parts of the
 * interpreter's package-private {@code dev.l0.interp.ArrayOperations} that internal L0 needs;
 * once that class is public, this one should delegate to it.
 */
final class ArrayOperations {
  private ArrayOperations() {}

  static Value index(Value.Array array, List<Long> indices, SourcePos pos) {
    Value v = array;
    for (long i : indices) {
      Value.Array a = (Value.Array) v;
      v = a.get(checkedIndex("index", i, a.length(), pos));
    }
    return v;
  }

  private static int checkedIndex(String operation, long i, int length, SourcePos pos) {
    if (i < 0 || i >= length) {
      throw new L0RuntimeError(operation, pos, "index " + i + " out of bounds for an array of size " + length);
    }
    return (int) i;
  }

  static Value update(Value.Array array, List<Long> indices, Value value, SourcePos pos) {
    int i = checkedIndex("update", indices.get(0), array.length(), pos);
    Value replacement;
    if (indices.size() == 1) {
      if (!Shape.of(array.get(i)).equals(Shape.of(value))) {
        throw new L0RuntimeError("update", pos, "the new value has shape " + Shape.of(value)
            + " but the updated part has shape " + Shape.of(array.get(i)));
      }
      replacement = value;
    } else {
      replacement = update((Value.Array) array.get(i), indices.subList(1, indices.size()), value, pos);
    }
    List<Value> rows = new ArrayList<>(array.elements());
    rows.set(i, replacement);
    return new Value.Array(array.elementType(), rows);
  }

  /** An array of {@code rows}, which must all have one shape (thesis §2.1); else {@code operation} fails. */
  static Value.Array regular(Type rowType, List<Value> rows, String operation, SourcePos pos) {
    int irregular = Shape.firstIrregular(rows);
    if (irregular >= 0) {
      throw new L0RuntimeError(operation, pos, "irregular array: element " + irregular + " has shape "
          + Shape.of(rows.get(irregular)) + " but element 0 has shape " + Shape.of(rows.get(0)));
    }
    return new Value.Array(rowType, rows);
  }

  static Value iota(ScalarValue.Int count, SourcePos pos) {
    checkedCount("iota", count.value(), pos);
    List<Value> rows = new ArrayList<>();
    for (long i = 0; i < count.value(); i++) {
      rows.add(new ScalarValue.Int(count.type(), i));
    }
    return new Value.Array(count.type(), rows);
  }

  static Value replicate(long count, Value value, Type rowType, SourcePos pos) {
    checkedCount("replicate", count, pos);
    return new Value.Array(rowType, Collections.nCopies((int) count, value));
  }

  private static void checkedCount(String operation, long count, SourcePos pos) {
    if (count < 0) {
      throw new L0RuntimeError(operation, pos, "negative size " + count);
    }
    if (count > Integer.MAX_VALUE - 8) {
      throw new L0RuntimeError(operation, pos, "size " + count + " exceeds the interpreter's array limit");
    }
  }

  /** The sizes of every dimension; an empty array's inner sizes count as 0. */
  static List<Long> shape(Value v) {
    List<Long> out = new ArrayList<>();
    Value cur = v;
    while (cur instanceof Value.Array a) {
      out.add((long) a.length());
      cur = a.length() == 0 ? emptyRow(a.elementType()) : a.get(0);
    }
    return out;
  }

  private static Value emptyRow(Type rowType) {
    return rowType instanceof Type.Array a ? new Value.Array(a.element(), List.of()) : ScalarValue.bool(false);
  }

  static Value reshape(List<Long> dims, Value.Array array, ScalarType element, SourcePos pos) {
    List<Value> leaves = new ArrayList<>();
    collectLeaves(array, leaves);
    long product = 1;
    for (long d : dims) {
      if (d < 0) {
        throw new L0RuntimeError("reshape", pos, "negative size " + d);
      }
      product *= d;
    }
    if (product != leaves.size()) {
      throw new L0RuntimeError("reshape", pos, "cannot reshape " + leaves.size() + " elements to " + dims);
    }
    return build(dims, element, index -> leaves.get((int) linear(index, dims)));
  }

  private static void collectLeaves(Value v, List<Value> out) {
    if (v instanceof Value.Array a) {
      a.elements().forEach(e -> collectLeaves(e, out));
    } else {
      out.add(v);
    }
  }

  private static long linear(List<Long> index, List<Long> dims) {
    long offset = 0;
    for (int k = 0; k < dims.size(); k++) {
      offset = offset * dims.get(k) + index.get(k);
    }
    return offset;
  }

  /** transpose(k, n, a): dimension {@code k} of {@code a} becomes dimension {@code k + n} of the result (thesis §2.3). */
  static Value transpose(int k, int n, Value.Array array, Type resultType) {
    List<Long> source = shape(array);
    List<Long> dims = new ArrayList<>(source);
    long moved = dims.remove(k);
    dims.add(k + n, moved);
    ScalarType element = (ScalarType) resultType.baseElement();
    int rank = source.size();
    return build(dims, element, index -> {
      List<Long> sourceIndex = new ArrayList<>(index.subList(0, rank));
      long i = sourceIndex.remove(k + n);
      sourceIndex.add(k, i);
      return index(array, sourceIndex, SourcePos.NONE);
    });
  }

  /** The array of shape {@code dims} whose element at each index is {@code leaf(index)}. */
  private static Value build(List<Long> dims, ScalarType element, Function<List<Long>, Value> leaf) {
    return build(dims, 0, new ArrayList<>(), element, leaf);
  }

  private static Value build(List<Long> dims, int depth, List<Long> prefix, ScalarType element,
      Function<List<Long>, Value> leaf) {
    if (depth == dims.size()) {
      return leaf.apply(prefix);
    }
    Type rowType = element;
    for (int k = dims.size() - 1; k > depth; k--) {
      rowType = InternalTypes.arrayOf(rowType, dev.l0.ir.Dim.UNKNOWN);
    }
    List<Value> rows = new ArrayList<>();
    for (long i = 0; i < dims.get(depth); i++) {
      prefix.add(i);
      rows.add(build(dims, depth + 1, prefix, element, leaf));
      prefix.remove(prefix.size() - 1);
    }
    return new Value.Array(rowType, rows);
  }

  static List<Value> split(long at, Value.Array array, SourcePos pos) {
    if (at < 0 || at > array.length()) {
      throw new L0RuntimeError("split", pos, "split point " + at + " outside an array of size " + array.length());
    }
    List<Value> rows = array.elements();
    return List.of(new Value.Array(array.elementType(), rows.subList(0, (int) at)),
        new Value.Array(array.elementType(), rows.subList((int) at, rows.size())));
  }

  static Value concat(Value.Array left, Value.Array right, SourcePos pos) {
    if (left.length() > 0 && right.length() > 0 && !Shape.of(left.get(0)).equals(Shape.of(right.get(0)))) {
      throw new L0RuntimeError("concat", pos, "rows of shapes " + Shape.of(left.get(0)) + " and " + Shape.of(right.get(0)));
    }
    List<Value> rows = new ArrayList<>(left.elements());
    rows.addAll(right.elements());
    return new Value.Array(left.elementType(), rows);
  }
}
