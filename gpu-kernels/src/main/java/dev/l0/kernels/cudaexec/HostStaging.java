package dev.l0.kernels.cudaexec;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.jvm.FlatArray;
import java.nio.ByteBuffer;

/**
 * The bytes of buffer elements as the CUDA printer lays them out ({@link CudaPrinter#sizeOf}: bool
 * one byte, 1 for true; numbers in the machine's order), to and from the primitive arrays of {@link
 * FlatArray}: numbers by bulk copies through typed views of the buffer; bools, which Java cannot
 * copy in bulk between {@code boolean[]} and bytes, element by element.
 */
final class HostStaging {
  /** Zero bytes copied in bulk to clear staging memory. */
  private static final byte[] ZEROS = new byte[64 * 1024];

  private HostStaging() {}

  /** Fills {@code target} with zero bytes from position 0 to its capacity. */
  static void zero(ByteBuffer target) {
    ByteBuffer zeros = target.duplicate();
    zeros.clear();
    while (zeros.hasRemaining()) {
      zeros.put(ZEROS, 0, Math.min(ZEROS.length, zeros.remaining()));
    }
  }

  /** Bytes of {@code elements} elements of {@code type}. */
  static long bytes(ScalarType type, long elements) {
    return Math.multiplyExact(elements, (long) CudaPrinter.sizeOf(type));
  }

  /** Writes the elements of {@code array} into {@code target} from its position 0. */
  static void write(FlatArray array, ByteBuffer target) {
    Object data = array.data();
    switch (array.elementType()) {
      case BOOL:
        boolean[] flags = (boolean[]) data;
        for (int i = 0; i < flags.length; i++) {
          target.put(i, (byte) (flags[i] ? 1 : 0));
        }
        break;
      case I32:
        target.asIntBuffer().put((int[]) data);
        break;
      case I64:
        target.asLongBuffer().put((long[]) data);
        break;
      case F32:
        target.asFloatBuffer().put((float[]) data);
        break;
      default:
        target.asDoubleBuffer().put((double[]) data);
        break;
    }
  }

  /** The first {@code length} elements of {@code type} in {@code source}, as a primitive array. */
  static Object read(ByteBuffer source, ScalarType type, int length) {
    Object data = FlatArray.allocate(type, length);
    switch (type) {
      case BOOL:
        boolean[] flags = (boolean[]) data;
        for (int i = 0; i < length; i++) {
          flags[i] = source.get(i) != 0;
        }
        break;
      case I32:
        source.asIntBuffer().get((int[]) data);
        break;
      case I64:
        source.asLongBuffer().get((long[]) data);
        break;
      case F32:
        source.asFloatBuffer().get((float[]) data);
        break;
      default:
        source.asDoubleBuffer().get((double[]) data);
        break;
    }
    return data;
  }

  /** Element {@code index} of {@code type} in {@code source}. */
  static ScalarValue element(ByteBuffer source, ScalarType type, int index) {
    int offset = index * CudaPrinter.sizeOf(type);
    switch (type) {
      case BOOL:
        return ScalarValue.bool(source.get(offset) != 0);
      case I32:
        return ScalarValue.i32(source.getInt(offset));
      case I64:
        return ScalarValue.i64(source.getLong(offset));
      case F32:
        return ScalarValue.f32(source.getFloat(offset));
      default:
        return ScalarValue.f64(source.getDouble(offset));
    }
  }
}
