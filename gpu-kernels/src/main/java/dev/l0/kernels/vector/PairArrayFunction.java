package dev.l0.kernels.vector;

/**
 * A math function of two arguments applied to ranges of two arrays, as {@link VectorMath#pow} is.
 */
@FunctionalInterface
interface PairArrayFunction {
  void apply(
      double[] x, int xOffset, double[] y, int yOffset, double[] out, int outOffset, int count);
}
