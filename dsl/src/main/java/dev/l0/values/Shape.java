package dev.l0.values;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The shape of a value: the sizes of its array dimensions, through tuples too (thesis §2.3.2:
 * regularity "transcends" tuples). An array's shape is read from its first element, which is
 * enough for a regular array; the elements of an empty array have {@link #UNKNOWN} shape.
 * Two values may sit side by side in an array exactly when their shapes are equal.
 */
public sealed interface Shape {
  Shape SCALAR = new Scalar();
  Shape UNKNOWN = new Unknown();

  record Scalar() implements Shape {
    @Override
    public String toString() {
      return "scalar";
    }
  }

  record Unknown() implements Shape {
    @Override
    public String toString() {
      return "";
    }
  }

  record Tuple(List<Shape> elements) implements Shape {
    public Tuple {
      elements = List.copyOf(elements);
    }

    @Override
    public String toString() {
      return elements.stream().map(Shape::toString).collect(Collectors.joining(", ", "{", "}"));
    }
  }

  record Array(int length, Shape element) implements Shape {
    @Override
    public String toString() {
      return "[" + length + "]" + (element instanceof Scalar ? "" : element.toString());
    }
  }

  static Shape of(Value v) {
    if (v instanceof ScalarValue) {
      return SCALAR;
    }
    if (v instanceof Value.Tuple t) {
      return new Tuple(t.elements().stream().map(Shape::of).toList());
    }
    Value.Array a = (Value.Array) v;
    return new Array(a.length(), a.length() == 0 ? UNKNOWN : of(a.get(0)));
  }

  /** The index of the first element whose shape differs from element 0's, or -1 if all agree. */
  static int firstIrregular(List<Value> elements) {
    if (elements.isEmpty()) {
      return -1;
    }
    Shape first = of(elements.get(0));
    for (int i = 1; i < elements.size(); i++) {
      if (!of(elements.get(i)).equals(first)) {
        return i;
      }
    }
    return -1;
  }
}
