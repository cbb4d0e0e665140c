package dev.l0.kernels.runtime;

/** The CUDA device was asked for explicitly, and CUDA cannot be used here; the message says why. */
public final class CudaUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CudaUnavailableException(String message) {
    super(message);
  }
}
