package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.sql.types.DataTypes;
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
}
