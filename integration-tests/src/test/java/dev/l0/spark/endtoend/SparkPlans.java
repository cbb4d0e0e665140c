package dev.l0.spark.endtoend;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ExplainMode;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What Spark planned for a DataFrame: its L0 pipeline nodes and the text {@code df.explain()}
 * prints.
 */
final class SparkPlans {
  /** The physical node the L0 planner strategy produces, found by its class's simple name. */
  static final String PIPELINE_EXEC = "L0PipelineExec";

  private SparkPlans() {}

  /** Every L0 pipeline node of the executed physical plan (inside an adaptive plan too). */
  static List<SparkPlan> pipelineNodes(Dataset<Row> frame) {
    List<SparkPlan> found = new ArrayList<>();
    collectPipelineNodes(executedPlan(frame), found);
    return found;
  }

  /** The executed physical plan, for failure messages. */
  static SparkPlan executedPlan(Dataset<Row> frame) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) frame).queryExecution().executedPlan();
  }

  /** What {@code frame.explain()} prints. */
  static String explain(Dataset<Row> frame) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) frame)
        .queryExecution()
        .explainString(ExplainMode.fromString("simple"));
  }

  private static void collectPipelineNodes(SparkPlan plan, List<SparkPlan> found) {
    if (plan.getClass().getSimpleName().equals(PIPELINE_EXEC)) {
      found.add(plan);
    }
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collectPipelineNodes(adaptive.executedPlan(), found);
    }
    for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
      collectPipelineNodes(child, found);
    }
  }
}
