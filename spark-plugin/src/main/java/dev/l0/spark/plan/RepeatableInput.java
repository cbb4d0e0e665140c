package dev.l0.spark.plan;

import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Nondeterministic;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Whether a plan gives the same rows each time it is computed, as a scan pipeline needs: it
 * computes its input twice, once for the partitions' totals and once for the running values.
 * Catalyst's partition-seeded expressions ({@code rand(seed)}, {@code uuid()}, {@code shuffle}: its
 * {@code Nondeterministic} ones) repeat for the same partitioning; an expression Catalyst marks
 * non-deterministic for any other reason, such as a UDF declared with {@code asNondeterministic()},
 * need not. A persisted or checkpointed input is read back, not recomputed, and its plan holds no
 * such expression.
 */
final class RepeatableInput {
  private RepeatableInput() {}

  /** The first expression in {@code plan} that may give other values when it is computed again. */
  static Optional<Expression> unrepeatable(LogicalPlan plan) {
    for (Expression expression : CollectionConverters.asJava(plan.expressions())) {
      Optional<Expression> found = unrepeatable(expression);
      if (found.isPresent()) {
        return found;
      }
    }
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      Optional<Expression> found = unrepeatable(child);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Expression> unrepeatable(Expression expression) {
    if (expression.deterministic()) {
      return Optional.empty();
    }
    boolean childrenDeterministic = true;
    for (Expression child : CollectionConverters.asJava(expression.children())) {
      if (!child.deterministic()) {
        childrenDeterministic = false;
        Optional<Expression> found = unrepeatable(child);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return childrenDeterministic && !(expression instanceof Nondeterministic)
        ? Optional.of(expression)
        : Optional.empty();
  }
}
