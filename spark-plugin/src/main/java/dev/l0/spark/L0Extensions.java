package dev.l0.spark;

import dev.l0.spark.plan.L0ParquetReading;
import dev.l0.spark.plan.L0PartialAggregateFusion;
import dev.l0.spark.plan.L0PipelineFusion;
import dev.l0.spark.plan.L0PipelineInputPruning;
import dev.l0.spark.plan.L0PipelineStrategy;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.SparkPlan;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The SQL extension ({@code spark.sql.extensions=dev.l0.spark.L0Extensions}): the optimizer rules
 * that fuse adjacent pipelines and prune the columns under a pipeline to those it uses, the planner
 * strategy that plans them as columnar nodes, and the columnar rules: before the transitions, the
 * one that gives a Parquet scan under a pipeline node L0's own reader; after them, the one that
 * fuses a partial aggregate without grouping keys onto a pipeline node.
 */
public final class L0Extensions implements Function1<SparkSessionExtensions, BoxedUnit> {

  /** Spark instantiates the extension by name. */
  public L0Extensions() {}

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectOptimizerRule(session -> new L0PipelineFusion());
    extensions.injectOptimizerRule(session -> new L0PipelineInputPruning());
    extensions.injectPlannerStrategy(session -> new L0PipelineStrategy());
    extensions.injectColumnar(
        session ->
            new ColumnarRule() {
              @Override
              public Rule<SparkPlan> preColumnarTransitions() {
                return new L0ParquetReading();
              }

              @Override
              public Rule<SparkPlan> postColumnarTransitions() {
                return new L0PartialAggregateFusion();
              }
            });
    return BoxedUnit.UNIT;
  }
}
