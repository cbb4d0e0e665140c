package dev.l0.kernels.jvm;

import dev.l0.semantics.ScalarOperations;

/**
 * The operations generated kernels call where a Java operator alone would not mean what {@code
 * dev.l0.semantics.ScalarOperations} means: integer {@code pow}, for the non-negative exponents the
 * kernel IR guards it to, computed by {@link ScalarOperations#wrappingPower}.
 */
public final class JvmSupport {
  private JvmSupport() {}

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 32 bits. */
  public static int power(int base, int exponent) {
    return (int) ScalarOperations.wrappingPower(base, exponent);
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 64 bits. */
  public static long power(long base, long exponent) {
    return ScalarOperations.wrappingPower(base, exponent);
  }
}
