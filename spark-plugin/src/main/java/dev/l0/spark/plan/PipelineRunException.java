package dev.l0.spark.plan;

import dev.l0.ir.L0RuntimeError;
import dev.l0.spark.pipeline.PipelineMessages;
import java.util.OptionalInt;

/**
 * A pipeline's program failed in a task ({@link L0RuntimeError}: an index out of bounds, an integer
 * division by zero, ...). The message names the user's line that called {@code L0.pipeline}, the
 * partition and the row (counted from 0 within the partition, as null errors count), or the batch's
 * rows where no single row fails alone, or no row where the failing code does not depend on the
 * rows, then the L0 error with its source position; the L0 error is the cause. Where only the
 * partitions' partial results together fail, it says so instead of a partition and row.
 */
public final class PipelineRunException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private PipelineRunException(String callSite, String where, L0RuntimeError error) {
    super(PipelineMessages.at(callSite, where + ": " + error.getMessage()), error);
  }

  /**
   * The program failed in {@code partition} on the batch of {@code rows} rows from {@code
   * firstRow}: at {@code failingRow} of the batch, or where no single row fails alone, on them
   * together.
   */
  static PipelineRunException inRows(
      String callSite,
      int partition,
      long firstRow,
      int rows,
      OptionalInt failingRow,
      L0RuntimeError error) {
    return new PipelineRunException(
        callSite,
        "partition "
            + partition
            + ", "
            + (failingRow.isPresent()
                ? "row " + (firstRow + failingRow.getAsInt())
                : "rows "
                    + firstRow
                    + " to "
                    + (firstRow + rows - 1)
                    + " (no single row fails alone)"),
        error);
  }

  /**
   * The program failed in {@code partition} on code that does not depend on the rows: it fails on
   * no rows as well, so no row is named.
   */
  static PipelineRunException withoutRows(String callSite, int partition, L0RuntimeError error) {
    return new PipelineRunException(
        callSite,
        "partition "
            + partition
            + ", no row (the failing code does not depend on the rows: it fails on no rows too)",
        error);
  }

  /**
   * The program failed combining the partial results of {@code partitions} partitions (an exact
   * float sum that overflows only in their total, say), after every partition's own rows ran.
   */
  static PipelineRunException combining(String callSite, int partitions, L0RuntimeError error) {
    return new PipelineRunException(
        callSite, "combining the partial results of the " + partitions + " partitions", error);
  }
}
