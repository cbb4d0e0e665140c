package dev.l0.kernels.sim;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.util.Arrays;
import java.util.List;

/**
 * The simulated storage of a global buffer or of one block's shared array: a flat array of one
 * scalar type.
 */
final class ScalarArray {
  private final String name;
  private final ScalarType type;
  private final ScalarValue[] elements;

  /** {@code size} elements, zero-filled (false for bool). */
  ScalarArray(String name, ScalarType type, int size) {
    this.name = name;
    this.type = type;
    this.elements = new ScalarValue[size];
    Arrays.fill(elements, zero(type));
  }

  /** The array holding {@code values}, each of {@code type}. */
  static ScalarArray of(String name, ScalarType type, List<ScalarValue> values) {
    ScalarArray array = new ScalarArray(name, type, values.size());
    for (int i = 0; i < values.size(); i++) {
      array.set(i, values.get(i));
    }
    return array;
  }

  String name() {
    return name;
  }

  ScalarType type() {
    return type;
  }

  int size() {
    return elements.length;
  }

  ScalarValue get(int index) {
    return elements[index];
  }

  void set(int index, ScalarValue value) {
    if (value.type() != type) {
      throw new IllegalArgumentException(
          "a " + value.type() + " stored into " + name + " of " + type);
    }
    elements[index] = value;
  }

  private static ScalarValue zero(ScalarType type) {
    switch (type) {
      case BOOL:
        return ScalarValue.bool(false);
      case I32:
        return ScalarValue.i32(0);
      case I64:
        return ScalarValue.i64(0);
      case F32:
        return ScalarValue.f32(0);
      default:
        return ScalarValue.f64(0);
    }
  }
}
