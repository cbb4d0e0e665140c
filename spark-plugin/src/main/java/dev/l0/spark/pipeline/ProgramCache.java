package dev.l0.spark.pipeline;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The programs compiled in this JVM, by spec key, role (main, combiner, offset, totals) and
 * execution settings. Compiled once and shared by every task of the executor (a
 * {@link CompiledProgram} is thread-safe); never closed while the JVM lives, so a CUDA program
 * keeps its modules loaded for the next task.
 */
final class ProgramCache {
  private static final ConcurrentHashMap<String, CompiledProgram> COMPILED = new ConcurrentHashMap<>();

  /** A program and whether this call compiled it (false: it came from the cache). */
  record Lookup(CompiledProgram program, boolean compiledNow) {}

  private ProgramCache() {}

  /** The program {@code source} of {@code spec} in {@code role}, compiled for {@code settings} unless cached. */
  static Lookup get(PipelineSpec spec, String role, L0Source source, ExecutionSettings settings) {
    String key = spec.key() + "/" + role + "/" + settings.device().label() + "/" + settings.gpuOrdinal();
    boolean[] compiledNow = {false};
    CompiledProgram program = COMPILED.computeIfAbsent(key, k -> {
      compiledNow[0] = true;
      return L0Runtime.compile(source.program(), source.entry(), settings.device());
    });
    return new Lookup(program, compiledNow[0]);
  }
}
