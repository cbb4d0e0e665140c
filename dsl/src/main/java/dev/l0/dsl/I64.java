package dev.l0.dsl;

import dev.l0.ir.ScalarType;
import java.util.List;

/**
 * A staged {@code i64}. Operations with a Java {@code long} take it as an L0 literal of this type.
 */
public final class I64 extends Int<I64> {
  public static final ValType<I64> TYPE = new ValType<>(ScalarType.I64, List.of(), I64::new);

  I64(Parts parts) {
    super(parts);
  }

  public I64 add(long c) {
    return add(L0.i64(c));
  }

  public I64 sub(long c) {
    return sub(L0.i64(c));
  }

  public I64 mul(long c) {
    return mul(L0.i64(c));
  }

  public I64 div(long c) {
    return div(L0.i64(c));
  }

  public Bool lt(long c) {
    return lt(L0.i64(c));
  }

  public Bool le(long c) {
    return le(L0.i64(c));
  }

  public Bool gt(long c) {
    return gt(L0.i64(c));
  }

  public Bool ge(long c) {
    return ge(L0.i64(c));
  }

  public Bool eq(long c) {
    return eq(L0.i64(c));
  }
}
