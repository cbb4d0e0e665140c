package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;

/**
 * A staged floating-point number ({@link F64} or {@link F32}): the math built-ins, computed as
 * {@code StrictMath} does (ARCHITECTURE.md, "Kernels"), and {@code pow}.
 *
 * @param <N> the handle class itself
 */
public abstract class Real<N extends Real<N>> extends Num<N> {
  Real(Parts parts) {
    super(parts);
  }

  public N exp() {
    return builtin(Builtin.EXP, selfType());
  }

  public N log() {
    return builtin(Builtin.LOG, selfType());
  }

  public N sqrt() {
    return builtin(Builtin.SQRT, selfType());
  }

  public N sin() {
    return builtin(Builtin.SIN, selfType());
  }

  public N cos() {
    return builtin(Builtin.COS, selfType());
  }

  public N erf() {
    return builtin(Builtin.ERF, selfType());
  }

  public N floor() {
    return builtin(Builtin.FLOOR, selfType());
  }

  /** {@code this pow exponent}. */
  public N pow(N exponent) {
    CallSite.nonNull("pow(exponent)", exponent);
    return arithmetic(BinaryOperator.POW, exponent);
  }
}
