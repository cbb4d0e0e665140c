package dev.l0.spark.pipeline;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import java.io.Serializable;

/**
 * A driver-side value bound to an entry parameter, checked and flattened at planning time: the
 * parameter's name and position among the entry's parameters, its element type, its shape (empty
 * for a scalar) and its data (the boxed scalar, or the row-major primitive array). Serializable as
 * it is, so it travels to executors with Java or Kryo serialization.
 */
record BoundValue(String parameter, int position, ScalarType elementType, int[] shape, Object data)
    implements Serializable {

  /**
   * The value as the runtime takes it: the boxed scalar, or a {@link FlatArray} over the data (not
   * copied).
   */
  Object argument() {
    return shape.length == 0 ? data : new FlatArray(elementType, data, shape);
  }

  /** E.g. {@code "grid [f64] of shape [100]"} or {@code "rate f64"}. */
  String describe() {
    if (shape.length == 0) {
      return parameter + " " + elementType.keyword() + " = " + data;
    }
    return parameter
        + " "
        + "[".repeat(shape.length)
        + elementType.keyword()
        + "]".repeat(shape.length)
        + " of shape "
        + java.util.Arrays.toString(shape);
  }
}
