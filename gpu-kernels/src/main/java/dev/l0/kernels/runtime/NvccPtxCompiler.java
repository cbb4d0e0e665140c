package dev.l0.kernels.runtime;

import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.cuda.NvccCompiler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link PtxCompiler} over {@link NvccCompiler} ({@code nvcc -ptx}), used where NVRTC does not
 * load: each compilation runs nvcc with {@code -arch=sm_XY} for its target and the given options.
 */
public final class NvccPtxCompiler implements PtxCompiler {
  private static final String SOURCE_NAME = "l0_kernel";

  private final Path executable;
  private final Duration timeout;
  private final String identity;

  /** Asks {@code nvcc} for its version once, for {@link #identity()}. */
  public NvccPtxCompiler(Path executable, Duration timeout) {
    this.executable = executable;
    this.timeout = timeout;
    this.identity = "nvcc " + releaseOf(new NvccCompiler(executable, List.of(), timeout).version());
  }

  /** The nvcc of this machine, or the reason there is none that runs. */
  public static Availability<PtxCompiler> onThisMachine() {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    if (nvcc.isEmpty()) {
      return Availability.unavailable(
          "no nvcc on the PATH, in $CUDA_HOME/bin, $CUDA_PATH/bin or /usr/local/cuda/bin");
    }
    try {
      NvccPtxCompiler compiler =
          new NvccPtxCompiler(nvcc.get().executable(), NvccCompiler.DEFAULT_TIMEOUT);
      return Availability.available(compiler, compiler.identity() + " at " + compiler.executable);
    } catch (CudaCompileException e) {
      return Availability.unavailable(
          "nvcc at "
              + nvcc.get().executable()
              + " does not run ("
              + FailureMessages.oneLine(e)
              + ")");
    }
  }

  /** The release and build lines of {@code nvcc --version}, or all of it where they are missing. */
  private static String releaseOf(String versionText) {
    List<String> lines =
        versionText
            .lines()
            .map(String::strip)
            .filter(line -> line.startsWith("Cuda compilation tools") || line.startsWith("Build "))
            .toList();
    return lines.isEmpty()
        ? String.join(" ", versionText.strip().lines().toList())
        : String.join(", ", lines);
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public Ptx compile(String source, List<String> options, ComputeCapability target) {
    PtxCompiler.requireNoTargetOption(options);
    List<String> all = new ArrayList<>();
    all.add("-arch=" + target.smArchitecture());
    all.addAll(options);
    return new Ptx(new NvccCompiler(executable, all, timeout).compileToPtx(source, SOURCE_NAME));
  }
}
