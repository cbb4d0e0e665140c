package dev.l0.kernels.runtime;

import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Turns the requested {@link DeviceKind} into the device used and the reason: CUDA needs both a
 * working driver and GPU ({@link CudaProbe}) and a PTX compiler ({@link PtxCompilers}). AUTO falls
 * back to the JVM with one logged line; CUDA where it cannot work is a
 * {@link CudaUnavailableException}; JVM is taken as asked, without probing.
 */
public final class DeviceSelector {
  private static final Logger LOG = Logger.getLogger(DeviceSelector.class.getName());

  private DeviceSelector() {}

  public static DeviceSelection select(DeviceKind requested) {
    return select(requested, CudaProbe::probe, PtxCompilers::onThisMachine);
  }

  static DeviceSelection select(
      DeviceKind requested, Supplier<Availability<CudaDevice>> device, Supplier<Availability<PtxCompiler>> compiler) {
    if (requested == DeviceKind.JVM) {
      return new DeviceSelection(DeviceKind.JVM, "requested");
    }
    Availability<CudaDevice> gpu = device.get();
    Optional<String> unusable = whyCudaCannotWork(gpu, compiler);
    if (unusable.isEmpty()) {
      return new DeviceSelection(DeviceKind.CUDA, gpu.description());
    }
    if (requested == DeviceKind.CUDA) {
      throw new CudaUnavailableException("device cuda was requested, but CUDA cannot be used here: " + unusable.get());
    }
    DeviceSelection fallback = new DeviceSelection(DeviceKind.JVM, unusable.get());
    LOG.info(fallback.report());
    return fallback;
  }

  /** Why CUDA cannot run work here: no usable GPU, else no compiler (asked only when there is a GPU). */
  private static Optional<String> whyCudaCannotWork(
      Availability<CudaDevice> gpu, Supplier<Availability<PtxCompiler>> compiler) {
    if (!gpu.isAvailable()) {
      return Optional.of(gpu.description());
    }
    Availability<PtxCompiler> ptxCompiler = compiler.get();
    return ptxCompiler.isAvailable() ? Optional.empty() : Optional.of(ptxCompiler.description());
  }
}
