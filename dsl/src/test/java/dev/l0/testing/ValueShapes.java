package dev.l0.testing;

import dev.l0.ir.Shape;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.values.ValueTypes;

/**
 * Whether a value really has the shape a type promises: beyond {@link ValueTypes#conforms}, which
 * compares the value's recorded types, every array element has the array's element type and all
 * elements of an array have the array's element shape, inner sizes of empty arrays included (arrays
 * are regular, thesis §2.1). Sizes in the type are not compared: L0 types do not fix them. The
 * check a test oracle needs for an executor's results.
 */
public final class ValueShapes {
  private ValueShapes() {}

  public static boolean conforms(Value value, Type type) {
    return ValueTypes.conforms(value, type) && wellFormed(value);
  }

  private static boolean wellFormed(Value value) {
    if (value instanceof Value.Array a) {
      for (Value element : a.elements()) {
        if (!ValueTypes.typeOf(element).equals(a.elementType())
            || !Shape.of(element).equals(a.elementShape())
            || !wellFormed(element)) {
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
}
