package dev.l0.spark.plan;

import dev.l0.spark.pipeline.ColumnBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskCompletionListener;

/**
 * The Arrow memory of one task's output (its per-row array columns): a child allocator of Spark's
 * Arrow root allocator, and the batch handed out last. A batch is closed when the next one is made
 * (its consumer is done with it by then); the last one, the allocator and whatever else the task
 * registered are closed when the task completes, failed tasks included.
 */
final class TaskOutput {
  private final StructType schema;
  private final BufferAllocator allocator;
  private ColumnarBatch current;

  private TaskOutput(StructType schema, BufferAllocator allocator) {
    this.schema = schema;
    this.allocator = allocator;
  }

  /** Output for the running task; {@code alsoAtCompletion} runs first when the task completes. */
  static TaskOutput open(StructType schema, Runnable alsoAtCompletion) {
    TaskContext task = TaskContext.get();
    BufferAllocator allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator(
                "l0-pipeline-stage-"
                    + task.stageId()
                    + "-partition-"
                    + task.partitionId()
                    + "-attempt-"
                    + task.taskAttemptId(),
                0,
                Long.MAX_VALUE);
    TaskOutput output = new TaskOutput(schema, allocator);
    task.addTaskCompletionListener(
        (TaskCompletionListener) context -> output.closeAll(alsoAtCompletion));
    return output;
  }

  /**
   * {@code batch} as a Spark column batch ({@link OutputBatch}); closes the batch returned before.
   */
  ColumnarBatch next(ColumnBatch batch) {
    closeCurrent();
    current = OutputBatch.of(batch, schema, allocator);
    return current;
  }

  private void closeCurrent() {
    if (current != null) {
      ColumnarBatch done = current;
      current = null;
      done.close();
    }
  }

  private void closeAll(Runnable alsoAtCompletion) {
    try {
      alsoAtCompletion.run();
    } finally {
      try {
        closeCurrent();
      } finally {
        allocator.close();
      }
    }
  }
}
