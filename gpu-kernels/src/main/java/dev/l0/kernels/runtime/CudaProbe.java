package dev.l0.kernels.runtime;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuInit;

import jcuda.driver.CUdevice;

/**
 * Finds out once per JVM whether CUDA works here (ARCHITECTURE.md, "Runtime"): initialises the
 * driver and describes GPU 0. Without {@code libcuda.so.1}, JCuda's first call throws
 * {@code UnsatisfiedLinkError} and every later one {@code NoClassDefFoundError}; both are caught,
 * and the first answer is kept for the life of the JVM, so the probe never throws and costs one
 * attempt.
 */
public final class CudaProbe {
  /** The device every probe and context of this runtime uses. */
  static final int DEVICE_ORDINAL = 0;

  private CudaProbe() {}

  /** Lazily initialised by the JVM on first use, exactly once, thread-safely. */
  private static final class Answer {
    static final Availability<CudaDevice> PROBED = probeDriver();
  }

  /** GPU 0 described, or the one-line reason CUDA cannot be used here. */
  public static Availability<CudaDevice> probe() {
    return Answer.PROBED;
  }

  private static Availability<CudaDevice> probeDriver() {
    try {
      CudaDriverCall.run("cuInit", () -> cuInit(0));
      int[] count = new int[1];
      CudaDriverCall.run("cuDeviceGetCount", () -> cuDeviceGetCount(count));
      if (count[0] == 0) {
        return Availability.unavailable("no CUDA device (the driver reports none)");
      }
      CUdevice handle = new CUdevice();
      CudaDriverCall.run("cuDeviceGet", () -> cuDeviceGet(handle, DEVICE_ORDINAL));
      CudaDevice device = CudaDevice.read(handle);
      return Availability.available(device, device.describe());
    } catch (LinkageError e) {
      return Availability.unavailable("no CUDA driver (" + FailureMessages.libraryLoadFailure(e) + ")");
    } catch (CudaDriverException e) {
      return Availability.unavailable("CUDA driver unusable (" + e.getMessage() + ")");
    } catch (RuntimeException e) {
      return Availability.unavailable("CUDA probe failed (" + FailureMessages.oneLine(e) + ")");
    }
  }
}
