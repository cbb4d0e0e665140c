package dev.l0.jobs;

import org.apache.spark.sql.Dataset;

/** What a job prints about how Spark runs its L0 pipeline. */
final class PipelinePlans {
  private PipelinePlans() {}

  /**
   * The L0 pipeline's line of the physical plan (kind, kernels, device), without the tree's
   * indentation.
   */
  static String pipelineNode(Dataset<?> df) {
    String plan = df.queryExecution().executedPlan().treeString();
    return plan.lines()
        .filter(line -> line.contains("L0Pipeline"))
        .map(line -> line.replaceFirst("^[\\s+\\-:*()0-9]*", ""))
        .findFirst()
        .orElseThrow(
            () -> new IllegalStateException("no L0 pipeline in the physical plan:\n" + plan));
  }
}
