package dev.l0.spark.plan;

import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;

/**
 * A read-only Spark column vector of per-row arrays that all have one length, over a child vector
 * of their elements laid out row after row (a runtime result's row-major flat array: the leaf is a
 * {@link PrimitiveArrayColumnVector} over it, an inner dimension another vector of this kind): row
 * {@code r}'s array is the child's elements {@code [r * length, (r + 1) * length)}, so reading an
 * element is a plain array load and {@code ColumnarArray.toDoubleArray} one {@code arraycopy}; no
 * nulls, no copy, nothing to free.
 */
final class FixedLengthArrayColumnVector extends ReadOnlyOutputColumnVector {
  private final ColumnVector elements;
  private final int length;

  /**
   * The vector of arrays of {@code type} with {@code length} elements each, read from {@code
   * elements} (whose type is {@code type}'s element type).
   */
  FixedLengthArrayColumnVector(ArrayType type, ColumnVector elements, int length) {
    super(type);
    if (!elements.dataType().equals(type.elementType())) {
      throw new IllegalStateException(
          "an output column of Spark type "
              + type.simpleString()
              + " needs elements of type "
              + type.elementType().simpleString()
              + ", has "
              + elements.dataType().simpleString());
    }
    this.elements = elements;
    this.length = length;
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return new ColumnarArray(elements, rowId * length, length);
  }

  @Override
  public void close() {
    elements.close();
  }
}
