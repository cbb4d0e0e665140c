package dev.l0.kernels.exec;

import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.values.ValueTypes;

/**
 * A value as the host runner carries it between kernels: an array of scalars as a {@link Flat}
 * {@link FlatArray} (primitive row-major data and its shape, never boxed), anything else (scalars,
 * certificates, and arrays only host statements or the evaluator produced) as a {@link Boxed}
 * interpreter {@link Value}. {@link HostEnvironment} converts between the two where a consumer
 * needs the other form, once per value.
 */
public sealed interface HostValue permits HostValue.Flat, HostValue.Boxed {
  /** An array of scalars in primitive form. */
  record Flat(FlatArray array) implements HostValue {
    @Override
    public Value boxed() {
      return array.toValue();
    }

    @Override
    public FlatArray flat() {
      return array;
    }
  }

  /** An interpreter value. */
  record Boxed(Value value) implements HostValue {
    @Override
    public Value boxed() {
      return value;
    }

    @Override
    public FlatArray flat() {
      if (!(value instanceof Value.Array array)) {
        throw new IllegalStateException("not an array: " + value);
      }
      Type type = ValueTypes.typeOf(array);
      return FlatArray.of(array, FlatArray.elementType(type), type.rank());
    }
  }

  /**
   * This value as an interpreter value (a flat array is boxed anew on every call: {@link
   * HostEnvironment#value} keeps it).
   */
  Value boxed();

  /**
   * This value, an array of scalars, as a {@link FlatArray} (a boxed array is flattened anew on
   * every call: {@link HostEnvironment#flat} keeps it).
   */
  FlatArray flat();

  static HostValue of(FlatArray array) {
    return new Flat(array);
  }

  static HostValue of(Value value) {
    return new Boxed(value);
  }
}
