package dev.l0.kernels.runtime;

/**
 * The device ran out of memory ({@code CUDA_ERROR_OUT_OF_MEMORY}). Callers split the work into
 * smaller pieces and retry ({@link SplitAndRetry}), and fall back to the JVM when even the smallest
 * piece does not fit.
 */
public final class OutOfDeviceMemoryException extends CudaDriverException {
  private static final long serialVersionUID = 1L;

  public OutOfDeviceMemoryException(String operation) {
    super(operation, "CUDA_ERROR_OUT_OF_MEMORY");
  }
}
