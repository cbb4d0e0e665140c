package dev.l0.kernels.cudaexec;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.jvm.FlatArray;

/**
 * Buffer elements as the CUDA printer lays them out ({@link ScalarType#bytes}: bool one byte, 1 for
 * true; numbers in the machine's order) in the Java arrays that {@link
 * dev.l0.kernels.runtime.CudaContext} copies to and from the device: a {@link FlatArray}'s own
 * primitive array for numbers, which is copied as it is; a {@code byte[]} for bools, which Java
 * cannot copy in bulk between {@code boolean[]} and bytes, converted element by element.
 */
final class HostStaging {
  private HostStaging() {}

  /** Bytes of {@code elements} elements of {@code type}. */
  static long bytes(ScalarType type, long elements) {
    return Math.multiplyExact(elements, (long) type.bytes());
  }

  /** The elements of {@code array} as a copyable Java array. */
  static Object hostArray(FlatArray array) {
    if (array.elementType() != ScalarType.BOOL) {
      return array.data();
    }
    boolean[] flags = (boolean[]) array.data();
    byte[] bytes = new byte[flags.length];
    for (int i = 0; i < flags.length; i++) {
      bytes[i] = (byte) (flags[i] ? 1 : 0);
    }
    return bytes;
  }

  /** A copyable Java array for {@code length} elements of {@code type}. */
  static Object hostArray(ScalarType type, int length) {
    return type == ScalarType.BOOL ? new byte[length] : FlatArray.allocate(type, length);
  }

  /** The primitive array of a {@link FlatArray} of {@code type} holding {@code host}'s elements. */
  static Object flatData(Object host, ScalarType type) {
    if (type != ScalarType.BOOL) {
      return host;
    }
    byte[] bytes = (byte[]) host;
    boolean[] flags = new boolean[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      flags[i] = bytes[i] != 0;
    }
    return flags;
  }

  /** Element {@code index} of {@code type} in the copyable array {@code host}. */
  static ScalarValue element(Object host, ScalarType type, int index) {
    switch (type) {
      case BOOL:
        return ScalarValue.bool(((byte[]) host)[index] != 0);
      case I32:
        return ScalarValue.i32(((int[]) host)[index]);
      case I64:
        return ScalarValue.i64(((long[]) host)[index]);
      case F32:
        return ScalarValue.f32(((float[]) host)[index]);
      default:
        return ScalarValue.f64(((double[]) host)[index]);
    }
  }
}
