package dev.l0.spark.plan;

/**
 * Input rows a pipeline cannot take, found while a task reads them: a null without a declared
 * replacement, or arrays of different lengths in one array column. The message names the column,
 * the partition and the row.
 */
public final class InputDataException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  InputDataException(String message) {
    super(message);
  }
}
