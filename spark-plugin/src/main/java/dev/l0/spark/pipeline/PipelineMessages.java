package dev.l0.spark.pipeline;

/**
 * The form of every message about a pipeline, at planning or at run time: {@code "L0 pipeline at
 * <callSite>: <what is wrong>"}, the call site being the user's line that built it ({@code
 * Job.java:42}).
 */
public final class PipelineMessages {
  private PipelineMessages() {}

  /** {@code problem}, said of the pipeline built at {@code callSite}. */
  public static String at(String callSite, String problem) {
    return "L0 pipeline at " + callSite + ": " + problem;
  }
}
