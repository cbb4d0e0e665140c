package dev.l0.ir;

import java.util.ArrayList;
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
   * array still has a type, and {@code elementShape} the shape of every element (arrays are
   * regular, thesis §2.1), so that an empty array keeps its inner sizes: an empty {@code [0][3]}
   * array has three columns. The shape of a non-empty array's elements is read from its first
   * element, whatever {@code elementShape} says; an empty array's is {@code elementShape}.
   */
  record Array(Type elementType, List<Value> elements, Shape elementShape) implements Value {
    public Array {
      elementType = elementType.erased();
      elements = List.copyOf(elements);
      elementShape = elements.isEmpty() ? elementShape : Shape.of(elements.get(0));
      if (!elementShape.fits(elementType)) {
        throw new IllegalArgumentException(
            "element shape " + elementShape + " does not fit element type " + elementType);
      }
    }

    /** An array of {@code elements}; when there are none, every inner size is 0. */
    public Array(Type elementType, List<Value> elements) {
      this(elementType, elements, elements.isEmpty() ? Shape.zeroSizes(elementType) : Shape.SCALAR);
    }

    /** An array without elements whose elements would have shape {@code elementShape}. */
    public static Array empty(Type elementType, Shape elementShape) {
      return new Array(elementType, List.of(), elementShape);
    }

    /** The one-dimensional {@code f64} array of {@code values}, in order. */
    public static Array ofF64(double... values) {
      List<Value> elements = new ArrayList<>(values.length);
      for (double v : values) {
        elements.add(ScalarValue.f64(v));
      }
      return new Array(ScalarType.F64, elements);
    }

    public int length() {
      return elements.size();
    }

    public Value get(int i) {
      return elements.get(i);
    }
  }
}
