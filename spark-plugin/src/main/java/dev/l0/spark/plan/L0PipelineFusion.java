package dev.l0.spark.plan;

import dev.l0.spark.pipeline.PipelinePlanner;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Optimizer rule: a pipeline node directly over another (or over a Project that only selects
 * attributes of the other, as column pruning leaves) becomes one node running the composed program,
 * so {@code df.transform(a).transform(b)} compiles to one fused program. The fused node keeps the
 * upper node's output attributes and the lower node's input attributes (the lower node's child may
 * have been pruned since it was planned, so its spec's ordinals no longer index that child's
 * output; the attributes do). Pipelines the planner cannot merge stay apart.
 */
public final class L0PipelineFusion extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    LogicalPlan withFusedChildren = plan.mapChildren(this::apply);
    return fused(withFusedChildren).orElse(withFusedChildren);
  }

  private static Optional<LogicalPlan> fused(LogicalPlan plan) {
    if (!(plan instanceof L0PipelineNode)) {
      return Optional.empty();
    }
    L0PipelineNode second = (L0PipelineNode) plan;
    Optional<L0PipelineNode> first = producer(second);
    if (first.isEmpty()) {
      return Optional.empty();
    }
    Optional<PipelineSpec> merged = PipelinePlanner.merge(first.get().spec(), second.spec());
    return merged.map(
        spec ->
            new L0PipelineNode(
                first.get().child(),
                spec,
                first.get().readAttributes(),
                first.get().carriedAttributes(),
                second.output()));
  }

  /**
   * The pipeline node feeding {@code consumer}, directly or through a Project of its attributes
   * only.
   */
  private static Optional<L0PipelineNode> producer(L0PipelineNode consumer) {
    LogicalPlan below = consumer.child();
    if (below instanceof Project) {
      Project project = (Project) below;
      if (!selectsAttributesOnly(project)) {
        return Optional.empty();
      }
      below = project.child();
    }
    if (!(below instanceof L0PipelineNode)) {
      return Optional.empty();
    }
    L0PipelineNode producer = (L0PipelineNode) below;
    return PipelineAttributes.setOf(consumer.readAttributes()).subsetOf(producer.outputSet())
        ? Optional.of(producer)
        : Optional.empty();
  }

  private static boolean selectsAttributesOnly(Project project) {
    List<NamedExpression> list = CollectionConverters.asJava(project.projectList());
    return list.stream().allMatch(expression -> expression instanceof Attribute);
  }
}
