package dev.l0.spark.plan;

import java.util.List;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import scala.collection.immutable.Seq;

/**
 * Planner strategy: an {@link L0PipelineNode} becomes an {@link L0PipelineExec} over the planned
 * child.
 */
public final class L0PipelineStrategy extends SparkStrategy {

  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (!(plan instanceof L0PipelineNode)) {
      return PipelineAttributes.toSeq(List.of());
    }
    L0PipelineNode node = (L0PipelineNode) plan;
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
