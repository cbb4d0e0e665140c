package dev.l0.kernels.api;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * An array of tuples as the tuple of its columns, the form the runtime API passes it in and out
 * (one Java array per component, as a DataFrame holds one column per field): the column types,
 * and zipping columns into the array of tuples and back.
 */
final class TupleColumns {
  private TupleColumns() {}

  /** The tuple type at the bottom of {@code arrayOfTuples}. */
  static Type.Tuple tupleType(Type.Array arrayOfTuples) {
    return (Type.Tuple) arrayOfTuples.baseElement();
  }

  /** The type of column {@code component}: {@code arrayOfTuples} with the tuple replaced by that component's type. */
  static Type.Array columnType(Type.Array arrayOfTuples, int component) {
    return withBase(arrayOfTuples, tupleType(arrayOfTuples).elements().get(component));
  }

  private static Type.Array withBase(Type.Array array, Type base) {
    Type element = array.element() instanceof Type.Array inner ? withBase(inner, base) : base;
    return Type.array(element);
  }

  /** The array of tuples of type {@code arrayOfTuples} whose columns are {@code columns}, all of the same shape down to the tuples. */
  static Value.Array zip(List<Value.Array> columns, Type.Array arrayOfTuples) {
    List<Value> elements = new ArrayList<>();
    for (int i = 0; i < columns.get(0).length(); i++) {
      List<Value> parts = new ArrayList<>();
      for (Value.Array column : columns) {
        parts.add(column.get(i));
      }
      elements.add(arrayOfTuples.element() instanceof Type.Array inner
          ? zip(parts.stream().map(Value.Array.class::cast).toList(), inner)
          : new Value.Tuple(parts));
    }
    return new Value.Array(arrayOfTuples.element(), elements);
  }

  /** Column {@code component} of {@code array}, an array of tuples of type {@code arrayOfTuples}. */
  static Value.Array unzip(Value.Array array, Type.Array arrayOfTuples, int component) {
    List<Value> elements = new ArrayList<>();
    for (Value element : array.elements()) {
      elements.add(arrayOfTuples.element() instanceof Type.Array inner
          ? unzip((Value.Array) element, inner, component)
          : ((Value.Tuple) element).elements().get(component));
    }
    return new Value.Array(columnType(arrayOfTuples, component).element(), elements);
  }
}
