package dev.l0.spark.plan;

import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.pipeline.ColumnBatch;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Runtime output batches as Spark column batches over the runtime's arrays themselves, no copy: a
 * scalar column is a {@link PrimitiveArrayColumnVector} over its primitive array; a per-row array
 * column (a row-major flat array of shape {@code [rows, n1, n2, ...]}) is a {@link
 * FixedLengthArrayColumnVector} per dimension over one {@link PrimitiveArrayColumnVector} of the
 * flat array, so Spark reads its elements as plain array loads. Columns carried from the input
 * ({@code carry(...)}) come first, as the input batch's own vectors. Nothing to free.
 */
final class OutputBatch {
  private OutputBatch() {}

  /** The batch's columns, of {@code schema}, with nothing carried. */
  static ColumnarBatch of(ColumnBatch batch, StructType schema) {
    return of(new ColumnVector[0], batch, schema);
  }

  /** The {@code carried} input vectors (of the batch's rows), then the batch's columns. */
  static ColumnarBatch of(ColumnVector[] carried, ColumnBatch batch, StructType schema) {
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
    ColumnVector[] vectors = Arrays.copyOf(carried, carried.length + fields.length);
    for (int c = 0; c < fields.length; c++) {
      Object column = columns.get(c);
      vectors[carried.length + c] =
          column instanceof FlatArray array
              ? arrays(fields[c].dataType(), array.data(), array.shape(), 1)
              : PrimitiveArrayColumnVector.of(fields[c].dataType(), column);
    }
    return new ColumnarBatch(vectors, batch.rows());
  }

  /**
   * The vector of dimension {@code dimension}'s arrays (of {@code type}) of a row-major array of
   * {@code shape}: arrays of {@code shape[dimension]} elements each over the next dimension's
   * vector, the last over the flat array itself.
   */
  private static ColumnVector arrays(DataType type, Object data, int[] shape, int dimension) {
    if (!(type instanceof ArrayType arrayType)) {
      throw new IllegalStateException(
          "an output column with "
              + (shape.length - 1)
              + " array dimensions has Spark type "
              + type.simpleString());
    }
    ColumnVector elements =
        dimension == shape.length - 1
            ? PrimitiveArrayColumnVector.of(arrayType.elementType(), data)
            : arrays(arrayType.elementType(), data, shape, dimension + 1);
    return new FixedLengthArrayColumnVector(arrayType, elements, shape[dimension]);
  }
}
