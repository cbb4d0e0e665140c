package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.jvm.FlatArray;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Host arrays as the GPU sees them, without a GPU: numbers are copied from the flat array's own
 * primitive array (no copy on the host), bools as one byte each, 1 for true, and every element type
 * comes back equal.
 */
class HostStagingTest {
  @Test
  void everyElementTypeRoundTripsInTheDevicesLayout() {
    Object[] data = {
      new boolean[] {true, false, true},
      new int[] {1, -2, Integer.MAX_VALUE},
      new long[] {Long.MIN_VALUE, 0, 3},
      new float[] {1.5f, Float.NaN, -0f},
      new double[] {Math.PI, -1e300, Double.MIN_VALUE}
    };
    ScalarType[] types = {
      ScalarType.BOOL, ScalarType.I32, ScalarType.I64, ScalarType.F32, ScalarType.F64
    };
    for (int k = 0; k < types.length; k++) {
      Object host = HostStaging.hostArray(new FlatArray(types[k], data[k], new int[] {3}));
      Object back = HostStaging.flatData(host, types[k]);
      assertEquals(
          Arrays.deepToString(new Object[] {data[k]}),
          Arrays.deepToString(new Object[] {back}),
          types[k].toString());
    }
  }

  @Test
  void numbersAreCopiedFromTheFlatArraysOwnArrayAndBoolsAsOneBytePerElement() {
    double[] prices = {2.5, -7.0};
    assertSame(prices, HostStaging.hostArray(new FlatArray(ScalarType.F64, prices, new int[] {2})));
    Object flags =
        HostStaging.hostArray(
            new FlatArray(ScalarType.BOOL, new boolean[] {false, true}, new int[] {2}));
    assertArrayEquals(new byte[] {0, 1}, (byte[]) flags);
    assertEquals(ScalarValue.bool(true), HostStaging.element(flags, ScalarType.BOOL, 1));
    assertEquals(ScalarValue.f64(-7.0), HostStaging.element(prices, ScalarType.F64, 1));
    assertEquals(2, ((byte[]) HostStaging.hostArray(ScalarType.BOOL, 2)).length);
    assertEquals(2, ((long[]) HostStaging.hostArray(ScalarType.I64, 2)).length);
    assertEquals(2, HostStaging.bytes(ScalarType.BOOL, 2));
    assertEquals(16, HostStaging.bytes(ScalarType.F64, 2));
  }
}
