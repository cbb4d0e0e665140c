package dev.l0.semantics;

import dev.l0.ir.Dim;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.values.ValueTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;
import java.util.stream.LongStream;

/**
 * The array operations of thesis §2.3 (indexing, in-place update, {@code iota}, {@code replicate},
 * {@code size}, {@code reshape}, {@code transpose}, {@code split}, {@code concat}, {@code zip},
 * {@code unzip}) and the regularity check every constructed array passes (thesis §2.1). Each
 * failure is an {@link L0RuntimeError} naming the operation and the sizes involved.
 *
 * <p>Every array keeps its whole shape ({@link Value.Array#elementShape}), also when it has no
 * elements: {@code size(1, a)} of an empty {@code [0][3]} array is 3, and transposing it gives
 * three empty rows.
 *
 * <p>The reference interpreter and the optimiser's evaluator both run these, so they fail in the
 * same operations with the same messages. A value of the wrong kind (an ill-typed program) is an
 * {@link L0CompileError}.
 */
public final class ArrayOperations {
  /** The most elements one dimension of an array may have: the JVM's limit on array lengths. */
  public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

  /**
   * What one element of an interpreter array costs on the heap at least: a boxed scalar (24 bytes)
   * and its slot in a list.
   */
  private static final long BYTES_PER_BOXED_ELEMENT = 28;

  /** What one element of an array of shared values costs at least: its reference in a list. */
  private static final long BYTES_PER_REFERENCE = 4;

  private ArrayOperations() {}

  /**
   * Refuses a step of a reduce or scan ({@code operation}) whose operator returned a value of
   * another shape than the accumulator it was given: the operator has type {@code t x t -> t},
   * sizes included (thesis §2.2, and §9.1.1, where the neutral element's sizes are the rows'), so
   * the accumulator keeps the neutral element's shape.
   */
  public static void requireAccumulatorShape(
      Shape accumulator, Shape result, String operation, SourcePos pos) {
    if (!result.equals(accumulator)) {
      throw new L0RuntimeError(
          operation,
          pos,
          "the operator returned a value of shape "
              + result
              + " for an accumulator of shape "
              + accumulator
              + "; it must keep the accumulator's shape");
    }
  }

  /**
   * An array of {@code elements}, which must all have the same shape; {@code emptyShape} is the
   * element shape when there are no elements.
   */
  public static Value.Array regular(
      Type elementType, List<Value> elements, Shape emptyShape, String operation, SourcePos pos) {
    int irregular = Shape.firstIrregular(elements);
    if (irregular >= 0) {
      throw new L0RuntimeError(
          operation,
          pos,
          "irregular array: element "
              + irregular
              + " has shape "
              + Shape.of(elements.get(irregular))
              + " but element 0 has shape "
              + Shape.of(elements.get(0)));
    }
    return new Value.Array(elementType, elements, emptyShape);
  }

