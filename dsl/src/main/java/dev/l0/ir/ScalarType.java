package dev.l0.ir;

/**
 * The scalar types. The thesis's {@code int} is {@link #I32} and its {@code real} is {@link #F64}.
 */
public enum ScalarType implements Type {
  BOOL("bool"),
  I32("i32"),
  I64("i64"),
  F32("f32"),
  F64("f64");

  private final String keyword;

  ScalarType(String keyword) {
    this.keyword = keyword;
  }

  /** The canonical keyword the printer writes. */
  public String keyword() {
    return keyword;
  }

  public boolean isInteger() {
    return this == I32 || this == I64;
  }

  public boolean isFloat() {
    return this == F32 || this == F64;
  }

  public boolean isNumeric() {
    return this != BOOL;
  }

  /**
   * The bytes one element of this type takes in a flat array and in a GPU buffer: 1 for {@code
   * bool}, 4 for {@code i32} and {@code f32}, 8 for {@code i64} and {@code f64}.
   */
  public int bytes() {
    return switch (this) {
      case BOOL -> 1;
      case I32, F32 -> 4;
      case I64, F64 -> 8;
    };
  }

  @Override
  public String toString() {
    return keyword;
  }
}
