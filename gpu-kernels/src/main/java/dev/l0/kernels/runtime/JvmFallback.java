package dev.l0.kernels.runtime;

import dev.l0.kernels.cuda.CudaCompileException;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Runs work on the GPU and, where the GPU path fails for a GPU reason (no driver, a failing
 * compile, out of device memory after splitting, any other driver error, CUDA found unusable
 * beforehand), on the JVM instead, logging one line that says why (ARCHITECTURE.md, "Runtime":
 * never a failed job). Failures of the program itself are not GPU reasons and pass through.
 */
public final class JvmFallback {
  private static final Logger LOG = Logger.getLogger(JvmFallback.class.getName());

  private JvmFallback() {}

  public static <T> T run(String work, Supplier<T> gpuPath, Supplier<T> jvmPath) {
    String reason;
    try {
      return gpuPath.get();
    } catch (CudaUnavailableException e) {
      reason = e.getMessage();
    } catch (LinkageError e) {
      reason = "no CUDA driver (" + FailureMessages.libraryLoadFailure(e) + ")";
    } catch (CudaCompileException e) {
      reason = "kernel compilation failed (" + FailureMessages.oneLine(e) + ")";
    } catch (OutOfDeviceMemoryException e) {
      reason = "out of device memory even for the smallest piece (" + e.getMessage() + ")";
    } catch (CudaDriverException e) {
      reason = "CUDA driver error (" + e.getMessage() + ")";
    }
    LOG.warning(work + ": running on the JVM: " + reason);
    return jvmPath.get();
  }
}
