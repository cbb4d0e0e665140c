package dev.l0.spark.plan;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.semantics.ArrayOperations;
import dev.l0.spark.pipeline.InputBinding;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * Copies one input binding's values out of Spark column vectors (never keeping a reference to them:
 * Spark reuses its vectors) into primitive arrays, slice by slice, until a runtime batch of at most
 * {@code batchRows} rows is complete. Scalars are copied in bulk into the batch's column (an array
 * that grows up to {@code batchRows} elements, cut to the rows of a shorter batch); a null is
 * replaced by the binding's replacement or is an error; array columns are read row by row and must
 * have one length per dimension across the partition. Where the caller says a batch's columns are
 * dead once the next batch is asked for ({@code reuseColumns}), a full batch's scalar column is
 * filled again for the next batch instead of a new one: no allocation, and the array stays in the
 * core's caches.
 *
 * <p>Scalars of Spark's on-heap vectors are copied straight from the vector's value array ({@link
 * OnHeapVectorArrays}) with one {@code arraycopy}; other vectors (off-heap, Arrow, dictionary ids)
 * through the vectors' bulk getters, which copy into a new array first. With {@code reuseColumns},
 * a batch that is one whole Spark batch whose value array has exactly its rows and no nulls
 * (Spark's Parquet reader's 4096-row batches, with {@code spark.l0.jvm.batchRows} 4096) is that
 * array itself: no copy at all. Spark refills it only when the next batch is read, after the kernel
 * has run and Spark has read the output batch; nothing writes into it. Each slice's way is counted
 * in {@link InputPaths}.
 */
final class ColumnReader {
  /**
   * The rows a batch's scalar column holds before it first grows (unless its batches are smaller).
   */
  private static final int FIRST_CAPACITY = 1 << 14;

  /** The bits that are 0 in each byte of a word of eight bytes that are each 0 or 1. */
  private static final long NOT_ZERO_OR_ONE = 0xFEFE_FEFE_FEFE_FEFEL;

  private final InputBinding binding;
  private final int topOrdinal;
  private final int partition;
  private final int batchRows;
  private final boolean reuseColumns;
  private final boolean[] elementsMayBeNull;
  private final InputPaths paths;

  /** Array columns: the slices read since the last drain. */
  private final List<Object> chunks = new ArrayList<>();

  /** Scalar columns: the batch's column being filled, null before the first slice of a batch. */
  private Object scalars;

  /** Scalar columns: Spark's value array that is this whole batch's column, or null. */
  private Object inPlace;

  private int scalarRows;
  private int[] innerShape;

  /**
   * Array columns: the index, in each dimension, of the element {@link #copyArray} is copying
   * within its row, so that an error can name it ({@code [1][0]}) without a string made per
   * element.
   */
  private int[] elementIndex;

  ColumnReader(
      InputBinding binding,
      int topOrdinal,
      int partition,
      int batchRows,
      boolean reuseColumns,
      InputPaths paths) {
    this.binding = binding;
    this.topOrdinal = topOrdinal;
    this.partition = partition;
    this.batchRows = batchRows;
    this.reuseColumns = reuseColumns;
    this.elementsMayBeNull = elementNullability(binding.leafType(), binding.rank() - 1);
    this.paths = paths;
  }

