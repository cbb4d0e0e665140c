package dev.l0.dsl;

import dev.l0.ir.ScalarType;
import java.util.List;

/**
 * A staged {@code i32} (the thesis's {@code int}); array sizes and indices have this type.
 * Operations with a Java {@code int} take it as an L0 literal of this type.
 */
public final class I32 extends Int<I32> {
  public static final ValType<I32> TYPE = new ValType<>(ScalarType.I32, List.of(), I32::new);

  I32(Parts parts) {
    super(parts);
  }

  public I32 add(int c) {
    return add(L0.i32(c));
  }

  public I32 sub(int c) {
    return sub(L0.i32(c));
  }

  public I32 mul(int c) {
    return mul(L0.i32(c));
  }

  public I32 div(int c) {
    return div(L0.i32(c));
  }

  public Bool lt(int c) {
    return lt(L0.i32(c));
  }

  public Bool le(int c) {
    return le(L0.i32(c));
  }

  public Bool gt(int c) {
    return gt(L0.i32(c));
  }

  public Bool ge(int c) {
    return ge(L0.i32(c));
  }

  public Bool eq(int c) {
    return eq(L0.i32(c));
  }

  public I32 bitAnd(int c) {
    return bitAnd(L0.i32(c));
  }

  public I32 shiftLeft(int bits) {
    return shiftLeft(L0.i32(bits));
  }

  public I32 shiftRight(int bits) {
    return shiftRight(L0.i32(bits));
  }
}
