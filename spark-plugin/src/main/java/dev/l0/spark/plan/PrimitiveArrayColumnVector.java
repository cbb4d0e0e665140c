package dev.l0.spark.plan;

import java.util.Arrays;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * A read-only Spark column vector over a runtime result column, a primitive array of exactly the
 * batch's rows ({@code double[]}, {@code float[]}, {@code long[]}, {@code int[]} or {@code
 * boolean[]}), without copying it: no nulls, nothing to free. Spark's whole-stage code reads it
 * with the getter of its type; the bulk getters ({@code getDoubles}, ..., which {@code
 * ColumnarArray.toDoubleArray} and the like use when it holds a per-row array's elements) copy a
 * range with one {@code arraycopy}.
 */
final class PrimitiveArrayColumnVector extends ReadOnlyOutputColumnVector {
  private final double[] doubles;
  private final float[] floats;
  private final long[] longs;
  private final int[] ints;
  private final boolean[] booleans;

  private PrimitiveArrayColumnVector(DataType type, Object values) {
    super(type);
    this.doubles = values instanceof double[] d ? d : null;
    this.floats = values instanceof float[] f ? f : null;
    this.longs = values instanceof long[] l ? l : null;
    this.ints = values instanceof int[] i ? i : null;
    this.booleans = values instanceof boolean[] b ? b : null;
  }

  /** The vector over {@code values}, whose Java array type must be the one of {@code type}. */
  static PrimitiveArrayColumnVector of(DataType type, Object values) {
    Class<?> expected = arrayClassOf(type);
    if (values == null || values.getClass() != expected) {
      throw new IllegalStateException(
          "an output column of Spark type "
              + type.simpleString()
              + " must be a "
              + expected.getSimpleName()
              + ", is "
              + (values == null ? "null" : values.getClass().getSimpleName()));
    }
    return new PrimitiveArrayColumnVector(type, values);
  }

  private static Class<?> arrayClassOf(DataType type) {
    if (type.equals(DataTypes.DoubleType)) {
      return double[].class;
    }
    if (type.equals(DataTypes.FloatType)) {
      return float[].class;
    }
    if (type.equals(DataTypes.LongType)) {
      return long[].class;
    }
    if (type.equals(DataTypes.IntegerType)) {
      return int[].class;
    }
    if (type.equals(DataTypes.BooleanType)) {
      return boolean[].class;
    }
    throw new IllegalArgumentException(
        "no primitive array column for Spark type " + type.simpleString());
  }

  @Override
  public void close() {
    // the array belongs to the garbage collector
  }

  @Override
  public boolean getBoolean(int rowId) {
    return booleans[rowId];
  }

  @Override
  public int getInt(int rowId) {
    return ints[rowId];
  }

  @Override
  public long getLong(int rowId) {
    return longs[rowId];
  }

  @Override
  public float getFloat(int rowId) {
    return floats[rowId];
  }

  @Override
  public double getDouble(int rowId) {
    return doubles[rowId];
  }

  @Override
  public boolean[] getBooleans(int rowId, int count) {
    return Arrays.copyOfRange(booleans, rowId, rowId + count);
  }

  @Override
  public int[] getInts(int rowId, int count) {
    return Arrays.copyOfRange(ints, rowId, rowId + count);
  }

  @Override
  public long[] getLongs(int rowId, int count) {
    return Arrays.copyOfRange(longs, rowId, rowId + count);
  }

  @Override
  public float[] getFloats(int rowId, int count) {
    return Arrays.copyOfRange(floats, rowId, rowId + count);
  }

  @Override
  public double[] getDoubles(int rowId, int count) {
    return Arrays.copyOfRange(doubles, rowId, rowId + count);
  }
}
