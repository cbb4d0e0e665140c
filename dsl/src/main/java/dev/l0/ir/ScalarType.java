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

  @Override
  public String toString() {
    return keyword;
  }
}
