package dev.l0.spark.plan;

import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.pipeline.ColumnBatch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedWidthVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Runtime output batches as Spark column batches: a scalar column is the runtime's primitive array
 * itself ({@link PrimitiveArrayColumnVector}, no copy); a per-row array column is an Arrow list
 * vector filled in bulk from the flat array. The caller owns the batch and closes it, which frees
 * its Arrow buffers.
 */
final class OutputBatch {
  private static final String TIME_ZONE = "UTC";

  /** The most bytes copied through one {@link ByteBuffer} view (its capacity is an int). */
  private static final int COPY_SEGMENT_BYTES = 1 << 30;

  private OutputBatch() {}

  static ColumnarBatch of(ColumnBatch batch, StructType schema, BufferAllocator allocator) {
    StructField[] fields = schema.fields();
    List<Object> columns = batch.columns();
    if (columns.size() != fields.length) {
      throw new IllegalStateException(
          "pipeline produced "
              + columns.size()
              + " columns for "
              + fields.length
              + " output fields "
              + schema.simpleString());
    }
    ColumnVector[] vectors = new ColumnVector[fields.length];
    try {
      for (int c = 0; c < fields.length; c++) {
        Object column = columns.get(c);
        if (column instanceof FlatArray array) {
          FieldVector vector =
              ArrowUtils.toArrowField(
                      fields[c].name(), fields[c].dataType(), false, TIME_ZONE, false)
                  .createVector(allocator);
          vectors[c] = new ArrowColumnVector(vector);
          fill(vector, array.data(), array.shape(), 0, batch.rows());
        } else {
          vectors[c] = PrimitiveArrayColumnVector.of(fields[c].dataType(), column);
        }
      }
    } catch (RuntimeException | Error e) {
      for (ColumnVector vector : vectors) {
        if (vector != null) {
          vector.close();
        }
      }
      throw e;
    }
    return new ColumnarBatch(vectors, batch.rows());
  }

  /**
   * Fills {@code vector} with the {@code count} values of dimension {@code dimension} of a
   * row-major array.
   */
  private static void fill(FieldVector vector, Object data, int[] shape, int dimension, int count) {
    if (vector instanceof ListVector) {
      ListVector list = (ListVector) vector;
      int length = shape[dimension + 1];
      list.setInitialCapacity(count);
      list.allocateNew();
      for (int i = 0; i < count; i++) {
        list.startNewValue(i);
        list.endValue(i, length);
      }
      list.setValueCount(count);
      fill(list.getDataVector(), data, shape, dimension + 1, Math.multiplyExact(count, length));
      return;
    }
    if (vector instanceof BitVector) {
      BitVector bits = (BitVector) vector;
      boolean[] values = (boolean[]) data;
      bits.allocateNew(count);
      for (int i = 0; i < count; i++) {
        bits.set(i, values[i] ? 1 : 0);
      }
      bits.setValueCount(count);
      return;
    }
    FixedWidthVector fixed = (FixedWidthVector) vector;
    fixed.allocateNew(count);
    copyInto(vector.getDataBuffer(), data, count);
    vector.getValidityBuffer().setOne(0L, (long) BitVectorHelper.getValidityBufferSize(count));
    fixed.setValueCount(count);
  }

  /** Copies {@code count} elements of a double/float/long/int array into Arrow memory in bulk. */
  private static void copyInto(ArrowBuf target, Object data, int count) {
    int width = elementBytes(data);
    long address = target.memoryAddress();
    int perSegment = COPY_SEGMENT_BYTES / width;
    for (int start = 0; start < count; start += perSegment) {
      int elements = Math.min(perSegment, count - start);
      ByteBuffer view =
          MemoryUtil.directBuffer(address + (long) start * width, elements * width)
              .order(ByteOrder.LITTLE_ENDIAN);
      if (data instanceof double[]) {
        view.asDoubleBuffer().put((double[]) data, start, elements);
      } else if (data instanceof float[]) {
        view.asFloatBuffer().put((float[]) data, start, elements);
      } else if (data instanceof long[]) {
        view.asLongBuffer().put((long[]) data, start, elements);
      } else {
        view.asIntBuffer().put((int[]) data, start, elements);
      }
    }
  }

  private static int elementBytes(Object data) {
    if (data instanceof double[] || data instanceof long[]) {
      return Long.BYTES;
    }
    if (data instanceof float[] || data instanceof int[]) {
      return Integer.BYTES;
    }
    throw new IllegalStateException("not a numeric column array: " + data.getClass().getName());
  }
}
