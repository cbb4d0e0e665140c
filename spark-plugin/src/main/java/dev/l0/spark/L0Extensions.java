package dev.l0.spark;

import dev.l0.spark.plan.L0PartialAggregateFusion;
import dev.l0.spark.plan.L0PipelineFusion;
import dev.l0.spark.plan.L0PipelineStrategy;
import org.apache.spark.sql.SparkSessionExtensions;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The SQL extension ({@code spark.sql.extensions=dev.l0.spark.L0Extensions}): the optimizer rule
 * that fuses adjacent pipelines, the planner strategy that plans them as columnar nodes, and the
 * columnar rule that fuses a partial aggregate without grouping keys onto a pipeline node.
 */
public final class L0Extensions implements Function1<SparkSessionExtensions, BoxedUnit> {

  /** Spark instantiates the extension by name. */
  public L0Extensions() {}

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectOptimizerRule(session -> new L0PipelineFusion());
    extensions.injectPlannerStrategy(session -> new L0PipelineStrategy());
    extensions.injectColumnar(session -> L0PartialAggregateFusion.columnarRule());
    return BoxedUnit.UNIT;
  }
}
