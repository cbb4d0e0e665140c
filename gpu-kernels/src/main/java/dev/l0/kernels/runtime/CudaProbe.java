package dev.l0.kernels.runtime;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuInit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import jcuda.driver.CUdevice;

/**
 * Finds out once per JVM whether CUDA works here (ARCHITECTURE.md, "Runtime"): initialises the
 * driver and counts its GPUs once, then describes each GPU asked for, once per device ordinal (GPU
 * {@value #DEFAULT_ORDINAL} where none is named). Without {@code libcuda.so.1}, JCuda's first call
 * throws {@code UnsatisfiedLinkError} and every later one {@code NoClassDefFoundError}; both are
 * caught, and the first answers are kept for the life of the JVM, so the probe never throws for a
 * device number and costs one attempt per GPU. An ordinal the machine does not have is unavailable
 * with the reason {@code GPU 3 requested, the machine has 1}.
 */
public final class CudaProbe {
  /** The GPU used where none is named: the runtime's default device. */
  public static final int DEFAULT_ORDINAL = 0;

  private static final ConcurrentHashMap<Integer, Availability<CudaDevice>> PROBED =
      new ConcurrentHashMap<>();

  private CudaProbe() {}

  /** Lazily initialised by the JVM on first use, exactly once, thread-safely. */
  private static final class Driver {
    static final Availability<Integer> DEVICE_COUNT = countDevices();
  }

  /** GPU {@value #DEFAULT_ORDINAL} described, or the one-line reason CUDA cannot be used here. */
  public static Availability<CudaDevice> probe() {
    return probe(DEFAULT_ORDINAL);
  }

  /**
   * GPU {@code ordinal} (as the driver numbers them, from 0) described, or the one-line reason it
   * cannot be used: no driver, no device, or fewer GPUs than the ordinal needs.
   *
   * @throws IllegalArgumentException for a negative ordinal
   */
  public static Availability<CudaDevice> probe(int ordinal) {
    return PROBED.computeIfAbsent(
        checkedOrdinal(ordinal), o -> probe(o, Driver.DEVICE_COUNT, CudaProbe::readDevice));
  }

  /**
   * GPU {@code ordinal} on a machine whose driver reported {@code deviceCount} GPUs (or why it
   * reported none), described by {@code reader} where the machine has it.
   */
  static Availability<CudaDevice> probe(
      int ordinal,
      Availability<Integer> deviceCount,
      IntFunction<Availability<CudaDevice>> reader) {
    int count = deviceCount.value().orElse(0);
    if (count == 0) {
      return Availability.unavailable(deviceCount.description());
    }
    if (ordinal >= count) {
      return Availability.unavailable("GPU " + ordinal + " requested, the machine has " + count);
    }
    return reader.apply(ordinal);
  }

  /** {@code ordinal}, which must name a device: 0 or more. */
  static int checkedOrdinal(int ordinal) {
    if (ordinal < 0) {
      throw new IllegalArgumentException(
          "GPU ordinal " + ordinal + " is not a device number (0, 1, ...)");
    }
    return ordinal;
  }

  private static Availability<Integer> countDevices() {
    return answered(
        () -> {
          JCudaNatives.initialise("jcuda.driver.JCudaDriver");
          CudaDriverCall.run("cuInit", () -> cuInit(0));
          int[] count = new int[1];
          CudaDriverCall.run("cuDeviceGetCount", () -> cuDeviceGetCount(count));
          return count[0] == 0
              ? Availability.unavailable("no CUDA device (the driver reports none)")
              : Availability.available(count[0], count[0] + " CUDA device(s)");
        });
  }

  private static Availability<CudaDevice> readDevice(int ordinal) {
    return answered(
        () -> {
          CUdevice handle = new CUdevice();
          CudaDriverCall.run("cuDeviceGet", () -> cuDeviceGet(handle, ordinal));
          CudaDevice device = CudaDevice.read(handle);
          return Availability.available(device, device.describe());
        });
  }

  /** What {@code probe} answers, or the one-line reason the driver failed it. */
  private static <T> Availability<T> answered(Supplier<Availability<T>> probe) {
    try {
      return probe.get();
    } catch (LinkageError e) {
      return Availability.unavailable(
          "no CUDA driver (" + FailureMessages.libraryLoadFailure(e) + ")");
    } catch (CudaDriverException e) {
      return Availability.unavailable("CUDA driver unusable (" + e.getMessage() + ")");
    } catch (RuntimeException e) {
      return Availability.unavailable("CUDA probe failed (" + FailureMessages.oneLine(e) + ")");
    }
  }
}