  /**
   * Copies rows {@code [from, from + count)} of {@code batch}; {@code rowsBefore} rows of this
   * partition came earlier. The batch being filled has room for them.
   */
  void append(ColumnarBatch batch, int from, int count, long rowsBefore) {
    List<ColumnVector> path = vectorPath(batch);
    ColumnVector leaf = path.get(path.size() - 1);
    if (binding.rank() != 1) {
      chunks.add(readArrays(path, leaf, from, count, rowsBefore));
      return;
    }
    boolean hasNulls = path.stream().anyMatch(ColumnVector::hasNull);
    Object values = OnHeapVectorArrays.valuesOf(leaf, binding.elementType());
    if (values != null
        && !hasNulls
        && reuseColumns
        && binding.elementType() != ScalarType.BOOL
        && scalarRows == 0
        && from == 0
        && count == batchRows
        && Array.getLength(values) == count) {
      inPlace = values;
      scalarRows = count;
      paths.count(InputPaths.Path.IN_PLACE);
      return;
    }
    reserve(scalarRows + count);
    if (values != null) {
      copyValues(values, from, count, scalars, scalarRows);
      paths.count(InputPaths.Path.ARRAY_COPY);
    } else {
      copyScalars(leaf, from, count, scalars, scalarRows);
      paths.count(InputPaths.Path.GETTER_COPY);
    }
    if (hasNulls) {
      for (int i = 0; i < count; i++) {
        int nullAt = nullDepth(path, from + i);
        if (nullAt >= 0 && nullAt < path.size() - 1 && binding.nullReplacement() == null) {
          throw nullStruct(rowsBefore + i, nullAt);
        }
        if (nullAt >= 0) {
          replaceNull(scalars, scalarRows + i, rowsBefore + i, 0);
        }
      }
    }
    scalarRows += count;
  }

  /**
   * Makes the scalar column hold at least {@code rows} rows: first {@link #FIRST_CAPACITY} (or
   * {@code batchRows} if fewer), then twice as many each time, up to {@code batchRows}, so that a
   * small partition does not take a whole large batch's arrays.
   */
  private void reserve(int rows) {
    int capacity = scalars == null ? 0 : Array.getLength(scalars);
    if (rows <= capacity) {
      return;
    }
    int grown = (int) Math.min(batchRows, Math.max(rows, Math.max(FIRST_CAPACITY, 2L * capacity)));
    Object larger = FlatArray.allocate(binding.elementType(), grown);
    if (scalarRows > 0) {
      System.arraycopy(scalars, 0, larger, 0, scalarRows);
    }
    scalars = larger;
  }

  /**
   * The {@code rows} rows appended since the last call, as one runtime column; starts a new batch
   * (with {@code reuseColumns}, in the same array when this one is a full batch).
   */
  Object drain(int rows) {
    if (binding.rank() == 1) {
      if (inPlace != null) {
        Object column = inPlace;
        inPlace = null;
        scalarRows = 0;
        return column;
      }
      boolean exact = scalars != null && Array.getLength(scalars) == rows;
      Object column = exact ? scalars : FlatArray.allocate(binding.elementType(), rows);
      if (column != scalars && rows > 0) {
        System.arraycopy(scalars, 0, column, 0, rows);
      }
      if (!(exact && reuseColumns && rows == batchRows)) {
        scalars = null;
      }
      scalarRows = 0;
      return column;
    }
    Object column = concatenate(rows);
    chunks.clear();
    int[] shape = new int[binding.rank()];
    shape[0] = rows;
    System.arraycopy(
        innerShape != null ? innerShape : new int[binding.rank() - 1],
        0,
        shape,
        1,
        binding.rank() - 1);
    return new FlatArray(binding.elementType(), column, shape);
  }

  private List<ColumnVector> vectorPath(ColumnarBatch batch) {
    List<ColumnVector> path = new ArrayList<>();
    ColumnVector vector = batch.column(topOrdinal);
    path.add(vector);
    for (int ordinal : binding.fieldPath().subList(1, binding.fieldPath().size())) {
      vector = vector.getChild(ordinal);
      path.add(vector);
    }
    return path;
  }

  /**
   * Where {@code row} is null along {@code path}: the index of the first vector (a struct, or the
   * leaf itself last) that is null there; -1 where none is.
   */
  private static int nullDepth(List<ColumnVector> path, int row) {
    for (int depth = 0; depth < path.size(); depth++) {
      if (path.get(depth).isNullAt(row)) {
        return depth;
      }
    }
    return -1;
  }

