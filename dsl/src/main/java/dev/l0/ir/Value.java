package dev.l0.ir;

import java.util.List;

/**
 * A run-time L0 value: a scalar, a tuple, or a regular array. Equality is structural and, for
 * floats, bitwise ({@link ScalarValue.Float}), so two values are equal exactly when every backend
 * must print them the same.
 */
public sealed interface Value permits ScalarValue, Value.Tuple, Value.Array {

  record Tuple(List<Value> elements) implements Value {
    public Tuple {
      elements = List.copyOf(elements);
    }
  }

  /**
   * An array; {@code elementType} is the (size-erased) type of every element, so that an empty
   * array still has a type. All elements have the same shape (arrays are regular, thesis §2.1).
   */
  record Array(Type elementType, List<Value> elements) implements Value {
    public Array {
      elementType = elementType.erased();
      elements = List.copyOf(elements);
    }

    public int length() {
      return elements.size();
    }

    public Value get(int i) {
      return elements.get(i);
    }
  }
}
