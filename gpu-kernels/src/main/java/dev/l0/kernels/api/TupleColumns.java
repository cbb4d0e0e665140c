package dev.l0.kernels.api;

import dev.l0.ir.Type;

/**
 * An array of tuples as the tuple of its columns, the form the runtime API passes it in and out
 * (one Java array per component, as a DataFrame holds one column per field): the column types.
 */
final class TupleColumns {
  private TupleColumns() {}

  /** The tuple type at the bottom of {@code arrayOfTuples}. */
  static Type.Tuple tupleType(Type.Array arrayOfTuples) {
    return (Type.Tuple) arrayOfTuples.baseElement();
  }

  /**
   * The type of column {@code component}: {@code arrayOfTuples} with the tuple replaced by that
   * component's type.
   */
  static Type.Array columnType(Type.Array arrayOfTuples, int component) {
    return withBase(arrayOfTuples, tupleType(arrayOfTuples).elements().get(component));
  }

  private static Type.Array withBase(Type.Array array, Type base) {
    Type element = array.element() instanceof Type.Array inner ? withBase(inner, base) : base;
    return Type.array(element);
  }
}
