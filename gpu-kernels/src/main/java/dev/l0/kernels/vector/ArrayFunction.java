package dev.l0.kernels.vector;

/** A math function applied to a range of an array, as {@link VectorMath}'s calls are. */
@FunctionalInterface
interface ArrayFunction {
  void apply(double[] in, int inOffset, double[] out, int outOffset, int count);
}
