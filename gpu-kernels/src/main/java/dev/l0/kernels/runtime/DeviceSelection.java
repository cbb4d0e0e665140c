package dev.l0.kernels.runtime;

/**
 * The device work runs on ({@link DeviceKind#CUDA} or {@link DeviceKind#JVM}, never AUTO) and why,
 * reported as e.g. {@code cuda: NVIDIA H100 80GB HBM3 (sm_90)} or {@code jvm: requested}.
 */
public record DeviceSelection(DeviceKind chosen, String reason) {
  public DeviceSelection {
    if (chosen == DeviceKind.AUTO) {
      throw new IllegalArgumentException("a selection is CUDA or the JVM, not auto");
    }
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
