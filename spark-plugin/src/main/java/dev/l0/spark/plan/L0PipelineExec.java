package dev.l0.spark.plan;

import dev.l0.spark.L0Settings;
import dev.l0.spark.pipeline.PartialResult;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.UnaryExecNode;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Tuple2;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;

/**
 * The columnar physical node of one L0 pipeline. Each task reads its partition's column batches
 * (Spark converts row input to columns once, below this node), runs the pipeline batch by batch
 * ({@value L0Settings#BATCH_ROWS} rows at most, {@value L0Settings#JVM_BATCH_ROWS} on the JVM
 * backend) and returns batches over the runtime's result arrays. ROWS runs per partition; REDUCE
 * folds each partition, then combines the partials in partition order in one task after a shuffle;
 * SCAN first runs a job for the partition totals (as {@code zipWithIndex} does), then scans each
 * partition from its carry.
 */
public final class L0PipelineExec extends SparkPlan implements UnaryExecNode {
  private static final long serialVersionUID = 1L;

  private final SparkPlan child;
  private final PipelineOperands operands;

  /**
   * Made on first use, on the driver (as Spark's own nodes make theirs), not by every copy of the
   * node.
   */
  private PipelineMetrics pipelineMetrics;

  private scala.collection.immutable.Map<String, SQLMetric> metricsByName;

  /** Spark's copy constructor (TreeNode.makeCopy): the arguments in product order. */
  public L0PipelineExec(
      SparkPlan child,
      PipelineSpec spec,
      Seq<Attribute> readAttributes,
      Seq<Attribute> carriedAttributes,
      Seq<Attribute> outputAttributes) {
    this.child = Objects.requireNonNull(child, "child");
    this.operands = new PipelineOperands(spec, readAttributes, carriedAttributes, outputAttributes);
  }

  private synchronized PipelineMetrics pipelineMetrics() {
    if (pipelineMetrics == null) {
      pipelineMetrics = new PipelineMetrics(sparkContext());
      metricsByName = pipelineMetrics.byName();
    }
    return pipelineMetrics;
  }

  public PipelineSpec spec() {
    return operands.spec();
  }

  /** Where this node's tasks ran so far, from its metrics (on the driver, once they finished). */
  public TasksRun tasksRun() {
    return pipelineMetrics().tasksRun();
  }

  @Override
  public SparkPlan child() {
    return child;
  }

  @Override
  public Seq<Attribute> output() {
    return operands.outputAttributes();
  }

  @Override
  public AttributeSet references() {
    return operands.references();
  }

  @Override
  public AttributeSet producedAttributes() {
    return operands.producedAttributes();
  }

  @Override
  public scala.collection.immutable.Map<String, SQLMetric> metrics() {
    pipelineMetrics();
    return metricsByName;
  }

  @Override
  public boolean supportsColumnar() {
    return true;
  }

  @Override
  public RDD<InternalRow> doExecute() {
    throw new UnsupportedOperationException(
        "L0PipelineExec is columnar only; Spark adds ColumnarToRow above it");
  }

  @Override
  public RDD<ColumnarBatch> doExecuteColumnar() {
    L0Settings settings = L0Settings.ofActiveSession();
    PipelineSpec spec = operands.spec();
    PipelineTask task =
        new PipelineTask(
            spec,
            settings.device(),
            settings.batchRows(),
            settings.jvmBatchRows(),
            PipelineAttributes.bindingOrdinals(spec, operands.readAttributes(), child.output()),
            PipelineAttributes.carriedOrdinals(operands.carriedAttributes(), child.output()),
            pipelineMetrics());
    JavaRDD<ColumnarBatch> input = child.executeColumnar().toJavaRDD();
    switch (spec.kind()) {
      case ROWS:
        return input.mapPartitionsWithIndex(task::mapRows, false).rdd();
      case REDUCE:
        return input
            .mapPartitionsWithIndex(
                (partition, batches) -> task.fold(partition, batches, true), false)
            .coalesce(1, true)
            .mapPartitions(task::finishReduce)
            .rdd();
      case SCAN:
        List<Tuple2<Integer, PartialResult>> totals =
            input
                .mapPartitionsWithIndex(
                    (partition, batches) -> task.fold(partition, batches, false), false)
                .collect();
        List<PartialResult> carries = task.scanCarries(totals);
        return input
            .mapPartitionsWithIndex(
                (partition, batches) -> task.scanRows(partition, batches, carries.get(partition)),
                false)
            .rdd();
      default:
        throw new IllegalStateException("unknown pipeline kind " + spec.kind());
    }
  }

  @Override
  public String simpleString(int maxFields) {
    return PipelineDescription.of(operands.spec(), L0Settings.ofActiveSession().device());
  }

  @Override
  public Seq<SparkPlan> children() {
    return UnaryExecNode.super.children();
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return UnaryExecNode.super.withNewChildrenInternal(newChildren);
  }

  @Override
  public SparkPlan withNewChildInternal(SparkPlan newChild) {
    return new L0PipelineExec(
        newChild,
        operands.spec(),
        operands.readAttributes(),
        operands.carriedAttributes(),
        operands.outputAttributes());
  }

  @Override
  public int productArity() {
    return PipelineOperands.ARITY;
  }

  @Override
  public Object productElement(int n) {
    return operands.productElement("L0PipelineExec", child, n);
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof L0PipelineExec;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || other instanceof L0PipelineExec that
            && child.equals(that.child)
            && operands.equals(that.operands);
  }

  @Override
  public int hashCode() {
    return Objects.hash(child, operands);
  }
}
