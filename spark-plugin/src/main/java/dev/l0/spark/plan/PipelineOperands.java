package dev.l0.spark.plan;

import dev.l0.spark.pipeline.PipelineSpec;
import java.io.Serializable;
import java.util.Objects;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import scala.collection.immutable.Seq;

/**
 * What the logical and the physical pipeline node hold besides their child: the spec, the child
 * attributes it reads, the child attributes it carries through ({@code carry(...)}) and its own
 * output attributes (the carried columns first, under new ids, then the pipeline's outputs). Both
 * nodes are Scala products of {@code (child, spec, readAttributes, carriedAttributes,
 * outputAttributes)}, in that order (Spark copies a node through the constructor taking exactly
 * these). Serializable, as the nodes are: Spark ships physical nodes inside task closures (a sort
 * or a hash aggregate above a pipeline does).
 */
record PipelineOperands(
    PipelineSpec spec,
    Seq<Attribute> readAttributes,
    Seq<Attribute> carriedAttributes,
    Seq<Attribute> outputAttributes)
    implements Serializable {
  /** The product arity of both pipeline nodes: the child and the four operands. */
  static final int ARITY = 5;

  PipelineOperands {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(readAttributes, "readAttributes");
    Objects.requireNonNull(carriedAttributes, "carriedAttributes");
    Objects.requireNonNull(outputAttributes, "outputAttributes");
  }

  /**
   * Element {@code n} of the product {@code (child, spec, readAttributes, carriedAttributes,
   * outputAttributes)} of node {@code nodeName}.
   */
  Object productElement(String nodeName, Object child, int n) {
    switch (n) {
      case 0:
        return child;
      case 1:
        return spec;
      case 2:
        return readAttributes;
      case 3:
        return carriedAttributes;
      case 4:
        return outputAttributes;
      default:
        throw new IndexOutOfBoundsException(
            nodeName + " has " + ARITY + " elements, not element " + n);
    }
  }

  /**
   * The child attributes the node references, read or carried (column pruning keeps exactly these).
   */
  AttributeSet references() {
    return PipelineAttributes.setOf(readAttributes)
        .$plus$plus(PipelineAttributes.setOf(carriedAttributes));
  }

  /** The attributes the node makes. */
  AttributeSet producedAttributes() {
    return PipelineAttributes.setOf(outputAttributes);
  }
}
