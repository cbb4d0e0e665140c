package dev.l0.spark.pipeline;

import java.util.List;

/**
 * Counters of one {@link PartitionRunner} since it opened, for SQL metrics: compile time, kernel
 * time, bytes and time moved to and from the device, compile cache hits, and fallbacks to the JVM
 * (or to the evaluator) with their reasons. An immutable snapshot.
 */
public record RunStatistics(
    long compileNanos,
    long kernelNanos,
    long transferBytes,
    long transferNanos,
    long compileCacheHits,
    long fallbacks,
    List<String> fallbackReasons) {

  /** Copies the reasons. */
  public RunStatistics {
    fallbackReasons = List.copyOf(fallbackReasons);
  }
}
