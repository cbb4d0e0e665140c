package dev.l0.dsl;

import dev.l0.ir.ScalarType;
import java.util.List;

/**
 * A staged {@code f32}. Operations with a Java {@code float} take it as an L0 literal of this type.
 */
public final class F32 extends Real<F32> {
  public static final ValType<F32> TYPE = new ValType<>(ScalarType.F32, List.of(), F32::new);

  F32(Parts parts) {
    super(parts);
  }

  public F32 add(float c) {
    return add(L0.f32(c));
  }

  public F32 sub(float c) {
    return sub(L0.f32(c));
  }

  public F32 mul(float c) {
    return mul(L0.f32(c));
  }

  public F32 div(float c) {
    return div(L0.f32(c));
  }

  public Bool lt(float c) {
    return lt(L0.f32(c));
  }

  public Bool le(float c) {
    return le(L0.f32(c));
  }

  public Bool gt(float c) {
    return gt(L0.f32(c));
  }

  public Bool ge(float c) {
    return ge(L0.f32(c));
  }

  public Bool eq(float c) {
    return eq(L0.f32(c));
  }
}
