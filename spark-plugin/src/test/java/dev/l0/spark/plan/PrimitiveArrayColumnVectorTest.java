package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.junit.jupiter.api.Test;

/**
 * The output vector reads the runtime's own array (no copy) and refuses an array of another type.
 */
class PrimitiveArrayColumnVectorTest {
  @Test
  void readsTheArrayItWraps() {
    double[] prices = {1.5, -0.0, Double.NaN};
    PrimitiveArrayColumnVector vector = PrimitiveArrayColumnVector.of(DataTypes.DoubleType, prices);
    prices[0] = 2.5;
    assertEquals(2.5, vector.getDouble(0));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(vector.getDouble(1)));
    assertTrue(Double.isNaN(vector.getDouble(2)));
    assertFalse(vector.hasNull());
    assertFalse(vector.isNullAt(2));
    assertSame(DataTypes.DoubleType, vector.dataType());
    assertEquals(7L, PrimitiveArrayColumnVector.of(DataTypes.LongType, new long[] {7}).getLong(0));
    assertEquals(7, PrimitiveArrayColumnVector.of(DataTypes.IntegerType, new int[] {7}).getInt(0));
    assertEquals(
        7f, PrimitiveArrayColumnVector.of(DataTypes.FloatType, new float[] {7f}).getFloat(0));
    assertTrue(
        PrimitiveArrayColumnVector.of(DataTypes.BooleanType, new boolean[] {true}).getBoolean(0));
  }

  @Test
  void anArrayOfAnotherTypeIsAClearError() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> PrimitiveArrayColumnVector.of(DataTypes.DoubleType, new float[] {1f}));
    assertEquals(
        "an output column of Spark type double must be a double[], is float[]", e.getMessage());
    UnsupportedOperationException wrongGetter =
        assertThrows(
            UnsupportedOperationException.class,
            () ->
                PrimitiveArrayColumnVector.of(DataTypes.DoubleType, new double[] {1})
                    .getUTF8String(0));
    assertEquals("getUTF8String on an L0 output column of type double", wrongGetter.getMessage());
  }

  @Test
  void perRowArraysReadTheFlatArrayRowAfterRow() {
    double[] flat = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    ArrayType inner = DataTypes.createArrayType(DataTypes.DoubleType, false);
    ArrayType outer = DataTypes.createArrayType(inner, false);
    FixedLengthArrayColumnVector rows =
        new FixedLengthArrayColumnVector(
            outer,
            new FixedLengthArrayColumnVector(
                inner, PrimitiveArrayColumnVector.of(DataTypes.DoubleType, flat), 3),
            2);

    ColumnarArray second = rows.getArray(1);
    assertEquals(2, second.numElements());
    assertArrayEquals(new double[] {6, 7, 8}, second.getArray(0).toDoubleArray());
    assertArrayEquals(new double[] {9, 10, 11}, second.getArray(1).toDoubleArray());
    flat[10] = -1;
    assertEquals(-1, second.getArray(1).getDouble(1), "the flat array itself, not a copy");
    assertFalse(rows.isNullAt(1));
    assertFalse(second.isNullAt(1));

    IllegalStateException wrongElements =
        assertThrows(
            IllegalStateException.class,
            () ->
                new FixedLengthArrayColumnVector(
                    inner, PrimitiveArrayColumnVector.of(DataTypes.LongType, new long[] {1}), 1));
    assertEquals(
        "an output column of Spark type array<double> needs elements of type double, has bigint",
        wrongElements.getMessage());
  }
}
