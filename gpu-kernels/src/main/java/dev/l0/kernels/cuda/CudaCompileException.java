package dev.l0.kernels.cuda;

/**
 * CUDA source could not be turned into PTX: the compiler rejected it (the message holds its
 * diagnostics), did not finish in time, or could not be run.
 */
public final class CudaCompileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CudaCompileException(String message) {
    super(message);
  }

  public CudaCompileException(String message, Throwable cause) {
    super(message, cause);
  }
}
