package dev.l0.spark.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Optimizer rule, column pruning under a pipeline: where a pipeline node's child gives columns the
 * pipeline neither reads nor carries, a Project of the ones it does goes between them, so that a
 * file scan below reads only those columns (and a Parquet scan can be given L0's own reader, which
 * reads only the types a pipeline reads). Spark's own {@code ColumnPruning} prunes a node's child
 * only from a Project above the node, which a pipeline at the top of a query does not have.
 */
public final class L0PipelineInputPruning extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    LogicalPlan withPrunedChildren = plan.mapChildren(this::apply);
    if (!(withPrunedChildren instanceof L0PipelineNode node)) {
      return withPrunedChildren;
    }
    LogicalPlan child = node.child();
    AttributeSet needed = node.references();
    if (child.outputSet().subsetOf(needed)) {
      return node;
    }
    List<NamedExpression> kept = new ArrayList<>();
    for (Attribute attribute : CollectionConverters.asJava(child.output())) {
      if (needed.contains(attribute)) {
        kept.add(attribute);
      }
    }
    return node.withNewChildInternal(
        new Project(CollectionConverters.asScala(kept).toList(), child));
  }
}
