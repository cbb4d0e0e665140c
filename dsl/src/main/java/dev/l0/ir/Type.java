package dev.l0.ir;

import java.util.List;

/**
 * An L0 type: a scalar, a tuple {@code {t1, ..., tn}}, or an array {@code [t]} whose outer size is
 * a {@link Dim}. An array type may be unique ({@code *[t]}, thesis ch. 3); uniqueness applies to
 * the outermost array only.
 */
public sealed interface Type permits ScalarType, Type.Tuple, Type.Array {

  record Tuple(List<Type> elements) implements Type {
    public Tuple {
      elements = List.copyOf(elements);
    }
  }

  record Array(Type element, Dim size, boolean unique) implements Type {
    public Array withUnique(boolean u) {
      return new Array(element, size, u);
    }

    public Array withSize(Dim d) {
      return new Array(element, d, unique);
    }
  }

  static Array array(Type element) {
    return new Array(element, Dim.UNKNOWN, false);
  }

  static Array array(Type element, Dim size) {
    return new Array(element, size, false);
  }

  static Tuple tuple(Type... elements) {
    return new Tuple(List.of(elements));
  }

  /** Number of array dimensions ({@code 0} for scalars and tuples). */
  default int rank() {
    return this instanceof Array a ? 1 + a.element().rank() : 0;
  }

  /** The scalar or tuple type under all array dimensions. */
  default Type baseElement() {
    return this instanceof Array a ? a.element().baseElement() : this;
  }

  /**
   * This type with all sizes unknown and uniqueness dropped, at every level: what type equality
   * means.
   */
  default Type erased() {
    if (this instanceof Array a) {
      return new Array(a.element().erased(), Dim.UNKNOWN, false);
    }
    if (this instanceof Tuple t) {
      return new Tuple(t.elements().stream().map(Type::erased).toList());
    }
    return this;
  }

  /** Same type up to sizes and uniqueness. */
  default boolean sameShapeAs(Type other) {
    return erased().equals(other.erased());
  }

  default boolean isUnique() {
    return this instanceof Array a && a.unique();
  }

  /**
   * Whether a value of this type has a unique array in it (itself or a tuple's component): a
   * parameter of such a type consumes its argument's unique parts (thesis ch. 3).
   */
  default boolean hasUniquePart() {
    return isUnique()
        || this instanceof Tuple tuple && tuple.elements().stream().anyMatch(Type::hasUniquePart);
  }
}