  /**
   * The value of {@code type} and {@code shape} whose every scalar is 0 ({@code false} for a bool):
   * the element a map over an empty array applies its function to, to learn the shape of the rows
   * it would have made.
   */
  public static Value zero(Type type, Shape shape) {
    if (shape instanceof Shape.Array a) {
      Type element = ((Type.Array) type).element();
      return new Value.Array(
          element, Collections.nCopies(a.length(), zero(element, a.element())), a.element());
    }
    if (shape instanceof Shape.Tuple t) {
      List<Type> types = ((Type.Tuple) type).elements();
      List<Value> elements = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        elements.add(zero(types.get(i), t.elements().get(i)));
      }
      return new Value.Tuple(elements);
    }
    ScalarType scalar = (ScalarType) type;
    return switch (scalar) {
      case BOOL -> ScalarValue.bool(false);
      case I32, I64 -> new ScalarValue.Int(scalar, 0);
      case F32, F64 -> new ScalarValue.Float(scalar, 0);
    };
  }

  /**
   * The element shape of a SOAC result with no elements, from the result's static element type
   * {@code elementType}: a constant size is itself, a size named by a variable is that variable's
   * value ({@code sizeOf}), and a size the type does not know is 0; so is a negative one (there is
   * no row that could fail on it).
   */
  public static Shape emptyResultShape(Type elementType, ToLongFunction<String> sizeOf) {
    return Shape.of(
        elementType,
        d ->
            Math.max(
                0,
                d instanceof Dim.Const c
                    ? c.size()
                    : d instanceof Dim.Named n ? sizeOf.applyAsLong(n.variable()) : 0));
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

  private static int checkedIndex(
      String operation, Value.Array a, int dimension, Value index, SourcePos pos) {
    long i = Operands.integer(index, pos).value();
    if (i < 0 || i >= a.length()) {
      throw new L0RuntimeError(
          operation, pos, FailureDetails.format(FailureDetails.INDEX, i, dimension, a.length()));
    }
    return (int) i;
  }

  /**
   * {@code src} with the element or slice at {@code indices} replaced by {@code v} (thesis §2.1.2).
   */
  public static Value update(Value source, List<Value> indices, Value v, SourcePos pos) {
    return updateFrom(source, indices, 0, v, pos);
  }

  private static Value updateFrom(
      Value current, List<Value> indices, int dimension, Value v, SourcePos pos) {
    if (dimension == indices.size()) {
      Shape expected = Shape.of(current);
      if (!Shape.of(v).equals(expected)) {
        throw new L0RuntimeError(
            "update",
            pos,
            "the new value has shape "
                + Shape.of(v)
                + " but the updated part has shape "
                + expected);
      }
      return v;
    }
    Value.Array a = Operands.array(current, pos);
    int i = checkedIndex("update", a, dimension, indices.get(dimension), pos);
    List<Value> elements = new ArrayList<>(a.elements());
    elements.set(i, updateFrom(a.get(i), indices, dimension + 1, v, pos));
    return new Value.Array(a.elementType(), elements, a.elementShape());
  }

  /** {@code iota(n)} = {@code [0, ..., n-1]}, of {@code n}'s integer type. */
  public static Value iota(Value count, SourcePos pos) {
    ScalarValue.Int n = Operands.integer(count, pos);
    int length = checkedCount("iota", n.value(), pos);
    requireHeapFor("iota", length, BYTES_PER_BOXED_ELEMENT, pos);
    List<Value> elements = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      elements.add(new ScalarValue.Int(n.type(), i));
    }
    return new Value.Array(n.type(), elements);
  }

  /**
   * {@code replicate(n, v)}: {@code n} references to one {@code v}, so only the size is limited:
   * while the array is made its references exist twice ({@link Value.Array} copies the list of
   * copies into an array, and that into its own).
   */
  public static Value replicate(Value count, Value v, SourcePos pos) {
    int length = checkedCount("replicate", Operands.integer(count, pos).value(), pos);
    requireHeapFor("replicate", length, 2 * BYTES_PER_REFERENCE, pos);
    return new Value.Array(ValueTypes.typeOf(v), Collections.nCopies(length, v), Shape.of(v));
  }

  private static int checkedCount(String operation, long count, SourcePos pos) {
    if (count < 0) {
      throw new L0RuntimeError(
          operation, pos, FailureDetails.format(FailureDetails.NEGATIVE_SIZE, count));
    }
    if (count > MAX_LENGTH) {
      throw new L0ResourceError(
          pos,
          operation
              + ": size "
              + count
              + " exceeds the limit of "
              + MAX_LENGTH
              + " elements in one dimension of an array (Java's array limit)",
          false);
    }
    return (int) count;
  }

  /**
   * Refuses, before it is made, an array of {@code elements} scalars (a double: a product of sizes
   * may pass a long) of {@code bytesPerElement} bytes each that could not exist in this JVM: more
   * than one flat array holds, as every device holds it ({@link #MAX_LENGTH}; an {@link
   * L0ResourceError} that a larger heap does not lift), or more than the heap can give ({@link
   * #requireHeapFor}). The interpreter and the optimiser's evaluator check with it the arrays their
   * SOACs, {@code reshape} and {@code transpose} make ({@link #requireRoomForRows}); the backends
   * check their flat arrays with {@link #requireFlatArrayRoomFor}.
   */
  public static void requireRoomFor(
      String operation, double elements, long bytesPerElement, SourcePos pos) {
    requireFlatLength(operation, elements, pos);
    requireHeapFor(operation, (long) elements, bytesPerElement, pos);
  }

  /**
   * {@link #requireRoomFor} for a backend's flat array, compared with the maximum heap alone: the
   * JVM refuses a primitive array that does not fit at once, not after filling the heap as the
   * evaluators' boxed values did, and a backend runs in Spark's executors, whose tasks share the
   * heap and would all be stopped by the garbage collection that reading what is left needs.
   */
  public static void requireFlatArrayRoomFor(
      String operation, double elements, long bytesPerElement, SourcePos pos) {
    requireFlatLength(operation, elements, pos);
    refuseOnShortfall(
        operation,
        (long) elements,
        (long) elements * bytesPerElement,
        maximumHeapShortfall(elements * bytesPerElement),
        pos);
  }

  private static void requireFlatLength(String operation, double elements, SourcePos pos) {
    if (elements > MAX_LENGTH) {
      throw new L0ResourceError(
          pos,
          String.format(
              "%s: %.0f elements, more than one flat array holds (%d, Java's array limit)",
              operation, elements, MAX_LENGTH),
          false);
    }
  }

  /**
   * Refuses, once a SOAC ({@code operation} at {@code pos}) has made the first of the {@code rows}
   * rows of its result, a result that could not exist ({@link #requireRoomFor}): arrays are
   * regular, so it holds {@code rows} times the scalars of {@code firstRow}, each a new boxed
   * scalar (a row that shares its arrays with the others, a {@code replicate}'s, counts as if it
   * had its own). A tuple's components are counted apart, as every device holds them. Without this
   * check a result of billions of scalars was built for minutes until the heap ran out.
   */
  public static void requireRoomForRows(String operation, int rows, Value firstRow, SourcePos pos) {
    if (firstRow instanceof Value.Tuple t) {
      for (Value component : t.elements()) {
        requireRoomForRows(operation, rows, component, pos);
      }
      return;
    }
    requireRoomFor(operation, (double) rows * scalarCount(firstRow), BYTES_PER_BOXED_ELEMENT, pos);
  }

  /**
   * Refuses, before allocating, an array of {@code length} new elements of {@code bytesPerElement}
   * bytes each (about 28 for the interpreter's boxed scalars, 4 or 8 in a flat array) that could
   * not fit in the JVM's heap ({@link #heapShortfall}): an {@link L0ResourceError} at {@code pos}
   * naming {@code operation} and the size it needs.
   */
  public static void requireHeapFor(
      String operation, long length, long bytesPerElement, SourcePos pos) {
    long bytes = length * bytesPerElement;
    refuseOnShortfall(operation, length, bytes, heapShortfall(bytes), pos);
  }

  private static void refuseOnShortfall(
      String operation, long length, long bytes, Optional<String> shortfall, SourcePos pos) {
    shortfall.ifPresent(
        why -> {
          throw new L0ResourceError(
              pos,
              operation + ": " + length + " elements need about " + (bytes >> 20) + " MiB, " + why,
              true);
        });
  }

  /**
   * Why {@code bytes} more could not be allocated, if they could not: they are more than the
   * maximum heap, or, for at least 1/64 of it, more than the heap has left once a garbage
   * collection has freed what is no longer used (the free space read without one counts garbage as
   * used, so it only lets an allocation pass; smaller ones are left to the JVM). Without the second
   * check two arrays that each fit and together do not filled the heap for minutes (each garbage
   * collection freeing less) before the JVM ran out of memory.
   */
  public static Optional<String> heapShortfall(double bytes) {
    Optional<String> beyondMaximum = maximumHeapShortfall(bytes);
    Runtime runtime = Runtime.getRuntime();
    long heap = runtime.maxMemory();
    if (beyondMaximum.isPresent() || bytes < heap / 64 || bytes <= heapLeft(runtime)) {
      return beyondMaximum;
    }
    System.gc();
    long left = heapLeft(runtime);
    return bytes > left
        ? Optional.of(
            "more than the "
                + (left >> 20)
                + " MiB left of the JVM's maximum heap of "
                + (heap >> 20)
                + " MiB")
        : Optional.empty();
  }

  /** Why {@code bytes} could not be allocated even in an empty heap, if they could not. */
  private static Optional<String> maximumHeapShortfall(double bytes) {
    long heap = Runtime.getRuntime().maxMemory();
    return bytes > heap
        ? Optional.of("more than the JVM's maximum heap of " + (heap >> 20) + " MiB")
        : Optional.empty();
  }

  /** The bytes the heap can still give: its maximum less what it holds now, garbage included. */
  private static long heapLeft(Runtime runtime) {
    return runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
  }

  /**
   * What a row of {@code components} tuples costs on the heap at least while its array is made: the
   * tuple (16 bytes), its list of components (16 bytes and a reference each), its reference in the
   * list of rows and the two copies of that list that {@link Value.Array} makes.
   */
  public static long bytesPerTupleRow(int components) {
    return 16 + 16 + (long) components * BYTES_PER_REFERENCE + 3 * BYTES_PER_REFERENCE;
  }

  /**
   * How many scalars {@code value} holds, counted through the first element of each array (arrays
   * are regular), so a replicate of a replicate costs nothing to count; a double, since the product
   * of the sizes may exceed a long.
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
    Operands.array(array, pos);
    Shape current = Shape.of(array);
    for (int d = 0; current instanceof Shape.Array a; d++, current = a.element()) {
      if (d == dimension) {
        return ScalarValue.i32(a.length());
      }
    }
    throw new L0CompileError(
        pos,
        "ill-typed program: size(" + dimension + ", a) of an array of shape " + Shape.of(array));
  }

  /** The sizes of the first {@code rank} dimensions of {@code v}. */
  private static long[] dimensions(Value v, int rank) {
    long[] dims = new long[rank];
    Shape current = Shape.of(v);
    for (int d = 0; d < rank; d++) {
      Shape.Array a = (Shape.Array) current;
      dims[d] = a.length();
      current = a.element();
    }
    return dims;
  }

  /**
   * The shape under the first {@code rank} dimensions of {@code v}: that of its scalars or tuples.
   */
  private static Shape baseShape(Value v, int rank) {
    Shape current = Shape.of(v);
    for (int d = 0; d < rank; d++) {
      current = ((Shape.Array) current).element();
    }
    return current;
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
        throw new L0RuntimeError(
            "reshape", pos, FailureDetails.format(FailureDetails.NEGATIVE_NEW_SIZE, newDims[d]));
      }
      newCount = saturatingMultiply(newCount, newDims[d]);
    }
    requireRoomFor("reshape", product(dimensions(array, rank)), BYTES_PER_REFERENCE, pos);
    List<Value> flat = new ArrayList<>();
    flatten(array, rank, flat);
    if (newCount != flat.size()) {
      // every value but the product, which says "too many" where it does not fit a long
      LongStream values =
          LongStream.concat(
              LongStream.concat(LongStream.of(dimensions(array, rank)), LongStream.of(flat.size())),
              LongStream.of(newDims));
      String template = FailureDetails.reshape(rank, newDims.length);
      throw new L0RuntimeError(
          "reshape",
          pos,
          FailureDetails.format(template, values.toArray())
              .replace(
                  "{" + (rank + 1 + newDims.length) + "}",
                  newCount == Long.MAX_VALUE ? "too many" : Long.toString(newCount)));
    }
    return build(arrayType.baseElement(), baseShape(array, rank), newDims, 0, flat, 0);
  }

  /** The product of {@code dims}, as a double: it may pass a long. */
  private static double product(long[] dims) {
    double product = 1;
    for (long d : dims) {
      product *= d;
    }
    return product;
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
  private static Value.Array build(
      Type base, Shape baseShape, long[] dims, int level, List<Value> flat, int from) {
    Type elementType = nestedArrayType(base, dims.length - level - 1);
    Shape elementShape = nestedShape(baseShape, dims, level + 1);
    int length = (int) dims[level];
    if (level == dims.length - 1) {
      return new Value.Array(elementType, flat.subList(from, from + length), elementShape);
    }
    int stride = 1;
    for (int d = level + 1; d < dims.length; d++) {
      stride *= (int) dims[d];
    }
    List<Value> rows = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      rows.add(build(base, baseShape, dims, level + 1, flat, from + i * stride));
    }
    return new Value.Array(elementType, rows, elementShape);
  }

  private static Type nestedArrayType(Type base, int rank) {
    return rank == 0 ? base : Type.array(nestedArrayType(base, rank - 1));
  }

  /** The shape of an array of sizes {@code dims[from..]} over elements of shape {@code base}. */
  private static Shape nestedShape(Shape base, long[] dims, int from) {
    Shape shape = base;
    for (int d = dims.length - 1; d >= from; d--) {
      shape = new Shape.Array((int) dims[d], shape);
    }
    return shape;
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
      throw new L0CompileError(
          pos, "ill-typed program: transpose(" + k + ", " + n + ") of an array of rank " + rank);
    }
    List<Integer> order = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      order.add(d);
    }
    order.add(k + n, order.remove(k));
    long[] sourceDims = dimensions(array, rank);
    requireRoomFor("transpose", product(sourceDims), BYTES_PER_REFERENCE, pos);
    long[] resultDims = new long[rank];
    for (int d = 0; d < rank; d++) {
      resultDims[d] = sourceDims[order.get(d)];
    }
    return transposed(
        array,
        arrayType.baseElement(),
        baseShape(array, rank),
        order,
        resultDims,
        new int[rank],
        0);
  }

  /** The part of the transposed array at result index {@code resultIndex[0..level-1]}. */
  private static Value transposed(
      Value source,
      Type base,
      Shape baseShape,
      List<Integer> order,
      long[] resultDims,
      int[] resultIndex,
      int level) {
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
      elements.add(transposed(source, base, baseShape, order, resultDims, resultIndex, level + 1));
    }
    return new Value.Array(
        nestedArrayType(base, resultDims.length - level - 1),
        elements,
        nestedShape(baseShape, resultDims, level + 1));
  }

  /** {@code split(n, a)} = <code>{a[0..n-1], a[n..]}</code>. */
  public static Value.Tuple split(Value at, Value array, SourcePos pos) {
    Value.Array a = Operands.array(array, pos);
    long n = Operands.integer(at, pos).value();
    if (n < 0 || n > a.length()) {
      throw new L0RuntimeError(
          "split", pos, FailureDetails.format(FailureDetails.SPLIT, n, a.length()));
    }
    List<Value> elements = a.elements();
    return new Value.Tuple(
        List.of(
            new Value.Array(a.elementType(), elements.subList(0, (int) n), a.elementShape()),
            new Value.Array(
                a.elementType(), elements.subList((int) n, a.length()), a.elementShape())));
  }

  /**
   * {@code concat(a, b)}: the rows of both arrays must have one shape, except that an empty array
   * has no rows to disagree: its row shape may come from a size its function's type does not know
   * ({@link #emptyResultShape}), so the result takes the other array's row shape (when both are
   * empty, the first's).
   */
  public static Value concat(Value left, Value right, SourcePos pos) {
    Value.Array a = Operands.array(left, pos);
    Value.Array b = Operands.array(right, pos);
    if (a.length() > 0 && b.length() > 0 && !a.elementShape().equals(b.elementShape())) {
      throw new L0RuntimeError(
          "concat",
          pos,
          "the rows of the first array have shape "
              + a.elementShape()
              + " but those of the second have shape "
              + b.elementShape());
    }
    List<Value> elements = new ArrayList<>(a.elements());
    elements.addAll(b.elements());
    return new Value.Array(
        a.elementType(),
        elements,
        a.length() == 0 && b.length() > 0 ? b.elementShape() : a.elementShape());
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
        throw new L0RuntimeError(
            "zip",
            pos,
            FailureDetails.format(FailureDetails.ZIP, j + 1, inputs.get(j).length(), length));
      }
    }
    requireHeapFor("zip", length, bytesPerTupleRow(inputs.size()), pos);
    List<Value> tuples = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      List<Value> components = new ArrayList<>(inputs.size());
      for (Value.Array input : inputs) {
        components.add(input.get(i));
      }
      tuples.add(new Value.Tuple(components));
    }
    return new Value.Array(
        new Type.Tuple(inputs.stream().map(Value.Array::elementType).toList()),
        tuples,
        new Shape.Tuple(inputs.stream().map(Value.Array::elementShape).toList()));
  }

  /** {@code unzip(a)}: an array of n-tuples as a tuple of n arrays. */
  public static Value unzip(Value array, SourcePos pos) {
    Value.Array a = Operands.array(array, pos);
    if (!(a.elementType() instanceof Type.Tuple tupleType)) {
      throw new L0CompileError(
          pos, "ill-typed program: unzip of an array of " + L0Printer.print(a.elementType()));
    }
    List<Value> columns = new ArrayList<>();
    for (int j = 0; j < tupleType.elements().size(); j++) {
      List<Value> column = new ArrayList<>(a.length());
      for (Value element : a.elements()) {
        column.add(((Value.Tuple) element).elements().get(j));
      }
      columns.add(
          new Value.Array(
              tupleType.elements().get(j),
              column,
              ((Shape.Tuple) a.elementShape()).elements().get(j)));
    }
    return new Value.Tuple(columns);
  }
}
