package dev.l0.spark.pipeline;

import dev.l0.kernels.runtime.DeviceKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * How an executor runs pipelines: the device asked for ({@code AUTO}, {@code CUDA} or {@code JVM}),
 * the GPU ordinal of the task's GPU resource ({@code -1}: the default device), and the most threads
 * the JVM backend's kernels of one task use (the task's {@code spark.task.cpus}).
 */
public record ExecutionSettings(DeviceKind device, int gpuOrdinal, int jvmThreads)
    implements Serializable {

  /** Checks the device, the ordinal and the thread count. */
  public ExecutionSettings {
    Objects.requireNonNull(device, "device");
    if (gpuOrdinal < -1) {
      throw new IllegalArgumentException(
          "GPU ordinal " + gpuOrdinal + " is not -1 (default) or a device number");
    }
    if (jvmThreads < 1) {
      throw new IllegalArgumentException(
          "a task's kernels need at least one JVM thread, not " + jvmThreads);
    }
  }
}
