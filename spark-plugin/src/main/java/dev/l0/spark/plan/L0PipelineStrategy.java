package dev.l0.spark.plan;

import dev.l0.spark.pipeline.PipelineKind;
import dev.l0.spark.pipeline.PipelinePlanningException;
import java.util.List;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import scala.collection.immutable.Seq;

/**
 * Planner strategy: an {@link L0PipelineNode} becomes an {@link L0PipelineExec} over the planned
 * child. A scan over an input that may give other rows when computed again ({@link
 * RepeatableInput}) is a planning error: its two passes would disagree, and its running values
 * would jump at partition boundaries.
 */
public final class L0PipelineStrategy extends SparkStrategy {

  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (!(plan instanceof L0PipelineNode)) {
      return PipelineAttributes.toSeq(List.of());
    }
    L0PipelineNode node = (L0PipelineNode) plan;
    if (node.spec().kind() == PipelineKind.SCAN) {
      RepeatableInput.unrepeatable(node.child())
          .ifPresent(
              expression -> {
                throw new PipelinePlanningException(
                    node.spec().callSite(),
                    "a scan computes its input twice (the partitions' totals, then the running "
                        + "values), but the input holds "
                        + expression.sql()
                        + ", which is not deterministic, so the two passes could see different "
                        + "rows; persist() or checkpoint() the input before the scan");
              });
    }
    SparkPlan exec =
        new L0PipelineExec(
            planLater(node.child()),
            node.spec(),
            node.readAttributes(),
            node.carriedAttributes(),
            node.output());
    return PipelineAttributes.toSeq(List.of(exec));
  }
}
