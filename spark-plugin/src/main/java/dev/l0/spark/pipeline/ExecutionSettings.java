package dev.l0.spark.pipeline;

import dev.l0.kernels.runtime.DeviceKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * How an executor runs pipelines: the device asked for ({@code AUTO}, {@code CUDA} or
 * {@code JVM}) and the GPU ordinal of the task's GPU resource ({@code -1}: the default device).
 */
public record ExecutionSettings(DeviceKind device, int gpuOrdinal) implements Serializable {

  /** Checks the device and the ordinal. */
  public ExecutionSettings {
    Objects.requireNonNull(device, "device");
    if (gpuOrdinal < -1) {
      throw new IllegalArgumentException("GPU ordinal " + gpuOrdinal + " is not -1 (default) or a device number");
    }
  }
}
