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
 * ({@value L0Settings#BATCH_ROWS} rows at most) and returns Arrow-backed batches. ROWS runs per
 * partition; REDUCE folds each partition, then combines the partials in partition order in one
 * task after a shuffle; SCAN first runs a job for the partition totals (as {@code zipWithIndex}
 * does), then scans each partition from its carry.
 */
public final class L0PipelineExec extends SparkPlan implements UnaryExecNode {
  private static final long serialVersionUID = 1L;

  private final SparkPlan child;
  private final PipelineSpec spec;
  private final Seq<Attribute> readAttributes;
  private final Seq<Attribute> outputAttributes;
  private final PipelineMetrics pipelineMetrics;
  private final scala.collection.immutable.Map<String, SQLMetric> metricsByName;

  /** Spark's copy constructor (TreeNode.makeCopy): the arguments in product order. */
  public L0PipelineExec(SparkPlan child, PipelineSpec spec, Seq<Attribute> readAttributes, Seq<Attribute> outputAttributes) {
    this.child = Objects.requireNonNull(child, "child");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.readAttributes = readAttributes;
    this.outputAttributes = outputAttributes;
    this.pipelineMetrics = new PipelineMetrics(sparkContext());
    this.metricsByName = pipelineMetrics.byName();
  }

  public PipelineSpec spec() {
    return spec;
  }

  @Override
  public SparkPlan child() {
    return child;
  }

  @Override
  public Seq<Attribute> output() {
    return outputAttributes;
  }

  @Override
  public AttributeSet references() {
    return PipelineAttributes.setOf(readAttributes);
  }

  @Override
  public AttributeSet producedAttributes() {
    return PipelineAttributes.setOf(outputAttributes);
  }

  @Override
  public scala.collection.immutable.Map<String, SQLMetric> metrics() {
    return metricsByName;
  }

  @Override
  public boolean supportsColumnar() {
    return true;
  }

  @Override
  public RDD<InternalRow> doExecute() {
    throw new UnsupportedOperationException("L0PipelineExec is columnar only; Spark adds ColumnarToRow above it");
  }

  @Override
  public RDD<ColumnarBatch> doExecuteColumnar() {
    L0Settings settings = L0Settings.ofActiveSession();
    PipelineTask task = new PipelineTask(spec, settings.device(), settings.batchRows(),
        PipelineAttributes.bindingOrdinals(spec, readAttributes, child.output()), pipelineMetrics);
    JavaRDD<ColumnarBatch> input = child.executeColumnar().toJavaRDD();
    switch (spec.kind()) {
      case ROWS:
        return input.mapPartitionsWithIndex(task::mapRows, false).rdd();
      case REDUCE:
        return input.mapPartitionsWithIndex((partition, batches) -> task.fold(partition, batches, true), false)
            .coalesce(1, true)
            .mapPartitions(task::finishReduce)
            .rdd();
      case SCAN:
        List<Tuple2<Integer, PartialResult>> totals =
            input.mapPartitionsWithIndex((partition, batches) -> task.fold(partition, batches, false), false).collect();
        List<PartialResult> carries = task.scanCarries(totals);
        return input.mapPartitionsWithIndex(
            (partition, batches) -> task.scanRows(partition, batches, carries.get(partition)), false).rdd();
      default:
        throw new IllegalStateException("unknown pipeline kind " + spec.kind());
    }
  }

  @Override
  public String simpleString(int maxFields) {
    return PipelineDescription.of(spec, L0Settings.ofActiveSession().device());
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
    return new L0PipelineExec(newChild, spec, readAttributes, outputAttributes);
  }

  @Override
  public int productArity() {
    return 4;
  }

  @Override
  public Object productElement(int n) {
    switch (n) {
      case 0: return child;
      case 1: return spec;
      case 2: return readAttributes;
      case 3: return outputAttributes;
      default: throw new IndexOutOfBoundsException("L0PipelineExec has 4 elements, not element " + n);
    }
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof L0PipelineExec;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof L0PipelineExec)) {
      return false;
    }
    L0PipelineExec that = (L0PipelineExec) other;
    return child.equals(that.child) && spec.equals(that.spec) && readAttributes.equals(that.readAttributes)
        && outputAttributes.equals(that.outputAttributes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(child, spec, readAttributes, outputAttributes);
  }
}
