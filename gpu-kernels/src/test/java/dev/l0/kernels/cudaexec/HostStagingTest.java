package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.jvm.FlatArray;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Staging as the GPU sees it, without a GPU: every element type goes into a native-order buffer in
 * the CUDA printer's layout and comes back equal, and zeroing clears a buffer larger than one bulk
 * copy.
 */
class HostStagingTest {
  private static ByteBuffer staged(FlatArray array) {
    int elements = Array.getLength(array.data());
    ByteBuffer staging =
        ByteBuffer.allocateDirect((int) HostStaging.bytes(array.elementType(), elements))
            .order(ByteOrder.nativeOrder());
    HostStaging.write(array, staging);
    return staging;
  }

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
      ByteBuffer staging = staged(new FlatArray(types[k], data[k], new int[] {3}));
      Object back = HostStaging.read(staging, types[k], 3);
      assertEquals(
          Arrays.deepToString(new Object[] {data[k]}),
          Arrays.deepToString(new Object[] {back}),
          types[k].toString());
    }
    ByteBuffer flags =
        staged(new FlatArray(ScalarType.BOOL, new boolean[] {false, true}, new int[] {2}));
    assertEquals(1, flags.get(1));
    assertEquals(ScalarValue.bool(true), HostStaging.element(flags, ScalarType.BOOL, 1));
    ByteBuffer doubles =
        staged(new FlatArray(ScalarType.F64, new double[] {2.5, -7.0}, new int[] {2}));
    assertEquals(ScalarValue.f64(-7.0), HostStaging.element(doubles, ScalarType.F64, 1));
  }

  @Test
  void zeroingClearsTheWholeBuffer() {
    ByteBuffer staging = ByteBuffer.allocateDirect(200_003);
    while (staging.hasRemaining()) {
      staging.put((byte) 0x5a);
    }
    staging.position(17);
    HostStaging.zero(staging);
    byte[] contents = new byte[staging.capacity()];
    staging.clear();
    staging.get(contents);
    assertArrayEquals(new byte[contents.length], contents);
  }
}
