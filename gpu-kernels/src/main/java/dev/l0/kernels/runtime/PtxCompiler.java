package dev.l0.kernels.runtime;

import java.util.List;

/**
 * Compiles CUDA C++ to PTX for one compute capability (ARCHITECTURE.md, "Runtime": NVRTC where
 * {@code libnvrtc.so.12} loads, else nvcc). Options are flags both compilers accept (e.g. {@code
 * dev.l0.kernels.cuda.NvccCompiler#ARITHMETIC_OPTIONS}); the target architecture is not among them,
 * since each compiler derives it from the compute capability.
 */
public interface PtxCompiler {
  /**
   * The compiler's name and exact version, e.g. {@code nvcc Cuda compilation tools, release 13.0,
   * V13.0.88}; part of a compiled kernel's cache key.
   */
  String identity();

  /**
   * @throws dev.l0.kernels.cuda.CudaCompileException with the compiler's diagnostics when it
   *     rejects the source or cannot run
   * @throws IllegalArgumentException when {@code options} name a target architecture
   */
  Ptx compile(String source, List<String> options, ComputeCapability target);

  /** Rejects options that choose a target architecture, which only {@code target} may do. */
  static void requireNoTargetOption(List<String> options) {
    for (String option : options) {
      if (option.startsWith("-arch")
          || option.startsWith("--gpu-architecture")
          || option.startsWith("-gencode")
          || option.startsWith("--generate-code")
          || option.startsWith("-code")
          || option.startsWith("--gpu-code")) {
        throw new IllegalArgumentException(
            "the target architecture comes from the compute capability, not the option " + option);
      }
    }
  }
}
