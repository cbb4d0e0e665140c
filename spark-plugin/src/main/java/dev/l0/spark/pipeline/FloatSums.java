package dev.l0.spark.pipeline;

/** How a REDUCE pipeline sums floats across batches and partitions. */
public enum FloatSums {
  /**
   * Each batch's sum rounded, batches and partitions combined in order with the reduce's operator
   * (the default).
   */
  ORDERED,
  /**
   * Exact where the pipeline has a float sum, ordered elsewhere: the session's {@code
   * spark.l0.exactFloatSums=true}.
   */
  EXACT_WHERE_PRESENT,
  /**
   * Exact; planning fails where the pipeline has no float sum to make exact: {@code
   * L0Pipeline.exactFloatSums()}.
   */
  EXACT
}
