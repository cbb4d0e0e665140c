package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A regular array of scalars as the JVM backend holds it: the elements in row-major order in one
 * primitive array ({@code boolean[]}, {@code int[]}, {@code long[]}, {@code float[]} or
 * {@code double[]} for {@code bool}, {@code i32}, {@code i64}, {@code f32}, {@code f64}) and the
 * size of every dimension. Callers with their own primitive arrays (Arrow, benchmarks) wrap them
 * without copying.
 */
public record FlatArray(ScalarType elementType, Object data, int[] shape) {
  public FlatArray {
    shape = shape.clone();
  }

  @Override
  public int[] shape() {
    return shape.clone();
  }

  /** The size of dimension {@code d}. */
  public int size(int d) {
    return shape[d];
  }

  /** The elements of {@code array}, an array whose elements are scalars of {@code elementType} or arrays of them. */
  public static FlatArray of(Value.Array array, ScalarType elementType, int rank) {
    int[] shape = new int[rank];
    Value current = array;
    for (int d = 0; d < rank && current != null; d++) {
      Value.Array level = (Value.Array) current;
      shape[d] = level.length();
      current = level.length() == 0 ? null : level.get(0);
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
    for (int d = shape.length - 1; d > dimension; d--) {
      row = Type.array(row);
    }
    return new Value.Array(row, rows);
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
      case BOOL: return new boolean[length];
      case I32: return new int[length];
      case I64: return new long[length];
      case F32: return new float[length];
      default: return new double[length];
    }
  }

  private static void store(Object target, ScalarType type, int i, ScalarValue v) {
    switch (type) {
      case BOOL: ((boolean[]) target)[i] = ((ScalarValue.Bool) v).value(); break;
      case I32: ((int[]) target)[i] = (int) ((ScalarValue.Int) v).value(); break;
      case I64: ((long[]) target)[i] = ((ScalarValue.Int) v).value(); break;
      case F32: ((float[]) target)[i] = (float) ((ScalarValue.Float) v).value(); break;
      default: ((double[]) target)[i] = ((ScalarValue.Float) v).value(); break;
    }
  }

  private ScalarValue load(int i) {
    switch (elementType) {
      case BOOL: return ScalarValue.bool(((boolean[]) data)[i]);
      case I32: return ScalarValue.i32(((int[]) data)[i]);
      case I64: return ScalarValue.i64(((long[]) data)[i]);
      case F32: return ScalarValue.f32(((float[]) data)[i]);
      default: return ScalarValue.f64(((double[]) data)[i]);
    }
  }
}
