package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A regular array of scalars as the JVM backend holds it: the elements in row-major order in one
 * primitive array ({@code boolean[]}, {@code int[]}, {@code long[]}, {@code float[]} or {@code
 * double[]} for {@code bool}, {@code i32}, {@code i64}, {@code f32}, {@code f64}) and the size of
 * every dimension, also below an empty dimension (a {@code [0][3]} array is not a {@code [0][0]}
 * one). Callers with their own primitive arrays (Arrow, benchmarks) wrap them without copying. The
 * data holds exactly the elements the shape counts: a shape whose element count overflows an {@code
 * int}, has a negative size, or does not match the data's length is an {@link
 * IllegalArgumentException}.
 */
public record FlatArray(ScalarType elementType, Object data, int[] shape) {
  public FlatArray {
    shape = shape.clone();
    if (data == null || !data.getClass().isArray()) {
      throw new IllegalArgumentException(
          "a FlatArray's data must be a primitive array; got " + data);
    }
    for (int size : shape) {
      if (size < 0) {
        throw new IllegalArgumentException(
            "a FlatArray of shape " + Arrays.toString(shape) + " has a negative size");
      }
    }
    // An empty dimension anywhere makes the array empty, whatever the sizes before it multiply to.
    long elements = Arrays.stream(shape).anyMatch(size -> size == 0) ? 0 : 1;
    for (int d = 0; d < shape.length && elements > 0; d++) {
      elements = elements * shape[d];
      if (elements > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "a FlatArray of shape "
                + Arrays.toString(shape)
                + " would have more than "
                + Integer.MAX_VALUE
                + " elements; its data has "
                + java.lang.reflect.Array.getLength(data));
      }
    }
    int length = java.lang.reflect.Array.getLength(data);
    if (elements != length) {
      throw new IllegalArgumentException(
          "a FlatArray of shape "
              + Arrays.toString(shape)
              + " ("
              + elements
              + " elements) does not fit its data of "
              + length
              + " elements");
    }
  }

  @Override
  public int[] shape() {
    return shape.clone();
  }

  /** The most elements {@link #toString} shows. */
  private static final int ELEMENTS_SHOWN = 10;

  /**
   * Its shape, element type and first {@value #ELEMENTS_SHOWN} elements in row-major order, as the
   * data format writes them, and the number of elements where there are more, e.g. {@code FlatArray
   * [2][3]f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0}.
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("FlatArray ");
    for (int size : shape) {
      text.append('[').append(size).append(']');
    }
    text.append(elementType.keyword()).append(": ");
    int length = java.lang.reflect.Array.getLength(data);
    if (length == 0) {
      return text.append("no elements").toString();
    }
    for (int i = 0; i < Math.min(length, ELEMENTS_SHOWN); i++) {
      text.append(i == 0 ? "" : ", ").append(ValueWriter.write(load(i)));
    }
    if (length > ELEMENTS_SHOWN) {
      text.append(", ... (").append(length).append(" elements)");
    }
    return text.toString();
  }

  /** The size of dimension {@code d}. */
  public int size(int d) {
    return shape[d];
  }

  /** The number of elements of one row: the product of the sizes of dimensions 1 and up. */
  public int rowElements() {
    int elements = 1;
    for (int d = 1; d < shape.length; d++) {
      elements = Math.multiplyExact(elements, shape[d]);
    }
    return elements;
  }

  /**
   * Rows {@code [start, start + count)} of this array: the array itself for all its rows, else a
   * copy made in bulk.
   */
  public FlatArray rows(int start, int count) {
    if (start < 0 || count < 0 || start + count > shape[0]) {
      throw new IndexOutOfBoundsException(
          "rows [" + start + ", " + (start + count) + ") of an array of " + shape[0] + " rows");
    }
    if (start == 0 && count == shape[0]) {
      return this;
    }
    int width = rowElements();
    Object piece = allocate(elementType, Math.multiplyExact(count, width));
    System.arraycopy(data, start * width, piece, 0, count * width);
    return new FlatArray(elementType, piece, withRows(count));
  }

  /**
   * The rows of {@code pieces}, in order, as one array (the piece itself when there is one); all
   * have one element type and inner shape.
   */
  public static FlatArray concatRows(List<FlatArray> pieces) {
    FlatArray first = pieces.get(0);
    if (pieces.size() == 1) {
      return first;
    }
    int width = first.rowElements();
    int rows = 0;
    for (FlatArray piece : pieces) {
      int[] inner = Arrays.copyOfRange(piece.shape, 1, piece.shape.length);
      if (piece.elementType != first.elementType
          || !Arrays.equals(inner, Arrays.copyOfRange(first.shape, 1, first.shape.length))) {
        throw new IllegalArgumentException(
            "cannot concatenate rows of "
                + piece.elementType
                + " "
                + Arrays.toString(piece.shape)
                + " to rows of "
                + first.elementType
                + " "
                + Arrays.toString(first.shape));
      }
      rows = Math.addExact(rows, piece.shape[0]);
    }
    Object data = allocate(first.elementType, Math.multiplyExact(rows, width));
    int offset = 0;
    for (FlatArray piece : pieces) {
      int length = piece.shape[0] * width;
      System.arraycopy(piece.data, 0, data, offset, length);
      offset += length;
    }
    return new FlatArray(first.elementType, data, first.withRows(rows));
  }

  private int[] withRows(int rows) {
    int[] out = shape.clone();
    out[0] = rows;
    return out;
  }

  /**
   * The elements of {@code array}, an array whose elements are scalars of {@code elementType} or
   * arrays of them.
   */
  public static FlatArray of(Value.Array array, ScalarType elementType, int rank) {
    int[] shape = new int[rank];
    Shape current = Shape.of(array);
    for (int d = 0; d < rank; d++) {
      Shape.Array level = (Shape.Array) current;
      shape[d] = level.length();
      current = level.element();
    }
    List<ScalarValue> scalars = new ArrayList<>();
    addScalars(array, rank, scalars);
    Object data = allocate(elementType, scalars.size());
    for (int i = 0; i < scalars.size(); i++) {
      store(data, elementType, i, scalars.get(i));
    }
    return new FlatArray(elementType, data, shape);
  }

  /** The scalar type at the bottom of array type {@code arrayType}. */
  public static ScalarType elementType(Type arrayType) {
    Type t = arrayType;
    while (t instanceof Type.Array a) {
      t = a.element();
    }
    return (ScalarType) t;
  }

  /** This array as an interpreter value. */
  public Value.Array toValue() {
    return (Value.Array) toValue(0, 0);
  }

  private Value toValue(int dimension, int offset) {
    if (dimension == shape.length) {
      return load(offset);
    }
    int stride = 1;
    for (int d = dimension + 1; d < shape.length; d++) {
      stride *= shape[d];
    }
    List<Value> rows = new ArrayList<>(shape[dimension]);
    for (int i = 0; i < shape[dimension]; i++) {
      rows.add(toValue(dimension + 1, offset + i * stride));
    }
    Type row = elementType;
    Shape rowShape = Shape.SCALAR;
    for (int d = shape.length - 1; d > dimension; d--) {
      row = Type.array(row);
      rowShape = new Shape.Array(shape[d], rowShape);
    }
    return new Value.Array(row, rows, rowShape);
  }

  private static void addScalars(Value v, int rank, List<ScalarValue> out) {
    if (rank == 0) {
      out.add((ScalarValue) v);
    } else {
      ((Value.Array) v).elements().forEach(e -> addScalars(e, rank - 1, out));
    }
  }

  /** A zero-filled primitive array of {@code length} elements of {@code type}. */
  public static Object allocate(ScalarType type, int length) {
    switch (type) {
      case BOOL:
        return new boolean[length];
      case I32:
        return new int[length];
      case I64:
        return new long[length];
      case F32:
        return new float[length];
      default:
        return new double[length];
    }
  }

  private static void store(Object target, ScalarType type, int i, ScalarValue v) {
    switch (type) {
      case BOOL:
        ((boolean[]) target)[i] = ((ScalarValue.Bool) v).value();
        break;
      case I32:
        ((int[]) target)[i] = (int) ((ScalarValue.Int) v).value();
        break;
      case I64:
        ((long[]) target)[i] = ((ScalarValue.Int) v).value();
        break;
      case F32:
        ((float[]) target)[i] = (float) ((ScalarValue.Float) v).value();
        break;
      default:
        ((double[]) target)[i] = ((ScalarValue.Float) v).value();
        break;
    }
  }

  private ScalarValue load(int i) {
    switch (elementType) {
      case BOOL:
        return ScalarValue.bool(((boolean[]) data)[i]);
      case I32:
        return ScalarValue.i32(((int[]) data)[i]);
      case I64:
        return ScalarValue.i64(((long[]) data)[i]);
      case F32:
        return ScalarValue.f32(((float[]) data)[i]);
      default:
        return ScalarValue.f64(((double[]) data)[i]);
    }
  }
}
