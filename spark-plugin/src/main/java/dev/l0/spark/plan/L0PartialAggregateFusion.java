package dev.l0.spark.plan;

import dev.l0.spark.L0Settings;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.aggregate.HashAggregateExec;
import org.apache.spark.sql.internal.SQLConf;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Physical rule, run after Spark has put its columnar-to-row transitions in (so also on every
 * adaptive query stage) and before whole-stage code generation: a partial {@code HashAggregateExec}
 * without grouping keys over {@code ColumnarToRowExec(L0PipelineExec)} (or over a Project that only
 * selects attributes of it), whose functions {@link PartialAggregateFold} can fold, becomes one
 * {@link L0PartialAggregateExec} over the pipeline node. Anything else (grouping keys, other
 * functions, distinct or filtered aggregates, another child) and {@value
 * L0Settings#AGGREGATE_FUSED}{@code =false} leave the plan as it is.
 */
public final class L0PartialAggregateFusion extends Rule<SparkPlan> {

  @Override
  public SparkPlan apply(SparkPlan plan) {
    SQLConf conf = SQLConf.get();
    if (!L0Settings.aggregateFused(key -> Optional.ofNullable(conf.getConfString(key, null)))) {
      return plan;
    }
    return fusedBelow(plan);
  }

  private static SparkPlan fusedBelow(SparkPlan plan) {
    SparkPlan withFusedChildren =
        plan.children().isEmpty() ? plan : plan.mapChildren(child -> fusedBelow(child));
    return fused(withFusedChildren).orElse(withFusedChildren);
  }

  private static Optional<SparkPlan> fused(SparkPlan plan) {
    if (!(plan instanceof HashAggregateExec aggregate)
        || !aggregate.groupingExpressions().isEmpty()
        || !(belowAttributeSelection(aggregate.child()) instanceof ColumnarToRowExec transition)
        || !(transition.child() instanceof L0PipelineExec pipeline)) {
      return Optional.empty();
    }
    List<AggregateExpression> functions =
        CollectionConverters.asJava(aggregate.aggregateExpressions());
    if (!outputsTheBuffers(aggregate, functions)
        || PartialAggregateFold.of(functions, CollectionConverters.asJava(pipeline.output()))
            .isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new L0PartialAggregateExec(pipeline, aggregate.aggregateExpressions(), aggregate.output()));
  }

  /**
   * The child of a Project that only selects attributes (as column pruning leaves above a pipeline
   * that carries columns the aggregate does not read), else {@code plan}: the aggregate reads its
   * columns by attribute, so such a Project changes nothing it folds.
   */
  private static SparkPlan belowAttributeSelection(SparkPlan plan) {
    return plan instanceof ProjectExec project
            && CollectionConverters.asJava(project.projectList()).stream()
                .allMatch(expression -> expression instanceof Attribute)
        ? project.child()
        : plan;
  }

  /** Whether the aggregate outputs exactly its functions' buffer attributes, in order. */
  private static boolean outputsTheBuffers(
      HashAggregateExec aggregate, List<AggregateExpression> functions) {
    List<? extends Attribute> buffers =
        functions.stream()
            .flatMap(
                function ->
                    CollectionConverters.asJava(
                        function.aggregateFunction().inputAggBufferAttributes())
                        .stream())
            .toList();
    List<NamedExpression> results = CollectionConverters.asJava(aggregate.resultExpressions());
    if (results.size() != buffers.size()) {
      return false;
    }
    for (int i = 0; i < results.size(); i++) {
      if (!(results.get(i) instanceof Attribute result)
          || !result.exprId().equals(buffers.get(i).exprId())
          || !result.dataType().equals(buffers.get(i).dataType())) {
        return false;
      }
    }
    return true;
  }
}
