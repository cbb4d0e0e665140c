package dev.l0.kernels.jvm;

import dev.l0.semantics.ScalarOperations;

/**
 * The operations generated kernels call where a Java operator alone would not mean what {@code
 * dev.l0.semantics.ScalarOperations} means: integer {@code pow}, for the non-negative exponents the
 * kernel IR guards it to, computed by {@link ScalarOperations#wrappingPower}; and the scratch
 * arrays of the loops inside kernel threads that run lane-wise ({@link InnerLoopStages}).
 */
public final class JvmSupport {
  private static final ThreadLocal<double[][]> LANE_SCRATCH =
      ThreadLocal.withInitial(() -> new double[0][]);

  private JvmSupport() {}

  /**
   * The calling thread's first {@code arrays} scratch arrays of {@link InnerLoopStages#CHUNK}
   * doubles, made on first use and reused by every staged inner loop the thread runs (one at a
   * time: such a loop's body holds no loop).
   */
  public static double[][] laneScratch(int arrays) {
    double[][] scratch = LANE_SCRATCH.get();
    if (scratch.length < arrays) {
      double[][] grown = java.util.Arrays.copyOf(scratch, arrays);
      for (int k = scratch.length; k < arrays; k++) {
        grown[k] = new double[InnerLoopStages.CHUNK];
      }
      LANE_SCRATCH.set(grown);
      scratch = grown;
    }
    return scratch;
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 32 bits. */
  public static int power(int base, int exponent) {
    return (int) ScalarOperations.wrappingPower(base, exponent);
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 64 bits. */
  public static long power(long base, long exponent) {
    return ScalarOperations.wrappingPower(base, exponent);
  }
}
