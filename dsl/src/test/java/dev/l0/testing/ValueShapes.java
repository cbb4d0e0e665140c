package dev.l0.testing;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.values.ValueTypes;

/**
 * Whether a value really has the shape a type promises: beyond {@link ValueTypes#conforms}, which
 * compares the value's recorded types, every array element has the array's element type and all
 * elements of an array have the same sizes (arrays are regular, thesis §2.1). Sizes in the type
 * are not compared: L0 types do not fix them. The check a test oracle needs for an executor's results.
 */
public final class ValueShapes {
  private ValueShapes() {}

  public static boolean conforms(Value value, Type type) {
    return ValueTypes.conforms(value, type) && wellFormed(value);
  }

  private static boolean wellFormed(Value value) {
    if (value instanceof Value.Array a) {
      for (Value element : a.elements()) {
        if (!ValueTypes.typeOf(element).equals(a.elementType()) || !sameShape(element, a.get(0)) || !wellFormed(element)) {
          return false;
        }
      }
      return true;
    }
    if (value instanceof Value.Tuple t) {
      return t.elements().stream().allMatch(ValueShapes::wellFormed);
    }
    return true;
  }

  /** Whether two values of one type have the same array sizes everywhere. */
  private static boolean sameShape(Value a, Value b) {
    if (a instanceof Value.Array x && b instanceof Value.Array y) {
      if (x.length() != y.length()) {
        return false;
      }
      for (int i = 0; i < x.length(); i++) {
        if (!sameShape(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Value.Tuple x && b instanceof Value.Tuple y) {
      for (int i = 0; i < x.elements().size(); i++) {
        if (!sameShape(x.elements().get(i), y.elements().get(i))) {
          return false;
        }
      }
    }
    return true;
  }
}
