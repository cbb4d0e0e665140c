package dev.l0.cli;

import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.kernels.sim.SimulatorExecutor;

/**
 * The {@code --device} choice of {@code l0 run}: {@code jvm} (the JVM backend), {@code sim} (the
 * SIMT simulator, block size {@value #SIMULATOR_BLOCK_SIZE}), {@code auto} (CUDA where it works,
 * else the JVM) or {@code cuda}. CUDA kernel launches are not wired into the command line yet, so
 * {@code auto} runs on the JVM and says why, and {@code cuda} is refused with the reason.
 */
final class Devices {
  static final int SIMULATOR_BLOCK_SIZE = 32;
  static final String CUDA_NOT_WIRED = "kernel launches on CUDA are not wired into the command line yet";

  /** An executor and the line that reports it, e.g. {@code jvm: no CUDA driver (...)}. */
  record Choice(KernelExecutor executor, String report) {}

  private Devices() {}

  static Choice choose(String requested) {
    if (requested.equals("sim")) {
      return new Choice(new SimulatorExecutor(SIMULATOR_BLOCK_SIZE), "sim: SIMT simulator, blocks of " + SIMULATOR_BLOCK_SIZE + " threads");
    }
    DeviceKind kind;
    try {
      kind = DeviceKind.parse(requested);
    } catch (IllegalArgumentException e) {
      throw new CliArgs.UsageError(e.getMessage() + ", sim");
    }
    DeviceSelection selection;
    try {
      selection = DeviceSelector.select(kind);
    } catch (CudaUnavailableException e) {
      throw new CliArgs.UsageError("--device cuda: " + e.getMessage() + "; use --device jvm or sim");
    }
    if (selection.chosen() == DeviceKind.CUDA) {
      if (kind == DeviceKind.CUDA) {
        throw new CliArgs.UsageError("--device cuda: " + CUDA_NOT_WIRED + " (" + selection.report() + "); use --device jvm or sim");
      }
      return new Choice(new JvmKernelExecutor(), "jvm: " + CUDA_NOT_WIRED + " (" + selection.report() + ")");
    }
    return new Choice(new JvmKernelExecutor(), selection.report());
  }
}
