package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;

/**
 * A staged integer ({@link I32} or {@link I64}): the remainder and the bitwise operators, besides
 * {@link Num}'s arithmetic. Division and remainder truncate toward zero; by zero they fail at run
 * time. Shifts are arithmetic ({@code >>} keeps the sign), as in Java and CUDA.
 *
 * @param <N> the handle class itself
 */
public abstract class Int<N extends Int<N>> extends Num<N> {
  Int(Parts parts) {
    super(parts);
  }

  public N mod(N other) {
    CallSite.nonNull("mod(other)", other);
    return arithmetic(BinaryOperator.MOD, other);
  }

  /** {@code this ^ other}. */
  public N xor(N other) {
    CallSite.nonNull("xor(other)", other);
    return arithmetic(BinaryOperator.XOR, other);
  }

  /** {@code this & other}. */
  public N bitAnd(N other) {
    CallSite.nonNull("bitAnd(other)", other);
    return arithmetic(BinaryOperator.BAND, other);
  }

  /** {@code this | other}. */
  public N bitOr(N other) {
    CallSite.nonNull("bitOr(other)", other);
    return arithmetic(BinaryOperator.BOR, other);
  }

  /** {@code this << bits}. */
  public N shiftLeft(N bits) {
    CallSite.nonNull("shiftLeft(bits)", bits);
    return arithmetic(BinaryOperator.SHL, bits);
  }

  /** {@code this >> bits}. */
  public N shiftRight(N bits) {
    CallSite.nonNull("shiftRight(bits)", bits);
    return arithmetic(BinaryOperator.SHR, bits);
  }
}
