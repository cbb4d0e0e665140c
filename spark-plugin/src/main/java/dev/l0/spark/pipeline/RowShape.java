package dev.l0.spark.pipeline;

import dev.l0.ir.Expr;
import java.util.List;
import java.util.Optional;

/** What a top-level value of a pipeline's entry function is with respect to the input rows. */
sealed interface RowShape {

  /** Does not depend on the rows at all (literals, computations on literals). */
  record Constant() implements RowShape {}

  /**
   * An array (or a tuple of arrays) with one element per row of {@code rowSet}: the entry's rows,
   * or the rows a filter kept.
   */
  record Rows(Object rowSet) implements RowShape {}

  /** The whole result of {@code reduction}, a reduce over rows. */
  record Reduced(Expr.Reduce reduction) implements RowShape {}

  /** The whole result of {@code scan}, a scan over rows. */
  record Scanned(Expr.Scan scan) implements RowShape {}

  /** A tuple literal of values with these shapes. */
  record TupleOf(List<RowShape> parts) implements RowShape {
    public TupleOf {
      parts = List.copyOf(parts);
    }
  }

  /** True when this value or a part of it depends on the rows. */
  default boolean dependsOnRows() {
    if (this instanceof TupleOf tuple) {
      return tuple.parts().stream().anyMatch(RowShape::dependsOnRows);
    }
    return !(this instanceof Constant);
  }

  /** The reduce or scan expression this value (or a part of it) is the result of, if any. */
  default Optional<Expr> aggregate() {
    if (this instanceof Reduced reduced) {
      return Optional.of(reduced.reduction());
    }
    if (this instanceof Scanned scanned) {
      return Optional.of(scanned.scan());
    }
    if (this instanceof TupleOf tuple) {
      return tuple.parts().stream().map(RowShape::aggregate).flatMap(Optional::stream).findFirst();
    }
    return Optional.empty();
  }

  /** The leaves of this shape, tuples flattened, in order. */
  default List<RowShape> leaves() {
    if (this instanceof TupleOf tuple) {
      return tuple.parts().stream().flatMap(p -> p.leaves().stream()).toList();
    }
    return List.of(this);
  }
}
