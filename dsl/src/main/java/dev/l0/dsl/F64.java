package dev.l0.dsl;

import dev.l0.ir.ScalarType;
import java.util.List;

/**
 * A staged {@code f64} (the thesis's {@code real}). Operations with a Java {@code double} take it
 * as an L0 literal of this type.
 */
public final class F64 extends Real<F64> {
  public static final ValType<F64> TYPE = new ValType<>(ScalarType.F64, List.of(), F64::new);

  F64(Parts parts) {
    super(parts);
  }

  public F64 add(double c) {
    return add(L0.f64(c));
  }

  public F64 sub(double c) {
    return sub(L0.f64(c));
  }

  public F64 mul(double c) {
    return mul(L0.f64(c));
  }

  public F64 div(double c) {
    return div(L0.f64(c));
  }

  public Bool lt(double c) {
    return lt(L0.f64(c));
  }

  public Bool le(double c) {
    return le(L0.f64(c));
  }

  public Bool gt(double c) {
    return gt(L0.f64(c));
  }

  public Bool ge(double c) {
    return ge(L0.f64(c));
  }

  public Bool eq(double c) {
    return eq(L0.f64(c));
  }
}
