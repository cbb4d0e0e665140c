package dev.l0.kernels.jvm;

/**
 * The operations generated kernels call where a Java operator alone would not mean what
 * {@code dev.l0.semantics.ScalarOperations} means: integer {@code pow}, for the non-negative
 * exponents the kernel IR guards it to.
 */
public final class JvmSupport {
  private JvmSupport() {}

  /** {@code base} to the non-negative {@code exponent}, wrapping around as {@code ScalarOperations}' integer power does (by squaring). */
  public static int power(int base, int exponent) {
    int result = 1;
    int square = base;
    for (int e = exponent; e != 0; e >>>= 1) {
      if ((e & 1) != 0) {
        result *= square;
      }
      square *= square;
    }
    return result;
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around as {@code ScalarOperations}' integer power does (by squaring). */
  public static long power(long base, long exponent) {
    long result = 1;
    long square = base;
    for (long e = exponent; e != 0; e >>>= 1) {
      if ((e & 1) != 0) {
        result *= square;
      }
      square *= square;
    }
    return result;
  }
}
