package dev.l0.spark.pipeline;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Map;

/**
 * The column forms of {@link ColumnBatch} and {@link PartialResult}: a rank-1 column is a primitive
 * array, a higher-rank one a {@link FlatArray} whose first dimension is the rows; a row of a column
 * is a boxed scalar, a primitive array or a {@code FlatArray}.
 */
final class BatchColumns {
  private static final Map<Class<?>, ScalarType> ELEMENT_TYPES =
      Map.of(
          double[].class,
          ScalarType.F64,
          float[].class,
          ScalarType.F32,
          int[].class,
          ScalarType.I32,
          long[].class,
          ScalarType.I64,
          boolean[].class,
          ScalarType.BOOL);

  private BatchColumns() {}

  /** The number of rows of {@code column}, a primitive array or a {@code FlatArray}. */
  static int rows(Object column) {
    if (column instanceof FlatArray flat) {
      return flat.size(0);
    }
    return Array.getLength(column);
  }

  /**
   * The rank of {@code column}: 1 for a primitive array, the number of dimensions of a {@code
   * FlatArray}.
   */
  static int rank(Object column) {
    return column instanceof FlatArray flat ? flat.shape().length : 1;
  }

  /** The scalar type of {@code column}'s elements, or null when it is not a column form. */
  static ScalarType elementType(Object column) {
    if (column instanceof FlatArray flat) {
      return flat.elementType();
    }
    return column == null ? null : ELEMENT_TYPES.get(column.getClass());
  }

  /** A column of no rows for a parameter of {@code rank} dimensions over {@code element}. */
  static Object empty(ScalarType element, int rank) {
    Object data = FlatArray.allocate(element, 0);
    return rank == 1 ? data : new FlatArray(element, data, new int[rank]);
  }

  /** Rows {@code [from, from + count)} of {@code column}, as a column of the same form. */
  static Object slice(Object column, int from, int count) {
    if (column instanceof FlatArray flat) {
      return flat.rows(from, count);
    }
    Object part = Array.newInstance(column.getClass().getComponentType(), count);
    System.arraycopy(column, from, part, 0, count);
    return part;
  }

  /** The last row of {@code column}, which has at least one. */
  static Object lastRow(Object column) {
    int last = rows(column) - 1;
    if (!(column instanceof FlatArray flat)) {
      return Array.get(column, last);
    }
    int[] shape = flat.shape();
    int[] rowShape = Arrays.copyOfRange(shape, 1, shape.length);
    int stride = Arrays.stream(rowShape).reduce(1, (a, b) -> a * b);
    Object row = FlatArray.allocate(flat.elementType(), stride);
    System.arraycopy(flat.data(), last * stride, row, 0, stride);
    return rowShape.length == 1 ? row : new FlatArray(flat.elementType(), row, rowShape);
  }

  /**
   * A column of one row holding {@code value}, a row form (boxed scalar, primitive array or {@code
   * FlatArray}).
   */
  static Object oneRow(Object value) {
    if (value instanceof FlatArray flat) {
      int[] shape = flat.shape();
      int[] column = new int[shape.length + 1];
      column[0] = 1;
      System.arraycopy(shape, 0, column, 1, shape.length);
      return new FlatArray(flat.elementType(), flat.data(), column);
    }
    ScalarType arrayElement = elementType(value);
    if (arrayElement != null) {
      return new FlatArray(arrayElement, value, new int[] {1, Array.getLength(value)});
    }
    Object column = FlatArray.allocate(scalarTypeOf(value), 1);
    Array.set(column, 0, value);
    return column;
  }

  private static ScalarType scalarTypeOf(Object boxed) {
    if (boxed instanceof Double) {
      return ScalarType.F64;
    }
    if (boxed instanceof Float) {
      return ScalarType.F32;
    }
    if (boxed instanceof Integer) {
      return ScalarType.I32;
    }
    if (boxed instanceof Long) {
      return ScalarType.I64;
    }
    if (boxed instanceof Boolean) {
      return ScalarType.BOOL;
    }
    throw new IllegalArgumentException("not a scalar, primitive array or FlatArray: " + boxed);
  }
}
