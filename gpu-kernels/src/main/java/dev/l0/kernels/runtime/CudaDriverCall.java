package dev.l0.kernels.runtime;

import java.util.function.IntSupplier;
import jcuda.CudaException;
import jcuda.driver.CUresult;

/**
 * Runs one CUDA driver call and turns a failure into a {@link CudaDriverException} carrying the
 * {@code CUresult} name, whether JCuda returned the code or (with its exceptions enabled by other
 * code in the JVM) threw it.
 */
final class CudaDriverCall {
  private CudaDriverCall() {}

  static void run(String operation, IntSupplier call) {
    int result;
    try {
      result = call.getAsInt();
    } catch (CudaException e) {
      String message = String.valueOf(e.getMessage()).strip();
      int end = message.indexOf(' ');
      throw CudaDriverException.of(operation, end < 0 ? message : message.substring(0, end));
    }
    if (result != CUresult.CUDA_SUCCESS) {
      throw CudaDriverException.of(operation, CUresult.stringFor(result));
    }
  }
}
