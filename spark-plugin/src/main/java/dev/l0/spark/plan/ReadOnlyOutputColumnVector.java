package dev.l0.spark.plan;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * What the L0 output column vectors share: read-only, no nulls, and every getter a subclass does
 * not serve fails naming the getter and the column's Spark type (Spark reads a column only with the
 * getters of its type, so such a call is a bug in the plan, never the user's data).
 */
abstract class ReadOnlyOutputColumnVector extends ColumnVector {
  ReadOnlyOutputColumnVector(DataType type) {
    super(type);
  }

  @Override
  public boolean hasNull() {
    return false;
  }

  @Override
  public int numNulls() {
    return 0;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return false;
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported("getBoolean");
  }

  @Override
  public byte getByte(int rowId) {
    throw unsupported("getByte");
  }

  @Override
  public short getShort(int rowId) {
    throw unsupported("getShort");
  }

  @Override
  public int getInt(int rowId) {
    throw unsupported("getInt");
  }

  @Override
  public long getLong(int rowId) {
    throw unsupported("getLong");
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported("getFloat");
  }

  @Override
  public double getDouble(int rowId) {
    throw unsupported("getDouble");
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported("getArray");
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported("getMap");
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported("getDecimal");
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported("getUTF8String");
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported("getBinary");
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported("getChild");
  }

  private UnsupportedOperationException unsupported(String getter) {
    return new UnsupportedOperationException(
        getter + " on an L0 output column of type " + type.simpleString());
  }
}
