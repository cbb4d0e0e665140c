package dev.l0.spark.plan;

/**
 * Where the tasks of a pipeline ran, from its nodes' SQL metrics: {@code onGpu} tasks whose
 * programs ran on CUDA, {@code onJvm} tasks whose programs ran on the JVM backend, and {@code
 * fallbacks}, those of the {@code onJvm} tasks that Spark had assigned a GPU that could not be
 * used.
 */
public record TasksRun(long onGpu, long onJvm, long fallbacks) {
  /** No task. */
  public static final TasksRun NONE = new TasksRun(0, 0, 0);

  /** These tasks and {@code other}'s. */
  public TasksRun plus(TasksRun other) {
    return new TasksRun(onGpu + other.onGpu, onJvm + other.onJvm, fallbacks + other.fallbacks);
  }

  /**
   * E.g. {@code 3 tasks on the GPU, 1 task on the JVM backend (1 fallback: assigned a GPU that
   * could not be used)}, or {@code no task has run it} where none has.
   */
  public String describe() {
    if (onGpu + onJvm == 0) {
      return "no task has run it";
    }
    String where = tasks(onGpu) + " on the GPU, " + tasks(onJvm) + " on the JVM backend";
    return fallbacks == 0
        ? where
        : where
            + " ("
            + fallbacks
            + (fallbacks == 1 ? " fallback" : " fallbacks")
            + ": assigned a GPU that could not be used)";
  }

  private static String tasks(long count) {
    return count + (count == 1 ? " task" : " tasks");
  }
}
