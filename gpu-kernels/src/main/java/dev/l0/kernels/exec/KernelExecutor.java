package dev.l0.kernels.exec;

import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;

/**
 * A backend that runs the kernels of a {@link KernelPlan}: the JVM backend, the SIMT simulator,
 * CUDA, or the evaluator. {@link #prepare} is called once per kernel when a {@link HostRunner} is
 * built; the prepared kernel then runs on every call.
 */
public interface KernelExecutor {
  /** A short name for reports, e.g. {@code jvm}. */
  String name();

  /**
   * Compiles {@code kernel}, whose free variables have the types {@code scope} gives, or throws
   * {@link UnsupportedKernelException} naming the construct this executor cannot run.
   */
  PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope);

  /**
   * How many kernels this executor found compiled in its disk kernel cache so far; 0 for an
   * executor without one.
   */
  default long kernelCacheHits() {
    return 0;
  }
}
