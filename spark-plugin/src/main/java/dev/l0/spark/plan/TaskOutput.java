package dev.l0.spark.plan;

import dev.l0.spark.pipeline.ColumnBatch;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskCompletionListener;

/**
 * One task's output batches ({@link OutputBatch}, over the runtime's arrays: nothing to free), and
 * what the task registered to close when it completes, failed tasks included.
 */
final class TaskOutput {
  private final StructType schema;

  private TaskOutput(StructType schema) {
    this.schema = schema;
  }

  /** Output for the running task; {@code atCompletion} runs when the task completes. */
  static TaskOutput open(StructType schema, Runnable atCompletion) {
    TaskContext.get()
        .addTaskCompletionListener((TaskCompletionListener) context -> atCompletion.run());
    return new TaskOutput(schema);
  }

  /**
   * {@code batch} as a Spark column batch ({@link OutputBatch}), after the {@code carried} input
   * columns of its rows.
   */
  ColumnarBatch next(ColumnVector[] carried, ColumnBatch batch) {
    return OutputBatch.of(carried, batch, schema);
  }
}
