package dev.l0.spark.pipeline;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;

/**
 * The programs compiled in this JVM, by source (its text as written, whose positions the program's
 * errors cite), role (main, combiner, offset, totals), device and GPU. Compiled once per GPU and
 * shared by every task of the executor on that GPU (a {@link CompiledProgram} is thread-safe), so a
 * CUDA program keeps its modules loaded for the next task. A program runs on the GPU of the task's
 * GPU resource, or on GPU {@value CudaProbe#DEFAULT_ORDINAL} where the task has none (ordinal -1);
 * a JVM program serves every GPU.
 *
 * <p>It holds at most {@code spark.l0.programCache.maxPrograms} programs (set by {@link #limit}
 * when the executor starts, {@value #DEFAULT_CAPACITY} until then); beyond that the least recently
 * used one leaves it, and is closed (its GPU modules released) when the last task's lease on it
 * ends.
 */
public final class ProgramCache {
  /**
   * How many programs the cache holds until {@link #limit} sets another bound; the key's default.
   */
  public static final int DEFAULT_CAPACITY = 256;

  private static final LeaseCache<CompiledProgram> PROGRAMS =
      new LeaseCache<>("program cache", DEFAULT_CAPACITY);

  private ProgramCache() {}

  /**
   * Holds at most {@code maxPrograms} programs from now on, dropping the least recently used beyond
   * that.
   */
  public static void limit(int maxPrograms) {
    PROGRAMS.limit(maxPrograms);
  }

  /** How many programs the cache holds now. */
  static int size() {
    return PROGRAMS.size();
  }

  /**
   * A lease on the program {@code source} in {@code role}, compiled for {@code settings} (device,
   * GPU, JVM threads) unless cached; the caller closes it when it no longer runs the program.
   */
  static LeaseCache.Lease<CompiledProgram> get(
      String role, L0Source source, ExecutionSettings settings) {
    int gpuOrdinal = gpuOrdinal(settings);
    String key =
        source.compiledKey()
            + "/"
            + role
            + "/"
            + settings.device().label()
            + "/"
            + gpuOrdinal
            + "/"
            + settings.jvmThreads();
    return PROGRAMS.get(
        key,
        () ->
            L0Runtime.compile(
                source.program(),
                source.entry(),
                settings.device(),
                gpuOrdinal,
                settings.jvmThreads()));
  }

  /**
   * The GPU a program for {@code settings} is compiled for: the task's, else the default (also for
   * the JVM, which uses none).
   */
  private static int gpuOrdinal(ExecutionSettings settings) {
    return settings.gpuOrdinal() == -1 || settings.device() == DeviceKind.JVM
        ? CudaProbe.DEFAULT_ORDINAL
        : settings.gpuOrdinal();
  }
}
