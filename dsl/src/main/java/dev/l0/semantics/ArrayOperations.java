package dev.l0.semantics;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.values.Shape;
import dev.l0.values.ValueTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The array operations of thesis §2.3 (indexing, in-place update, {@code iota},
 * {@code replicate}, {@code size}, {@code reshape}, {@code transpose}, {@code split},
 * {@code concat}, {@code zip}, {@code unzip}) and the regularity check every constructed array
 * passes (thesis §2.1). Each failure is an {@link L0RuntimeError} naming the operation and the
 * sizes involved.
 *
 * <p>A {@link Value.Array} records only its outer size, so an array with no elements does not
 * know its inner sizes: {@code size(1, a)} of an empty {@code a} is 0, and transposing a
 * {@code [0][n]} array gives an empty array rather than {@code n} empty rows.
 *
 * <p>The reference interpreter and the optimiser's evaluator both run these, so they fail in the
 * same operations with the same messages. A value of the wrong kind (an ill-typed program) is an
 * {@link L0CompileError}.
 */
public final class ArrayOperations {
  /** The most elements one dimension of an array may have: the JVM's limit on array lengths. */
  public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

  /** What one element of an interpreter array costs on the heap at least: a boxed scalar (24 bytes) and its slot in a list. */
  private static final long BYTES_PER_BOXED_ELEMENT = 28;

  private ArrayOperations() {}

  /** An array of {@code elements}, which must all have the same shape. */
  public static Value.Array regular(Type elementType, List<Value> elements, String operation, SourcePos pos) {
    int irregular = Shape.firstIrregular(elements);
    if (irregular >= 0) {
      throw new L0RuntimeError(operation, pos, "irregular array: element " + irregular + " has shape "
          + Shape.of(elements.get(irregular)) + " but element 0 has shape " + Shape.of(elements.get(0)));
    }
    return new Value.Array(elementType, elements);
  }

  /** {@code a[i1, ..., in]}: an element, or a slice when fewer indices than the rank are given. */
  public static Value index(Value array, List<Value> indices, SourcePos pos) {
    Value current = array;
    for (int d = 0; d < indices.size(); d++) {
      Value.Array a = Operands.array(current, pos);
      current = a.get(checkedIndex("index", a, d, indices.get(d), pos));
    }
    return current;
  }

  private static int checkedIndex(String operation, Value.Array a, int dimension, Value index, SourcePos pos) {
    long i = Operands.integer(index, pos).value();
    if (i < 0 || i >= a.length()) {
      throw new L0RuntimeError(operation, pos, "index " + i + " out of bounds for dimension " + dimension
          + " of size " + a.length());
    }
    return (int) i;
  }

  /** {@code src} with the element or slice at {@code indices} replaced by {@code v} (thesis §2.1.2). */
  public static Value update(Value source, List<Value> indices, Value v, SourcePos pos) {
    return updateFrom(source, indices, 0, v, pos);
  }

  private static Value updateFrom(Value current, List<Value> indices, int dimension, Value v, SourcePos pos) {
    if (dimension == indices.size()) {
      Shape expected = Shape.of(current);
      if (!Shape.of(v).equals(expected)) {
        throw new L0RuntimeError("update", pos, "the new value has shape " + Shape.of(v)
            + " but the updated part has shape " + expected);
      }
      return v;
    }
    Value.Array a = Operands.array(current, pos);
    int i = checkedIndex("update", a, dimension, indices.get(dimension), pos);
    List<Value> elements = new ArrayList<>(a.elements());
    elements.set(i, updateFrom(a.get(i), indices, dimension + 1, v, pos));
    return new Value.Array(a.elementType(), elements);
  }

