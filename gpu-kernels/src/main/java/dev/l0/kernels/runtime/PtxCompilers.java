package dev.l0.kernels.runtime;

import java.util.function.Supplier;

/**
 * Picks this machine's {@link PtxCompiler} once per JVM: NVRTC where {@code libnvrtc.so.12} loads,
 * else nvcc on the PATH, else none, with the reasons (ARCHITECTURE.md, "Runtime").
 */
public final class PtxCompilers {
  private PtxCompilers() {}

  /** Lazily initialised by the JVM on first use, exactly once, thread-safely. */
  private static final class Answer {
    static final Availability<PtxCompiler> CHOSEN =
        choose(NvrtcCompiler.onThisMachine(), NvccPtxCompiler::onThisMachine);
  }

  /** The compiler this JVM uses, or why there is none. */
  public static Availability<PtxCompiler> onThisMachine() {
    return Answer.CHOSEN;
  }

  /** NVRTC if available; else nvcc (asked only then), whose description also says why not NVRTC. */
  static Availability<PtxCompiler> choose(
      Availability<PtxCompiler> nvrtc, Supplier<Availability<PtxCompiler>> nvcc) {
    if (nvrtc.isAvailable()) {
      return nvrtc;
    }
    Availability<PtxCompiler> fallback = nvcc.get();
    return fallback
        .value()
        .map(
            compiler ->
                Availability.available(
                    compiler, fallback.description() + "; " + nvrtc.description()))
        .orElseGet(
            () ->
                Availability.unavailable(
                    "no CUDA compiler: " + nvrtc.description() + "; " + fallback.description()));
  }
}
