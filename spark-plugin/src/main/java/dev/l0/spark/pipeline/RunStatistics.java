package dev.l0.spark.pipeline;

import dev.l0.kernels.runtime.DeviceKind;
import java.util.List;
import java.util.Optional;

/**
 * Counters of one {@link PartitionRunner} since it opened, for SQL metrics: compile time, kernel
 * time, bytes and time moved to and from the device, compile cache hits, the fallbacks with their
 * reasons (each program the runner compiled for the JVM although Spark had assigned its task a
 * GPU), and the backend its programs ran on: {@link DeviceKind#CUDA} where any of them was compiled
 * for CUDA, {@link DeviceKind#JVM} where all were compiled for the JVM, empty where the runner ran
 * none (a per-row pipeline's partition without rows). An immutable snapshot.
 */
public record RunStatistics(
    long compileNanos,
    long kernelNanos,
    long transferBytes,
    long transferNanos,
    long compileCacheHits,
    long fallbacks,
    List<String> fallbackReasons,
    Optional<DeviceKind> backend) {

  /** Copies the reasons. */
  public RunStatistics {
    fallbackReasons = List.copyOf(fallbackReasons);
  }
}
