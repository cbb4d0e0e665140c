package dev.l0.spark.pipeline;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The programs compiled in this JVM, by spec key, role (main, combiner, offset, totals), device
 * and GPU. Compiled once per GPU and shared by every task of the executor on that GPU (a
 * {@link CompiledProgram} is thread-safe); never closed while the JVM lives, so a CUDA program
 * keeps its modules loaded for the next task. A program runs on the GPU of the task's GPU
 * resource, or on GPU {@value CudaProbe#DEFAULT_ORDINAL} where the task has none (ordinal -1);
 * a JVM program serves every GPU.
 */
final class ProgramCache {
  private static final ConcurrentHashMap<String, CompiledProgram> COMPILED = new ConcurrentHashMap<>();

  /** A program and whether this call compiled it (false: it came from the cache). */
  record Lookup(CompiledProgram program, boolean compiledNow) {}

  private ProgramCache() {}

  /** The program {@code source} of {@code spec} in {@code role}, compiled for {@code settings} unless cached. */
  static Lookup get(PipelineSpec spec, String role, L0Source source, ExecutionSettings settings) {
    int gpuOrdinal = gpuOrdinal(settings);
    String key = spec.key() + "/" + role + "/" + settings.device().label() + "/" + gpuOrdinal;
    boolean[] compiledNow = {false};
    CompiledProgram program = COMPILED.computeIfAbsent(key, k -> {
      compiledNow[0] = true;
      return L0Runtime.compile(source.program(), source.entry(), settings.device(), gpuOrdinal);
    });
    return new Lookup(program, compiledNow[0]);
  }

  /** The GPU a program for {@code settings} is compiled for: the task's, else the default (also for the JVM, which uses none). */
  private static int gpuOrdinal(ExecutionSettings settings) {
    return settings.gpuOrdinal() == -1 || settings.device() == DeviceKind.JVM
        ? CudaProbe.DEFAULT_ORDINAL
        : settings.gpuOrdinal();
  }
}
