package dev.l0.spark.plan;

import dev.l0.spark.pipeline.InputBinding;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * How a pipeline's columns meet Spark attributes. A spec's bindings name child columns by their
 * ordinal in the schema it was planned against; plans hold the attributes themselves instead (Spark
 * may prune or reorder a child's columns later), and execution finds them again by id.
 */
final class PipelineAttributes {
  private PipelineAttributes() {}

  /**
   * The child's top-level ordinals the spec reads, distinct, in first-use order (as {@link
   * PipelineSpec#readColumns()}).
   */
  static List<Integer> readOrdinals(PipelineSpec spec) {
    Set<Integer> ordinals = new LinkedHashSet<>();
    for (InputBinding binding : spec.inputs()) {
      ordinals.add(binding.fieldPath().get(0));
    }
    return List.copyOf(ordinals);
  }

  /**
   * The attributes of {@code childOutput} (the schema {@code spec} was planned against) that it
   * reads.
   */
  static Seq<Attribute> readAttributes(PipelineSpec spec, Seq<Attribute> childOutput) {
    List<Attribute> output = CollectionConverters.asJava(childOutput);
    List<Attribute> read = new ArrayList<>();
    for (int ordinal : readOrdinals(spec)) {
      read.add(output.get(ordinal));
    }
    List<String> names = read.stream().map(Attribute::name).toList();
    if (!names.equals(spec.readColumns())) {
      throw new IllegalStateException(
          "pipeline reads " + spec.readColumns() + " but its bindings point at " + names);
    }
    return toSeq(read);
  }

  /**
   * The attributes of {@code childOutput} (the schema {@code spec} was planned against) that it
   * carries through, in carry order.
   */
  static Seq<Attribute> carriedAttributes(PipelineSpec spec, Seq<Attribute> childOutput) {
    List<Attribute> output = CollectionConverters.asJava(childOutput);
    List<Attribute> carried = new ArrayList<>();
    for (int ordinal : spec.carried().ordinals()) {
      carried.add(output.get(ordinal));
    }
    List<String> names = carried.stream().map(Attribute::name).toList();
    if (!names.equals(spec.carried().names())) {
      throw new IllegalStateException(
          "pipeline carries " + spec.carried().names() + " but its ordinals point at " + names);
    }
    return toSeq(carried);
  }

  /**
   * New output attributes (made once per node; copies keep their ids): the {@code carried} child
   * attributes under new ids, named as {@code carry(...)} spelt them, then the spec's output
   * schema.
   */
  static Seq<Attribute> outputAttributes(PipelineSpec spec, Seq<Attribute> carried) {
    List<Attribute> attributes = new ArrayList<>();
    List<String> spellings = spec.carried().spellings();
    List<Attribute> carriedAttributes = CollectionConverters.asJava(carried);
    for (int c = 0; c < carriedAttributes.size(); c++) {
      attributes.add(carriedAttributes.get(c).withName(spellings.get(c)).newInstance());
    }
    for (AttributeReference reference :
        CollectionConverters.asJava(DataTypeUtils.toAttributes(spec.outputSchema()))) {
      attributes.add(reference);
    }
    return toSeq(attributes);
  }

  /** {@code attributes} with new ids, each keeping its name, type, nullability and qualifier. */
  static Seq<Attribute> withNewIds(Seq<Attribute> attributes) {
    return toSeq(
        CollectionConverters.asJava(attributes).stream().map(Attribute::newInstance).toList());
  }

  /**
   * For each binding of {@code spec}, the ordinal of its top-level column in {@code childOutput},
   * found by attribute id through {@code readAttributes} (the attributes in read order).
   */
  static int[] bindingOrdinals(
      PipelineSpec spec, Seq<Attribute> readAttributes, Seq<Attribute> childOutput) {
    List<Integer> readOrdinals = readOrdinals(spec);
    List<Attribute> read = CollectionConverters.asJava(readAttributes);
    List<Attribute> output = CollectionConverters.asJava(childOutput);
    List<InputBinding> bindings = spec.inputs();
    int[] ordinals = new int[bindings.size()];
    for (int b = 0; b < bindings.size(); b++) {
      Attribute attribute = read.get(readOrdinals.indexOf(bindings.get(b).fieldPath().get(0)));
      ordinals[b] = indexOf(output, attribute);
    }
    return ordinals;
  }

  /** The ordinals in {@code childOutput} of the {@code carried} attributes, found by id. */
  static int[] carriedOrdinals(Seq<Attribute> carried, Seq<Attribute> childOutput) {
    List<Attribute> output = CollectionConverters.asJava(childOutput);
    return CollectionConverters.asJava(carried).stream()
        .mapToInt(attribute -> indexOf(output, attribute))
        .toArray();
  }

  /**
   * The set of {@code attributes} (a Scala {@code Seq} is covariant, so it is a sequence of
   * expressions too).
   */
  @SuppressWarnings("unchecked")
  static AttributeSet setOf(Seq<Attribute> attributes) {
    Object expressions = attributes;
    return AttributeSet.apply((scala.collection.Iterable<Expression>) expressions);
  }

  static <T> Seq<T> toSeq(List<T> items) {
    return CollectionConverters.asScala(items).toList();
  }

  private static int indexOf(List<Attribute> output, Attribute attribute) {
    for (int i = 0; i < output.size(); i++) {
      if (output.get(i).exprId().equals(attribute.exprId())) {
        return i;
      }
    }
    throw new IllegalStateException(
        "column "
            + attribute
            + " read or carried by an L0 pipeline is missing from its input "
            + output);
  }
}
