package dev.l0.spark.pipeline;

import java.util.List;

/**
 * Rows of a batch column by column: rank-1 columns as primitive arrays ({@code double[]}, {@code
 * float[]}, {@code int[]}, {@code long[]}, {@code boolean[]}) of exactly {@code rows} elements,
 * rank above 1 as {@link dev.l0.kernels.jvm.FlatArray} with shape {@code [rows, ...]}. Used for
 * inputs (one per {@link InputBinding}) and outputs (one per output schema field). The column
 * arrays are shared, not copied.
 */
public record ColumnBatch(int rows, List<Object> columns) {

  /** Checks the row count and copies the column list (not the arrays). */
  public ColumnBatch {
    if (rows < 0) {
      throw new IllegalArgumentException("a batch cannot have " + rows + " rows");
    }
    columns = List.copyOf(columns);
  }
}
