package dev.l0.ir;

/**
 * A scalar constant. Integers of every width are held in a {@code long} and floats of every width
 * in a {@code double}; the constructors normalise the value to its type's range (an {@code f32}
 * value is always exactly representable as a {@code float}, an {@code i32} value as an {@code
 * int}).
 */
public sealed interface ScalarValue extends Value {
  ScalarType type();

  record Bool(boolean value) implements ScalarValue {
    @Override
    public ScalarType type() {
      return ScalarType.BOOL;
    }
  }

  record Int(ScalarType type, long value) implements ScalarValue {
    public Int {
      if (!type.isInteger()) {
        throw new IllegalArgumentException("not an integer type: " + type);
      }
      value = type == ScalarType.I32 ? (int) value : value;
    }
  }

  record Float(ScalarType type, double value) implements ScalarValue {
    public Float {
      if (!type.isFloat()) {
        throw new IllegalArgumentException("not a float type: " + type);
      }
      value = type == ScalarType.F32 ? (double) (float) value : value;
    }

    @Override
    public boolean equals(Object o) {
      // Bitwise, so that NaN equals NaN and 0.0 differs from -0.0, as for Double.equals.
      return o instanceof Float f
          && f.type == type
          && Double.doubleToLongBits(f.value) == Double.doubleToLongBits(value);
    }

    @Override
    public int hashCode() {
      return type.hashCode() * 31 + Double.hashCode(value);
    }
  }

  static Int i32(int v) {
    return new Int(ScalarType.I32, v);
  }

  static Int i64(long v) {
    return new Int(ScalarType.I64, v);
  }

  static Float f64(double v) {
    return new Float(ScalarType.F64, v);
  }

  static Float f32(float v) {
    return new Float(ScalarType.F32, v);
  }

  static Bool bool(boolean v) {
    return new Bool(v);
  }
}