  /**
   * Copies {@code count} values of {@code vector} from row {@code from} into {@code target} at
   * {@code offset}, through the vector's bulk getter: Spark's on-heap and off-heap vectors copy a
   * range of their storage at once into a new array (and decode a dictionary themselves) instead of
   * a call per value; that array is then copied into the batch's column.
   */
  private void copyScalars(ColumnVector vector, int from, int count, Object target, int offset) {
    Object values =
        switch (binding.elementType()) {
          case BOOL -> vector.getBooleans(from, count);
          case I32 -> vector.getInts(from, count);
          case I64 -> vector.getLongs(from, count);
          case F32 -> vector.getFloats(from, count);
          default -> vector.getDoubles(from, count);
        };
    System.arraycopy(values, 0, target, offset, count);
  }

  /**
   * Copies {@code count} values of an on-heap vector's value array from row {@code from} into
   * {@code target} at {@code offset}: one {@code arraycopy}, or for booleans (bytes in Spark's
   * array) {@link #copyBooleanBytes}.
   */
  private static void copyValues(Object values, int from, int count, Object target, int offset) {
    if (values instanceof byte[] bytes) {
      copyBooleanBytes(bytes, from, count, (boolean[]) target, offset);
      return;
    }
    System.arraycopy(values, from, target, offset, count);
  }

  /**
   * Sets {@code booleans[offset + i]} to {@code bytes[from + i] == 1} for {@code i < count}. Spark
   * keeps a boolean vector's values as bytes 0 and 1, the bytes of Java's {@code false} and {@code
   * true}: where the CPU reads unaligned words, eight such bytes at a time are one 8-byte load and
   * store (a word holding any other byte takes the per-byte test); the rest byte by byte.
   */
  static void copyBooleanBytes(byte[] bytes, int from, int count, boolean[] booleans, int offset) {
    Objects.checkFromIndexSize(from, count, bytes.length);
    Objects.checkFromIndexSize(offset, count, booleans.length);
    int i = 0;
    if (Platform.unaligned()) {
      long source = Platform.BYTE_ARRAY_OFFSET + (long) from;
      long target = Platform.BOOLEAN_ARRAY_OFFSET + (long) offset;
      for (; i <= count - Long.BYTES; i += Long.BYTES) {
        long word = Platform.getLong(bytes, source + i);
        if ((word & NOT_ZERO_OR_ONE) == 0) {
          Platform.putLong(booleans, target + i, word);
        } else {
          for (int j = i; j < i + Long.BYTES; j++) {
            booleans[offset + j] = bytes[from + j] == 1;
          }
        }
      }
    }
    for (; i < count; i++) {
      booleans[offset + i] = bytes[from + i] == 1;
    }
  }

  /**
   * How many of the {@code count} rows from row {@code from} of {@code batch} the runtime batch
   * being filled, which holds {@code rowsInBatch} rows, can still take; {@code rowsBefore} rows of
   * this partition came earlier. A scalar column takes them all; an array column as many as keep
   * the batch's elements within one Java array (the row size is the partition's first row's).
   */
  int rowsThatFit(ColumnarBatch batch, int from, int count, long rowsBefore, int rowsInBatch) {
    if (binding.rank() == 1 || count == 0) {
      return count;
    }
    if (innerShape == null) {
      List<ColumnVector> path = vectorPath(batch);
      learnShape(path, path.get(path.size() - 1), from, rowsBefore);
    }
    int rowSize = product(innerShape, 0);
    if (rowSize == 0) {
      return count;
    }
    // An empty batch takes a row whatever its size: Spark held it in one array.
    int fit =
        Math.max(rowsInBatch == 0 ? 1 : 0, ArrayOperations.MAX_LENGTH / rowSize - rowsInBatch);
    return Math.min(count, fit);
  }

  /** Takes the inner shape of the partition's arrays from its first row, row {@code from}. */
  private void learnShape(List<ColumnVector> path, ColumnVector leaf, int from, long rowsBefore) {
    checkArrayNotNull(path, from, rowsBefore);
    innerShape = shapeOf(leaf.getArray(from), binding.rank() - 1);
    elementIndex = new int[innerShape.length];
  }

