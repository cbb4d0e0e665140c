package dev.l0.spark.plan;

import dev.l0.spark.L0Settings;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.Objects;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnaryNode;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;

/**
 * The logical plan node of one L0 pipeline over its child. Its output attributes are made once
 * from the spec's output schema and kept as a product element, so copies keep their ids; it
 * references exactly the child columns the spec reads (so column pruning keeps them).
 */
public final class L0PipelineNode extends LogicalPlan implements UnaryNode {
  private final LogicalPlan child;
  private final PipelineSpec spec;
  private final Seq<Attribute> readAttributes;
  private final Seq<Attribute> outputAttributes;

  /** Spark's copy constructor (TreeNode.makeCopy): the arguments in product order. */
  public L0PipelineNode(LogicalPlan child, PipelineSpec spec, Seq<Attribute> readAttributes, Seq<Attribute> outputAttributes) {
    this.child = Objects.requireNonNull(child, "child");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.readAttributes = readAttributes;
    this.outputAttributes = outputAttributes;
  }

  /** A new node for {@code spec}, planned against {@code child}'s output, with new output attributes. */
  public static L0PipelineNode of(LogicalPlan child, PipelineSpec spec) {
    return new L0PipelineNode(child, spec, PipelineAttributes.readAttributes(spec, child.output()),
        PipelineAttributes.outputAttributes(spec));
  }

  public PipelineSpec spec() {
    return spec;
  }

  /** The child's attributes the spec reads, in its read order. */
  public Seq<Attribute> readAttributes() {
    return readAttributes;
  }

  @Override
  public LogicalPlan child() {
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
  public Seq<LogicalPlan> children() {
    return UnaryNode.super.children();
  }

  @Override
  public LogicalPlan withNewChildrenInternal(IndexedSeq<LogicalPlan> newChildren) {
    return UnaryNode.super.withNewChildrenInternal(newChildren);
  }

  @Override
  public LogicalPlan withNewChildInternal(LogicalPlan newChild) {
    return new L0PipelineNode(newChild, spec, readAttributes, outputAttributes);
  }

  @Override
  public String simpleString(int maxFields) {
    return PipelineDescription.of(spec, L0Settings.ofActiveSession().device());
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
      default: throw new IndexOutOfBoundsException("L0PipelineNode has 4 elements, not element " + n);
    }
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof L0PipelineNode;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof L0PipelineNode)) {
      return false;
    }
    L0PipelineNode that = (L0PipelineNode) other;
    return child.equals(that.child) && spec.equals(that.spec) && readAttributes.equals(that.readAttributes)
        && outputAttributes.equals(that.outputAttributes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(child, spec, readAttributes, outputAttributes);
  }
}
