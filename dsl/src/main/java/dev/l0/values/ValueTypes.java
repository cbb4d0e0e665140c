package dev.l0.values;

import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;

/** The (size-erased) type of a run-time value. */
public final class ValueTypes {
  private ValueTypes() {}

  /** The type of {@code v}, with all sizes unknown and no uniqueness. */
  public static Type typeOf(Value v) {
    if (v instanceof ScalarValue s) {
      return s.type();
    }
    if (v instanceof Value.Tuple t) {
      return new Type.Tuple(t.elements().stream().map(ValueTypes::typeOf).toList());
    }
    return Type.array(((Value.Array) v).elementType());
  }

  /** Whether {@code v} is a value of type {@code t}, up to sizes and uniqueness. */
  public static boolean conforms(Value v, Type t) {
    return typeOf(v).equals(t.erased());
  }
}