  private Object readArrays(
      List<ColumnVector> path, ColumnVector leaf, int from, int count, long rowsBefore) {
    if (innerShape == null && count > 0) {
      learnShape(path, leaf, from, rowsBefore);
    }
    int rowSize = innerShape == null ? 0 : product(innerShape, 0);
    Object chunk = FlatArray.allocate(binding.elementType(), Math.multiplyExact(count, rowSize));
    for (int i = 0; i < count; i++) {
      checkArrayNotNull(path, from + i, rowsBefore + i);
      copyArray(leaf.getArray(from + i), 0, chunk, i * rowSize, rowsBefore + i);
    }
    return chunk;
  }

  /**
   * Throws where the array of {@code row} (of this partition; {@code vectorRow} in the vectors) is
   * null, or a struct that holds it is.
   */
  private void checkArrayNotNull(List<ColumnVector> path, int vectorRow, long row) {
    int nullAt = nullDepth(path, vectorRow);
    if (nullAt >= 0 && nullAt < path.size() - 1) {
      throw nullStruct(row, nullAt);
    }
    if (nullAt >= 0) {
      throw nullArray(row, 0);
    }
  }

  /**
   * Copies {@code array}, dimension {@code dimension} of a row's value, to {@code target} at {@code
   * offset}; the first {@code dimension} entries of {@link #elementIndex} are its index path within
   * the row.
   */
  private void copyArray(ArrayData array, int dimension, Object target, int offset, long row) {
    if (array.numElements() != innerShape[dimension]) {
      throw new InputDataException(
          "column '"
              + binding.columnPath()
              + "' has arrays of different lengths"
              + (dimension > 0 ? " in dimension " + (dimension + 1) : "")
              + " in partition "
              + partition
              + ": "
              + innerShape[dimension]
              + " ("
              + ofRow("[0]".repeat(dimension), "its first row")
              + ") and "
              + array.numElements()
              + " ("
              + ofRow(element(dimension), "row " + row)
              + "); an array column needs one length for all its rows");
    }
    int length = array.numElements();
    if (dimension == innerShape.length - 1) {
      System.arraycopy(elementsOf(array), 0, target, offset, length);
      if (elementsMayBeNull[dimension]) {
        for (int j = 0; j < length; j++) {
          if (array.isNullAt(j)) {
            elementIndex[dimension] = j;
            replaceNull(target, offset + j, row, dimension + 1);
          }
        }
      }
      return;
    }
    int stride = product(innerShape, dimension + 1);
    for (int j = 0; j < length; j++) {
      elementIndex[dimension] = j;
      if (array.isNullAt(j)) {
        throw nullArray(row, dimension + 1);
      }
      copyArray(array.getArray(j), dimension + 1, target, offset + j * stride, row);
    }
  }

  /**
   * The index path ({@code [1][0]}) of the first {@code depth} entries of {@link #elementIndex}.
   */
  private String element(int depth) {
    StringBuilder path = new StringBuilder();
    for (int d = 0; d < depth; d++) {
      path.append('[').append(elementIndex[d]).append(']');
    }
    return path.toString();
  }

  /** " at element [1][0]" for an element's index path, nothing for the row's value itself. */
  private static String atElement(String element) {
    return element.isEmpty() ? "" : " at element " + element;
  }

  /** {@code row}, or element {@code element} of it where that is not empty. */
  private static String ofRow(String element, String row) {
    return element.isEmpty() ? row : "element " + element + " of " + row;
  }

  private Object elementsOf(ArrayData array) {
    switch (binding.elementType()) {
      case BOOL:
        return array.toBooleanArray();
      case I32:
        return array.toIntArray();
      case I64:
        return array.toLongArray();
      case F32:
        return array.toFloatArray();
      default:
        return array.toDoubleArray();
    }
  }

