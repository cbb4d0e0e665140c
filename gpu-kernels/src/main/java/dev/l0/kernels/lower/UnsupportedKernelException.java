package dev.l0.kernels.lower;

/**
 * The lowering cannot turn a kernel-plan entry into kernels; the message names the construct.
 * Callers fall back to the interpreter or the optimiser's evaluator for that SOAC.
 */
public final class UnsupportedKernelException extends RuntimeException {
  public UnsupportedKernelException(String construct) {
    super("cannot lower to kernels: " + construct);
  }
}
