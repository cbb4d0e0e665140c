package dev.l0.ir;

import java.util.List;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The shape of a value: the sizes of its array dimensions, through tuples too (thesis §2.3.2:
 * regularity "transcends" tuples). An array is regular, so it has one element shape, which it keeps
 * when it has no elements: an empty {@code [0][3]} array is not an empty {@code [0][0]} array. Two
 * values may sit side by side in an array exactly when their shapes are equal.
 */
public sealed interface Shape {
  Shape SCALAR = new Scalar();

  record Scalar() implements Shape {
    @Override
    public String toString() {
      return "scalar";
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
    return new Array(a.length(), a.elementShape());
  }

  /**
   * The shape of a value of {@code type}, each array size given by {@code size}: how a static type
   * with sizes becomes the shape of the elements of an empty array.
   */
  static Shape of(Type type, ToLongFunction<Dim> size) {
    if (type instanceof Type.Array a) {
      long length = size.applyAsLong(a.size());
      if (length < 0 || length > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "array size " + length + " of type " + type + " is not a valid length");
      }
      return new Array((int) length, of(a.element(), size));
    }
    if (type instanceof Type.Tuple t) {
      return new Tuple(t.elements().stream().map(e -> of(e, size)).toList());
    }
    return SCALAR;
  }

  /**
   * The shape of a value of {@code type} whose every array size is 0 (what {@code []} reads as).
   */
  static Shape zeroSizes(Type type) {
    return of(type, d -> 0);
  }

  /** Whether a value of (size-erased) {@code type} may have this shape. */
  default boolean fits(Type type) {
    if (this instanceof Array a) {
      return type instanceof Type.Array t && a.element().fits(t.element());
    }
    if (this instanceof Tuple s) {
      if (!(type instanceof Type.Tuple t) || t.elements().size() != s.elements().size()) {
        return false;
      }
      for (int i = 0; i < s.elements().size(); i++) {
        if (!s.elements().get(i).fits(t.elements().get(i))) {
          return false;
        }
      }
      return true;
    }
    return type instanceof ScalarType;
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