  /**
   * Puts the column's replacement for a null at {@code values[index]}: the value of {@code row}, or
   * its element at the first {@code depth} indices of {@link #elementIndex}; an error naming them
   * without one.
   */
  private void replaceNull(Object values, int index, long row, int depth) {
    Object replacement = binding.nullReplacement();
    if (replacement == null) {
      throw new InputDataException(
          "column '"
              + binding.columnPath()
              + "' has a null"
              + atElement(element(depth))
              + " in partition "
              + partition
              + ", row "
              + row
              + "; declare a replacement with nullAs(\""
              + binding.columnPath()
              + "\", value)");
    }
    switch (binding.elementType()) {
      case BOOL:
        ((boolean[]) values)[index] = (Boolean) replacement;
        break;
      case I32:
        ((int[]) values)[index] = ((Number) replacement).intValue();
        break;
      case I64:
        ((long[]) values)[index] = ((Number) replacement).longValue();
        break;
      case F32:
        ((float[]) values)[index] = ((Number) replacement).floatValue();
        break;
      default:
        ((double[]) values)[index] = ((Number) replacement).doubleValue();
        break;
    }
  }

  /**
   * The error for a null array: the value of {@code row}, or its element at the first {@code depth}
   * indices of {@link #elementIndex}.
   */
  private InputDataException nullArray(long row, int depth) {
    return new InputDataException(
        "column '"
            + binding.columnPath()
            + "' has a null array"
            + atElement(element(depth))
            + " in partition "
            + partition
            + ", row "
            + row
            + "; a replacement (nullAs) fills null elements, not whole arrays: drop or fill such rows first");
  }

  /**
   * The error for a null struct, the struct {@code depth} fields down the leaf's column path (0:
   * the top-level column), at {@code row}: the field the binding reads has no value (or array); a
   * replacement stands for a scalar field's value, never for a whole array.
   */
  private InputDataException nullStruct(long row, int depth) {
    String struct = binding.structPath(depth + 1);
    return new InputDataException(
        "column '"
            + struct
            + "' has a null struct in partition "
            + partition
            + ", row "
            + row
            + ", so its field '"
            + binding.columnPath()
            + "' has no "
            + (binding.rank() == 1 ? "value" : "array")
            + "; drop such rows or fill the struct first (e.g. df.filter(col(\""
            + struct
            + "\").isNotNull()))"
            + (binding.rank() == 1
                ? ", or declare a replacement for the field with nullAs(\""
                    + binding.columnPath()
                    + "\", value)"
                : ""));
  }

  private Object concatenate(int rows) {
    int rowSize = innerShape == null ? 0 : product(innerShape, 0);
    int length = Math.multiplyExact(rows, rowSize);
    if (chunks.size() == 1 && Array.getLength(chunks.get(0)) == length) {
      return chunks.get(0);
    }
    Object column = FlatArray.allocate(binding.elementType(), length);
    int offset = 0;
    for (Object chunk : chunks) {
      int chunkLength = Array.getLength(chunk);
      System.arraycopy(chunk, 0, column, offset, chunkLength);
      offset += chunkLength;
    }
    return column;
  }

  private static int[] shapeOf(ArrayData first, int dimensions) {
    int[] shape = new int[dimensions];
    ArrayData level = first;
    for (int d = 0; d < dimensions && level != null; d++) {
      shape[d] = level.numElements();
      level =
          d + 1 < dimensions && level.numElements() > 0 && !level.isNullAt(0)
              ? level.getArray(0)
              : null;
    }
    return shape;
  }

  private static int product(int[] shape, int from) {
    int product = 1;
    for (int d = from; d < shape.length; d++) {
      product = Math.multiplyExact(product, shape[d]);
    }
    return product;
  }

  /** For each inner dimension of an array leaf type, whether its elements may be null. */
  private static boolean[] elementNullability(DataType leafType, int dimensions) {
    boolean[] nullable = new boolean[dimensions];
    DataType type = leafType;
    for (int d = 0; d < dimensions; d++) {
      ArrayType array = (ArrayType) type;
      nullable[d] = array.containsNull();
      type = array.elementType();
    }
    return nullable;
  }
}
