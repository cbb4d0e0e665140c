package dev.l0.kernels.api;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * How each L0 scalar type appears in Java: {@code bool}, {@code i32}, {@code i64}, {@code f32},
 * {@code f64} as {@code Boolean}/{@code boolean[]}, {@code Integer}/{@code int[]}/{@code
 * IntBuffer}, {@code Long}/{@code long[]}/{@code LongBuffer}, {@code Float}/{@code float[]}/{@code
 * FloatBuffer}, {@code Double}/{@code double[]}/{@code DoubleBuffer}; in a {@code ByteBuffer}, one
 * byte per {@code bool} (non-zero is true) and the number's width in the buffer's own byte order
 * otherwise.
 */
public final class JavaScalars {
  private JavaScalars() {}

  /** The boxed class of a scalar of {@code type}. */
  public static Class<?> boxedClass(ScalarType type) {
    switch (type) {
      case BOOL:
        return Boolean.class;
      case I32:
        return Integer.class;
      case I64:
        return Long.class;
      case F32:
        return Float.class;
      default:
        return Double.class;
    }
  }

  /**
   * The class of nested Java arrays of {@code rank} dimensions of {@code type}'s elements ({@code
   * double[][]} for f64 and rank 2).
   */
  public static Class<?> nestedArrayClass(ScalarType type, int rank) {
    Class<?> nested = arrayClass(type);
    for (int d = 1; d < rank; d++) {
      nested = nested.arrayType();
    }
    return nested;
  }

  /** The primitive array class of a column of {@code type}. */
  public static Class<?> arrayClass(ScalarType type) {
    switch (type) {
      case BOOL:
        return boolean[].class;
      case I32:
        return int[].class;
      case I64:
        return long[].class;
      case F32:
        return float[].class;
      default:
        return double[].class;
    }
  }

  /**
   * The typed NIO buffer class of a column of {@code type}; {@code bool} has only {@code
   * ByteBuffer}.
   */
  static Class<? extends Buffer> bufferClass(ScalarType type) {
    switch (type) {
      case BOOL:
        return ByteBuffer.class;
      case I32:
        return IntBuffer.class;
      case I64:
        return LongBuffer.class;
      case F32:
        return FloatBuffer.class;
      default:
        return DoubleBuffer.class;
    }
  }

  /** The bytes one element of {@code type} takes in a {@code ByteBuffer}. */
  static int byteWidth(ScalarType type) {
    switch (type) {
      case BOOL:
        return 1;
      case I32:
      case F32:
        return 4;
      default:
        return 8;
    }
  }

  /** The scalar {@code boxed}, an instance of {@link #boxedClass}{@code (type)}. */
  static ScalarValue unbox(Object boxed, ScalarType type) {
    switch (type) {
      case BOOL:
        return ScalarValue.bool((Boolean) boxed);
      case I32:
        return ScalarValue.i32((Integer) boxed);
      case I64:
        return ScalarValue.i64((Long) boxed);
      case F32:
        return ScalarValue.f32((Float) boxed);
      default:
        return ScalarValue.f64((Double) boxed);
    }
  }

  /** {@code value} boxed as {@link #boxedClass} of its type. */
  static Object box(ScalarValue value) {
    switch (value.type()) {
      case BOOL:
        return ((ScalarValue.Bool) value).value();
      case I32:
        return (int) ((ScalarValue.Int) value).value();
      case I64:
        return ((ScalarValue.Int) value).value();
      case F32:
        return (float) ((ScalarValue.Float) value).value();
      default:
        return ((ScalarValue.Float) value).value();
    }
  }

  /**
   * The {@code count} elements of {@code type} from {@code buffer}'s position (a {@link
   * #bufferClass} or byte buffer), as a primitive array of {@link #arrayClass}: a heap buffer's own
   * array where the elements are all of it (no copy), else a copy made in bulk through a typed view
   * (bools, which Java cannot copy in bulk from bytes, element by element). The buffer's position
   * does not move.
   */
  static Object primitiveArray(Buffer buffer, ScalarType type, int count) {
    if (buffer.hasArray()
        && buffer.arrayOffset() == 0
        && buffer.position() == 0
        && !(buffer instanceof ByteBuffer)
        && Array.getLength(buffer.array()) == count) {
      return buffer.array();
    }
    Buffer typed = buffer instanceof ByteBuffer bytes ? typedView(bytes, type) : buffer.duplicate();
    switch (type) {
      case BOOL:
        ByteBuffer flags = (ByteBuffer) typed;
        boolean[] bools = new boolean[count];
        for (int i = 0; i < count; i++) {
          bools[i] = flags.get(i) != 0;
        }
        return bools;
      case I32:
        int[] ints = new int[count];
        ((IntBuffer) typed).get(ints);
        return ints;
      case I64:
        long[] longs = new long[count];
        ((LongBuffer) typed).get(longs);
        return longs;
      case F32:
        float[] floats = new float[count];
        ((FloatBuffer) typed).get(floats);
        return floats;
      default:
        double[] doubles = new double[count];
        ((DoubleBuffer) typed).get(doubles);
        return doubles;
    }
  }

  /**
   * A view of {@code bytes} from its position as elements of {@code type}, in its byte order; a
   * slice of bytes for {@code bool}.
   */
  private static Buffer typedView(ByteBuffer bytes, ScalarType type) {
    ByteBuffer from = bytes.slice().order(bytes.order());
    switch (type) {
      case BOOL:
        return from;
      case I32:
        return from.asIntBuffer();
      case I64:
        return from.asLongBuffer();
      case F32:
        return from.asFloatBuffer();
      default:
        return from.asDoubleBuffer();
    }
  }
}
