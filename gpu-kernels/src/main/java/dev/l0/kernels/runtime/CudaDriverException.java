package dev.l0.kernels.runtime;

/**
 * A CUDA driver call failed; the message and {@link #resultName()} carry the driver's {@code
 * CUresult} name (e.g. {@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}).
 */
public class CudaDriverException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final String OUT_OF_MEMORY = "CUDA_ERROR_OUT_OF_MEMORY";

  private final String operation;
  private final String resultName;

  CudaDriverException(String operation, String resultName) {
    super(operation + " failed: " + resultName);
    this.operation = operation;
    this.resultName = resultName;
  }

  /**
   * The exception for {@code resultName}: {@link OutOfDeviceMemoryException} for an out-of-memory
   * result.
   */
  static CudaDriverException of(String operation, String resultName) {
    return OUT_OF_MEMORY.equals(resultName)
        ? new OutOfDeviceMemoryException(operation)
        : new CudaDriverException(operation, resultName);
  }

  /** The driver call that failed, e.g. {@code cuModuleLoadData}. */
  public String operation() {
    return operation;
  }

  public String resultName() {
    return resultName;
  }
}
