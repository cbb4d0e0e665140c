package dev.l0.spark.plan;

import dev.l0.spark.L0Settings;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.Objects;
import org.apache.spark.sql.catalyst.analysis.MultiInstanceRelation;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnaryNode;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;

/**
 * The logical plan node of one L0 pipeline over its child. Its output attributes are made once from
 * the spec's output schema and kept as a product element, so copies keep their ids; it references
 * exactly the child columns the spec reads (so column pruning keeps them). Where a query uses one
 * node's output twice (a self-join, a join of two aggregations over it), Spark's analyzer asks the
 * second use for a {@link #newInstance} with new output ids, as for a table.
 */
public final class L0PipelineNode extends LogicalPlan implements UnaryNode, MultiInstanceRelation {
  private final LogicalPlan child;
  private final PipelineOperands operands;

  /** Spark's copy constructor (TreeNode.makeCopy): the arguments in product order. */
  public L0PipelineNode(
      LogicalPlan child,
      PipelineSpec spec,
      Seq<Attribute> readAttributes,
      Seq<Attribute> carriedAttributes,
      Seq<Attribute> outputAttributes) {
    this.child = Objects.requireNonNull(child, "child");
    this.operands = new PipelineOperands(spec, readAttributes, carriedAttributes, outputAttributes);
  }

  /**
   * A new node for {@code spec}, planned against {@code child}'s output, with new output
   * attributes.
   */
  public static L0PipelineNode of(LogicalPlan child, PipelineSpec spec) {
    Seq<Attribute> carried = PipelineAttributes.carriedAttributes(spec, child.output());
    return new L0PipelineNode(
        child,
        spec,
        PipelineAttributes.readAttributes(spec, child.output()),
        carried,
        PipelineAttributes.outputAttributes(spec, carried));
  }

  public PipelineSpec spec() {
    return operands.spec();
  }

  /** The child's attributes the spec reads, in its read order. */
  public Seq<Attribute> readAttributes() {
    return operands.readAttributes();
  }

  /** The child's attributes carried through to the output, in carry order. */
  public Seq<Attribute> carriedAttributes() {
    return operands.carriedAttributes();
  }

  @Override
  public LogicalPlan child() {
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
  public Seq<LogicalPlan> children() {
    return UnaryNode.super.children();
  }

  @Override
  public LogicalPlan withNewChildrenInternal(IndexedSeq<LogicalPlan> newChildren) {
    return UnaryNode.super.withNewChildrenInternal(newChildren);
  }

  @Override
  public LogicalPlan withNewChildInternal(LogicalPlan newChild) {
    return new L0PipelineNode(
        newChild,
        operands.spec(),
        operands.readAttributes(),
        operands.carriedAttributes(),
        operands.outputAttributes());
  }

  /**
   * This node with new ids for its output attributes, carried ones included (same names, types and
   * child).
   */
  @Override
  public LogicalPlan newInstance() {
    return new L0PipelineNode(
        child,
        operands.spec(),
        operands.readAttributes(),
        operands.carriedAttributes(),
        PipelineAttributes.withNewIds(operands.outputAttributes()));
  }

  @Override
  public String simpleString(int maxFields) {
    return PipelineDescription.of(operands.spec(), L0Settings.ofActiveSession().device());
  }

  @Override
  public int productArity() {
    return PipelineOperands.ARITY;
  }

  @Override
  public Object productElement(int n) {
    return operands.productElement("L0PipelineNode", child, n);
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof L0PipelineNode;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || other instanceof L0PipelineNode that
            && child.equals(that.child)
            && operands.equals(that.operands);
  }

  @Override
  public int hashCode() {
    return Objects.hash(child, operands);
  }
}
