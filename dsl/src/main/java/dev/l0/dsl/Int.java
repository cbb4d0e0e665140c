package dev.l0.dsl;

import dev.l0.ir.BinaryOperator;

/**
 * A staged integer ({@link I32} or {@link I64}): the remainder, besides {@link Num}'s arithmetic.
 * Division and remainder truncate toward zero; by zero they fail at run time.
 *
 * @param <N> the handle class itself
 */
public abstract class Int<N extends Int<N>> extends Num<N> {
  Int(Parts parts) {
    super(parts);
  }

  public N mod(N other) {
    return arithmetic(BinaryOperator.MOD, other);
  }
}
