package dev.l0.spark.pipeline;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import java.io.Serializable;
import java.util.List;

/**
 * The partial state of a REDUCE pipeline (and of SCAN's first pass) after some batches: one value
 * per result component, a boxed scalar, a primitive array or a {@link FlatArray}. Java
 * serialization writes a {@code FlatArray} (itself not serializable) as its type, data and shape.
 */
public record PartialResult(List<Object> values) implements Serializable {

  /** Copies the value list (not the arrays). */
  public PartialResult {
    values = List.copyOf(values);
  }

  private Object writeReplace() {
    return new SerialForm(
        values.stream()
            .map(
                v ->
                    v instanceof FlatArray flat
                        ? new SerialFlatArray(flat.elementType(), flat.data(), flat.shape())
                        : v)
            .toList());
  }

  /** A {@link FlatArray} as Java serialization writes it. */
  private record SerialFlatArray(ScalarType elementType, Object data, int[] shape)
      implements Serializable {}

  /**
   * A partial result as Java serialization writes it: flat arrays replaced by {@link
   * SerialFlatArray}s.
   */
  private record SerialForm(List<Object> values) implements Serializable {
    private Object readResolve() {
      return new PartialResult(
          values.stream()
              .map(
                  v ->
                      v instanceof SerialFlatArray flat
                          ? new FlatArray(flat.elementType(), flat.data(), flat.shape())
                          : v)
              .toList());
    }
  }
}
