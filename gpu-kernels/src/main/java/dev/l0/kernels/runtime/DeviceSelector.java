package dev.l0.kernels.runtime;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Turns the requested {@link DeviceKind} and GPU (a device ordinal, GPU {@value
 * CudaProbe#DEFAULT_ORDINAL} where none is named) into the device used and the reason: CUDA needs
 * both a working driver with that GPU ({@link CudaProbe}) and a PTX compiler ({@link
 * PtxCompilers}). AUTO falls back to the JVM with one logged line per reason and JVM (e.g. {@code
 * jvm: GPU 3 requested, the machine has 1}; a job that plans many pipelines logs it once); CUDA
 * where it cannot work is a {@link CudaUnavailableException}; JVM is taken as asked, without
 * probing.
 */
public final class DeviceSelector {
  private static final Logger LOG = Logger.getLogger(DeviceSelector.class.getName());

  /** The fallback reports logged so far in this JVM. */
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private DeviceSelector() {}

  /** {@link #select(DeviceKind, int)} for GPU {@value CudaProbe#DEFAULT_ORDINAL}. */
  public static DeviceSelection select(DeviceKind requested) {
    return select(requested, CudaProbe.DEFAULT_ORDINAL);
  }

  /**
   * The device for {@code requested} on GPU {@code gpuOrdinal}.
   *
   * @throws CudaUnavailableException where CUDA was requested and cannot work on that GPU
   * @throws IllegalArgumentException for a negative ordinal
   */
  public static DeviceSelection select(DeviceKind requested, int gpuOrdinal) {
    return select(
        requested, gpuOrdinal, () -> CudaProbe.probe(gpuOrdinal), PtxCompilers::onThisMachine);
  }

  static DeviceSelection select(
      DeviceKind requested,
      int gpuOrdinal,
      Supplier<Availability<CudaDevice>> device,
      Supplier<Availability<PtxCompiler>> compiler) {
    CudaProbe.checkedOrdinal(gpuOrdinal);
    if (requested == DeviceKind.JVM) {
      return new DeviceSelection(DeviceKind.JVM, "requested", gpuOrdinal);
    }
    Availability<CudaDevice> gpu = device.get();
    Optional<String> unusable = whyCudaCannotWork(gpu, compiler);
    if (unusable.isEmpty()) {
      return new DeviceSelection(DeviceKind.CUDA, gpu.description(), gpuOrdinal);
    }
    if (requested == DeviceKind.CUDA) {
      throw new CudaUnavailableException(
          "device cuda was requested, but CUDA cannot be used here: " + unusable.get());
    }
    DeviceSelection fallback = new DeviceSelection(DeviceKind.JVM, unusable.get(), gpuOrdinal);
    if (LOGGED.add(fallback.report())) {
      LOG.info(fallback.report());
    }
    return fallback;
  }

  /**
   * Why CUDA cannot run work here: no usable GPU, else no compiler (asked only when there is a
   * GPU).
   */
  private static Optional<String> whyCudaCannotWork(
      Availability<CudaDevice> gpu, Supplier<Availability<PtxCompiler>> compiler) {
    if (!gpu.isAvailable()) {
      return Optional.of(gpu.description());
    }
    Availability<PtxCompiler> ptxCompiler = compiler.get();
    return ptxCompiler.isAvailable() ? Optional.empty() : Optional.of(ptxCompiler.description());
  }
}
