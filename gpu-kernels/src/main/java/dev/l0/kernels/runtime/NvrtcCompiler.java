package dev.l0.kernels.runtime;

import static jcuda.nvrtc.JNvrtc.nvrtcCompileProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcCreateProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcDestroyProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcGetPTX;
import static jcuda.nvrtc.JNvrtc.nvrtcGetProgramLog;
import static jcuda.nvrtc.JNvrtc.nvrtcVersion;

import dev.l0.kernels.cuda.CudaCompileException;
import java.util.ArrayList;
import java.util.List;
import jcuda.CudaException;
import jcuda.nvrtc.nvrtcProgram;
import jcuda.nvrtc.nvrtcResult;

/**
 * The {@link PtxCompiler} in the JVM's own process: NVRTC through JCuda, which needs CUDA 12's
 * {@code libnvrtc.so.12} (ARCHITECTURE.md, "Runtime"). Whether it loads is probed once per JVM the
 * way {@link CudaProbe} probes the driver: the first failure is an {@code UnsatisfiedLinkError},
 * later ones {@code NoClassDefFoundError}, and both become the cached reason.
 */
public final class NvrtcCompiler implements PtxCompiler {
  private static final String SOURCE_NAME = "l0_kernel.cu";

  private final String identity;

  private NvrtcCompiler(String identity) {
    this.identity = identity;
  }

  /** Lazily initialised by the JVM on first use, exactly once, thread-safely. */
  private static final class Answer {
    static final Availability<PtxCompiler> PROBED = probeLibrary();
  }

  /** NVRTC, or the one-line reason it does not load here. */
  public static Availability<PtxCompiler> onThisMachine() {
    return Answer.PROBED;
  }

  private static Availability<PtxCompiler> probeLibrary() {
    try {
      JCudaNatives.initialise("jcuda.nvrtc.JNvrtc");
      int[] major = new int[1];
      int[] minor = new int[1];
      int result = nvrtcVersion(major, minor);
      if (result != nvrtcResult.NVRTC_SUCCESS) {
        return Availability.unavailable(
            "NVRTC does not answer (" + nvrtcResult.stringFor(result) + ")");
      }
      NvrtcCompiler compiler = new NvrtcCompiler("nvrtc " + major[0] + "." + minor[0]);
      return Availability.available(compiler, compiler.identity());
    } catch (LinkageError e) {
      return Availability.unavailable(
          "NVRTC does not load (" + FailureMessages.libraryLoadFailure(e) + ")");
    } catch (RuntimeException e) {
      return Availability.unavailable("NVRTC probe failed (" + FailureMessages.oneLine(e) + ")");
    }
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public Ptx compile(String source, List<String> options, ComputeCapability target) {
    PtxCompiler.requireNoTargetOption(options);
    List<String> all = new ArrayList<>(options);
    all.add("--gpu-architecture=" + target.computeArchitecture());
    String[] arguments = all.toArray(String[]::new);
    nvrtcProgram program = new nvrtcProgram();
    try {
      requireSuccess(
          "nvrtcCreateProgram",
          nvrtcCreateProgram(program, source, SOURCE_NAME, 0, null, null),
          program);
      try {
        requireSuccess(
            "nvrtcCompileProgram",
            nvrtcCompileProgram(program, arguments.length, arguments),
            program);
        String[] ptx = new String[1];
        requireSuccess("nvrtcGetPTX", nvrtcGetPTX(program, ptx), program);
        return new Ptx(ptx[0]);
      } finally {
        nvrtcDestroyProgram(program);
      }
    } catch (CudaException e) {
      throw new CudaCompileException("NVRTC failed: " + e.getMessage(), e);
    }
  }

  /** Throws with NVRTC's compile log when {@code result} is not success. */
  private static void requireSuccess(String operation, int result, nvrtcProgram program) {
    if (result == nvrtcResult.NVRTC_SUCCESS) {
      return;
    }
    String[] log = new String[1];
    String diagnostics =
        nvrtcGetProgramLog(program, log) == nvrtcResult.NVRTC_SUCCESS && log[0] != null
            ? log[0]
            : "";
    throw new CudaCompileException(
        operation + " failed (" + nvrtcResult.stringFor(result) + ")\n" + diagnostics);
  }
}
