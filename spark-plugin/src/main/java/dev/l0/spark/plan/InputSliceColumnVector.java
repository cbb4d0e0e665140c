package dev.l0.spark.plan;

import java.util.Arrays;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.GeographyVal;
import org.apache.spark.unsafe.types.GeometryVal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Rows {@code [offset, offset + rows)} of an input batch's Spark column vector, read in place (a
 * column carried through a pipeline, {@code carry(...)}): row {@code r} here is row {@code offset +
 * r} there, a struct's fields are slices of its fields. Valid while Spark has not refilled the
 * input vector, that is until the next input batch is read; closing it does nothing (the input's
 * reader owns the vector).
 */
final class InputSliceColumnVector extends ColumnVector {
  private final ColumnVector input;
  private final int offset;
  private final int rows;
  private ColumnVector[] children = new ColumnVector[0];

  InputSliceColumnVector(ColumnVector input, int offset, int rows) {
    super(input.dataType());
    this.input = input;
    this.offset = offset;
    this.rows = rows;
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return input.hasNull() && numNulls() > 0;
  }

  @Override
  public int numNulls() {
    if (!input.hasNull()) {
      return 0;
    }
    int nulls = 0;
    for (int r = 0; r < rows; r++) {
      if (input.isNullAt(offset + r)) {
        nulls++;
      }
    }
    return nulls;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return input.isNullAt(offset + rowId);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return input.getBoolean(offset + rowId);
  }

  @Override
  public byte getByte(int rowId) {
    return input.getByte(offset + rowId);
  }

  @Override
  public short getShort(int rowId) {
    return input.getShort(offset + rowId);
  }

  @Override
  public int getInt(int rowId) {
    return input.getInt(offset + rowId);
  }

  @Override
  public long getLong(int rowId) {
    return input.getLong(offset + rowId);
  }

  @Override
  public float getFloat(int rowId) {
    return input.getFloat(offset + rowId);
  }

  @Override
  public double getDouble(int rowId) {
    return input.getDouble(offset + rowId);
  }

  @Override
  public boolean[] getBooleans(int rowId, int count) {
    return input.getBooleans(offset + rowId, count);
  }

  @Override
  public byte[] getBytes(int rowId, int count) {
    return input.getBytes(offset + rowId, count);
  }

  @Override
  public short[] getShorts(int rowId, int count) {
    return input.getShorts(offset + rowId, count);
  }

  @Override
  public int[] getInts(int rowId, int count) {
    return input.getInts(offset + rowId, count);
  }

  @Override
  public long[] getLongs(int rowId, int count) {
    return input.getLongs(offset + rowId, count);
  }

  @Override
  public float[] getFloats(int rowId, int count) {
    return input.getFloats(offset + rowId, count);
  }

  @Override
  public double[] getDoubles(int rowId, int count) {
    return input.getDoubles(offset + rowId, count);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return input.getArray(offset + rowId);
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    return input.getMap(offset + ordinal);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return input.getDecimal(offset + rowId, precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return input.getUTF8String(offset + rowId);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return input.getBinary(offset + rowId);
  }

  @Override
  public GeographyVal getGeography(int rowId) {
    return input.getGeography(offset + rowId);
  }

  @Override
  public GeometryVal getGeometry(int rowId) {
    return input.getGeometry(offset + rowId);
  }

  @Override
  public CalendarInterval getInterval(int rowId) {
    return input.getInterval(offset + rowId);
  }

  /** Child {@code ordinal} (a struct's field, an interval's part), the same rows of it. */
  @Override
  public ColumnVector getChild(int ordinal) {
    if (ordinal >= children.length) {
      children = Arrays.copyOf(children, ordinal + 1);
    }
    if (children[ordinal] == null) {
      children[ordinal] = new InputSliceColumnVector(input.getChild(ordinal), offset, rows);
    }
    return children[ordinal];
  }
}
