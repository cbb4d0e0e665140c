package dev.l0.kernels.runtime;

/**
 * The device work runs on ({@link DeviceKind#CUDA} or {@link DeviceKind#JVM}, never AUTO), why, and
 * the GPU it was chosen for (its device ordinal: the GPU CUDA runs on where CUDA was chosen, the
 * one asked for where the JVM was), reported as e.g. {@code cuda: NVIDIA H100 80GB HBM3 (sm_90)} or
 * {@code jvm: requested}.
 */
public record DeviceSelection(DeviceKind chosen, String reason, int gpuOrdinal) {
  public DeviceSelection {
    if (chosen == DeviceKind.AUTO) {
      throw new IllegalArgumentException("a selection is CUDA or the JVM, not auto");
    }
    CudaProbe.checkedOrdinal(gpuOrdinal);
  }

  /** {@code chosen: reason}, the line the product reports. */
  public String report() {
    return chosen.label() + ": " + reason;
  }

  @Override
  public String toString() {
    return report();
  }
}
