package dev.l0.spark.pipeline;

/** How a pipeline's results relate to its input rows. */
public enum PipelineKind {
  /** Every result is a row-wise array (map, filter, zip): one output row per result row. */
  ROWS,
  /** Every result is a reduction over the rows: exactly one output row. */
  REDUCE,
  /**
   * Every result is an inclusive scan over the rows: one output row per row, in physical row order.
   */
  SCAN
}
