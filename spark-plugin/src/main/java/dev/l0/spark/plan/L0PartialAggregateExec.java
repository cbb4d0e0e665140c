package dev.l0.spark.plan;

import java.util.List;
import java.util.Objects;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.execution.ColumnarToRowTransition;
import org.apache.spark.sql.execution.SparkPlan;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A partial aggregate without grouping keys fused onto an L0 pipeline node: each task folds the
 * pipeline's output batches of its partition ({@link PartialAggregateFold}, Spark's update
 * expressions in row order) and returns the one aggregation-buffer row Spark's partial {@code
 * HashAggregateExec} would, with its output attributes, so the exchange and the final aggregate
 * above stay Spark's. It takes the place of that aggregate and the {@code ColumnarToRowExec} below
 * it (so it is a columnar-to-row transition: Spark adds no other above the pipeline). A Scala
 * product of {@code (child, aggregateExpressions, output)}.
 */
public final class L0PartialAggregateExec extends SparkPlan implements ColumnarToRowTransition {
  private static final long serialVersionUID = 1L;

  private final SparkPlan child;
  private final Seq<AggregateExpression> aggregateExpressions;
  private final Seq<Attribute> output;

  /** Spark's copy constructor (TreeNode.makeCopy): the arguments in product order. */
  public L0PartialAggregateExec(
      SparkPlan child, Seq<AggregateExpression> aggregateExpressions, Seq<Attribute> output) {
    this.child = Objects.requireNonNull(child, "child");
    this.aggregateExpressions =
        Objects.requireNonNull(aggregateExpressions, "aggregateExpressions");
    this.output = Objects.requireNonNull(output, "output");
  }

  @Override
  public SparkPlan child() {
    return child;
  }

  @Override
  public Seq<Attribute> output() {
    return output;
  }

  /** The buffer attributes are made here, not read from the child. */
  @Override
  public AttributeSet producedAttributes() {
    return outputSet();
  }

  @Override
  public RDD<InternalRow> doExecute() {
    List<Attribute> input = CollectionConverters.asJava(child.output());
    PartialAggregateFold fold =
        PartialAggregateFold.of(CollectionConverters.asJava(aggregateExpressions), input)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "L0PartialAggregateExec cannot fold "
                            + aggregateExpressions
                            + " over "
                            + child.output()));
    return child
        .executeColumnar()
        .toJavaRDD()
        .mapPartitions(batches -> List.<InternalRow>of(fold.fold(batches)).iterator())
        .rdd();
  }

  @Override
  public Seq<SparkPlan> children() {
    return ColumnarToRowTransition.super.children();
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return ColumnarToRowTransition.super.withNewChildrenInternal(newChildren);
  }

  @Override
  public SparkPlan withNewChildInternal(SparkPlan newChild) {
    return new L0PartialAggregateExec(newChild, aggregateExpressions, output);
  }

  @Override
  public int productArity() {
    return 3;
  }

  @Override
  public Object productElement(int n) {
    switch (n) {
      case 0:
        return child;
      case 1:
        return aggregateExpressions;
      case 2:
        return output;
      default:
        throw new IndexOutOfBoundsException("L0PartialAggregateExec has 3 elements, not " + n);
    }
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof L0PartialAggregateExec;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || other instanceof L0PartialAggregateExec that
            && child.equals(that.child)
            && aggregateExpressions.equals(that.aggregateExpressions)
            && output.equals(that.output);
  }

  @Override
  public int hashCode() {
    return Objects.hash(child, aggregateExpressions, output);
  }
}