  /** {@code iota(n)} = {@code [0, ..., n-1]}, of {@code n}'s integer type. */
  public static Value iota(Value count, SourcePos pos) {
    ScalarValue.Int n = Operands.integer(count, pos);
    int length = checkedCount("iota", n.value(), pos);
    requireHeapFor("iota", length, pos);
    List<Value> elements = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      elements.add(new ScalarValue.Int(n.type(), i));
    }
    return new Value.Array(n.type(), elements);
  }

  /** {@code replicate(n, v)}: {@code n} references to one {@code v}, so only the size is limited. */
  public static Value replicate(Value count, Value v, SourcePos pos) {
    int length = checkedCount("replicate", Operands.integer(count, pos).value(), pos);
    return new Value.Array(ValueTypes.typeOf(v), Collections.nCopies(length, v));
  }

  private static int checkedCount(String operation, long count, SourcePos pos) {
    if (count < 0) {
      throw new L0RuntimeError(operation, pos, "negative size " + count);
    }
    if (count > MAX_LENGTH) {
      throw new L0ResourceError(pos, operation + ": size " + count + " exceeds the limit of " + MAX_LENGTH
          + " elements in one dimension of an array (Java's array limit)", false);
    }
    return (int) count;
  }

  /**
   * Refuses, before allocating, an array of {@code length} new boxed elements that could not fit
   * in the JVM's maximum heap even if it were empty.
   */
  private static void requireHeapFor(String operation, int length, SourcePos pos) {
    long bytes = length * BYTES_PER_BOXED_ELEMENT;
    long heap = Runtime.getRuntime().maxMemory();
    if (bytes > heap) {
      throw new L0ResourceError(pos, operation + ": " + length + " elements need about " + (bytes >> 20)
          + " MiB, more than the JVM's maximum heap of " + (heap >> 20) + " MiB", true);
    }
  }

  /**
   * How many scalars {@code value} holds, counted through the first element of each array (arrays
   * are regular), so a replicate of a replicate costs nothing to count; a double, since the
   * product of the sizes may exceed a long.
   */
  public static double scalarCount(Value value) {
    if (value instanceof Value.Array a) {
      return a.length() == 0 ? 0 : a.length() * scalarCount(a.get(0));
    }
    if (value instanceof Value.Tuple t) {
      return t.elements().stream().mapToDouble(ArrayOperations::scalarCount).sum();
    }
    return 1;
  }

  /** {@code size(k, a)}, as an {@code i32}. */
  public static Value size(int dimension, Value array, SourcePos pos) {
    Value current = array;
    for (int d = 0; d < dimension; d++) {
      Value.Array a = Operands.array(current, pos);
      if (a.length() == 0) {
        return ScalarValue.i32(0);
      }
      current = a.get(0);
    }
    return ScalarValue.i32(Operands.array(current, pos).length());
  }

  /** The sizes of the first {@code rank} dimensions of {@code v}; those under an empty dimension are 0. */
  private static long[] dimensions(Value v, int rank, SourcePos pos) {
    long[] dims = new long[rank];
    Value current = v;
    for (int d = 0; d < rank; d++) {
      Value.Array a = Operands.array(current, pos);
      dims[d] = a.length();
      if (a.length() == 0) {
        break;
      }
      current = a.get(0);
    }
    return dims;
  }

  private static String describe(long[] dims) {
    StringBuilder text = new StringBuilder();
    for (long d : dims) {
      text.append('[').append(d).append(']');
    }
    return text.toString();
  }

  /** {@code reshape((d1, ..., dn), a)}: the elements of {@code a} in row-major order, regrouped. */
  public static Value reshape(List<Value> shape, Value array, SourcePos pos) {
    Type arrayType = ValueTypes.typeOf(array);
    int rank = arrayType.rank();
    long[] newDims = new long[shape.size()];
    long newCount = 1;
    for (int d = 0; d < newDims.length; d++) {
      newDims[d] = Operands.integer(shape.get(d), pos).value();
      if (newDims[d] < 0) {
        throw new L0RuntimeError("reshape", pos, "negative size " + newDims[d] + " in the new shape");
      }
      newCount = saturatingMultiply(newCount, newDims[d]);
    }
    List<Value> flat = new ArrayList<>();
    flatten(array, rank, flat);
    if (newCount != flat.size()) {
      throw new L0RuntimeError("reshape", pos, "cannot reshape an array of shape "
          + describe(dimensions(array, rank, pos)) + " (" + flat.size() + " elements) into shape "
          + Arrays.stream(newDims).mapToObj(Long::toString).collect(Collectors.joining(", ", "(", ")"))
          + " (" + (newCount == Long.MAX_VALUE ? "too many" : Long.toString(newCount)) + " elements)");
    }
    return build(arrayType.baseElement(), newDims, 0, flat, 0);
  }

  private static long saturatingMultiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  private static void flatten(Value v, int rank, List<Value> into) {
    if (rank == 0) {
      into.add(v);
      return;
    }
    for (Value element : ((Value.Array) v).elements()) {
      flatten(element, rank - 1, into);
    }
  }

  /** The array of shape {@code dims[level..]} holding {@code flat[from..]} in row-major order. */
  private static Value.Array build(Type base, long[] dims, int level, List<Value> flat, int from) {
    Type elementType = nestedArrayType(base, dims.length - level - 1);
    int length = (int) dims[level];
    if (level == dims.length - 1) {
      return new Value.Array(elementType, flat.subList(from, from + length));
    }
    int stride = 1;
    for (int d = level + 1; d < dims.length; d++) {
      stride *= (int) dims[d];
    }
    List<Value> rows = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      rows.add(build(base, dims, level + 1, flat, from + i * stride));
    }
    return new Value.Array(elementType, rows);
  }

  private static Type nestedArrayType(Type base, int rank) {
    return rank == 0 ? base : Type.array(nestedArrayType(base, rank - 1));
  }

  /**
   * {@code transpose(k, n, a)} (thesis §2.3): dimension {@code k} moves to position {@code k + n}
   * and the dimensions between shift over by one, so {@code transpose(0, 1, a)} is the ordinary
   * transpose.
   */
  public static Value transpose(int k, int n, Value array, SourcePos pos) {
    Type arrayType = ValueTypes.typeOf(array);
    int rank = arrayType.rank();
    if (k < 0 || k >= rank || k + n < 0 || k + n >= rank) {
      throw new L0CompileError(pos, "ill-typed program: transpose(" + k + ", " + n + ") of an array of rank " + rank);
    }
    List<Integer> order = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      order.add(d);
    }
    order.add(k + n, order.remove(k));
    long[] sourceDims = dimensions(array, rank, pos);
    long[] resultDims = new long[rank];
    for (int d = 0; d < rank; d++) {
      resultDims[d] = sourceDims[order.get(d)];
    }
    return transposed(array, arrayType.baseElement(), order, resultDims, new int[rank], 0);
  }

  /** The part of the transposed array at result index {@code resultIndex[0..level-1]}. */
  private static Value transposed(Value source, Type base, List<Integer> order, long[] resultDims, int[] resultIndex, int level) {
    if (level == resultDims.length) {
      Value current = source;
      int[] sourceIndex = new int[resultDims.length];
      for (int d = 0; d < resultDims.length; d++) {
        sourceIndex[order.get(d)] = resultIndex[d];
      }
      for (int i : sourceIndex) {
        current = ((Value.Array) current).get(i);
      }
      return current;
    }
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < resultDims[level]; i++) {
      resultIndex[level] = i;
      elements.add(transposed(source, base, order, resultDims, resultIndex, level + 1));
    }
    return new Value.Array(nestedArrayType(base, resultDims.length - level - 1), elements);
  }

  /** {@code split(n, a)} = <code>{a[0..n-1], a[n..]}</code>. */
  public static Value.Tuple split(Value at, Value array, SourcePos pos) {
    Value.Array a = Operands.array(array, pos);
    long n = Operands.integer(at, pos).value();
    if (n < 0 || n > a.length()) {
      throw new L0RuntimeError("split", pos, "split point " + n + " outside 0.." + a.length()
          + " (the outer size of the array)");
    }
    List<Value> elements = a.elements();
    return new Value.Tuple(List.of(
        new Value.Array(a.elementType(), elements.subList(0, (int) n)),
        new Value.Array(a.elementType(), elements.subList((int) n, a.length()))));
  }

  public static Value concat(Value left, Value right, SourcePos pos) {
    Value.Array a = Operands.array(left, pos);
    Value.Array b = Operands.array(right, pos);
    if (a.length() > 0 && b.length() > 0 && !Shape.of(a.get(0)).equals(Shape.of(b.get(0)))) {
      throw new L0RuntimeError("concat", pos, "the rows of the first array have shape " + Shape.of(a.get(0))
          + " but those of the second have shape " + Shape.of(b.get(0)));
    }
    List<Value> elements = new ArrayList<>(a.elements());
    elements.addAll(b.elements());
    return new Value.Array(a.elementType(), elements);
  }

  /** {@code zip(a1, ..., an)}: an array of n-tuples; the arrays must have one outer size. */
  public static Value zip(List<Value> arrays, SourcePos pos) {
    if (arrays.isEmpty()) {
      throw new L0CompileError(pos, "zip needs at least one array");
    }
    List<Value.Array> inputs = new ArrayList<>();
    for (Value v : arrays) {
      inputs.add(Operands.array(v, pos));
    }
    int length = inputs.get(0).length();
    for (int j = 1; j < inputs.size(); j++) {
      if (inputs.get(j).length() != length) {
        throw new L0RuntimeError("zip", pos, "argument " + (j + 1) + " has outer size " + inputs.get(j).length()
            + " but argument 1 has outer size " + length);
      }
    }
    List<Value> tuples = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      List<Value> components = new ArrayList<>(inputs.size());
      for (Value.Array input : inputs) {
        components.add(input.get(i));
      }
      tuples.add(new Value.Tuple(components));
    }
    return new Value.Array(new Type.Tuple(inputs.stream().map(Value.Array::elementType).toList()), tuples);
  }

  /** {@code unzip(a)}: an array of n-tuples as a tuple of n arrays. */
  public static Value unzip(Value array, SourcePos pos) {
    Value.Array a = Operands.array(array, pos);
    if (!(a.elementType() instanceof Type.Tuple tupleType)) {
      throw new L0CompileError(pos, "ill-typed program: unzip of an array of " + L0Printer.print(a.elementType()));
    }
    List<Value> columns = new ArrayList<>();
    for (int j = 0; j < tupleType.elements().size(); j++) {
      List<Value> column = new ArrayList<>(a.length());
      for (Value element : a.elements()) {
        column.add(((Value.Tuple) element).elements().get(j));
      }
      columns.add(new Value.Array(tupleType.elements().get(j), column));
    }
    return new Value.Tuple(columns);
  }
}
