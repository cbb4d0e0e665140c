package dev.l0.kernels.runtime;

/** A CUDA compute capability such as 9.0 (Hopper), the target a kernel is compiled for. */
public record ComputeCapability(int major, int minor) {
  public ComputeCapability {
    if (major < 1 || minor < 0 || minor > 9) {
      throw new IllegalArgumentException("not a compute capability: " + major + "." + minor);
    }
  }

  /** The real architecture nvcc's {@code -arch} takes, e.g. {@code sm_90}. */
  public String smArchitecture() {
    return "sm_" + major + minor;
  }

  /**
   * The virtual architecture NVRTC's {@code --gpu-architecture} takes for PTX, e.g. {@code
   * compute_90}.
   */
  public String computeArchitecture() {
    return "compute_" + major + minor;
  }

  @Override
  public String toString() {
    return smArchitecture();
  }
}
