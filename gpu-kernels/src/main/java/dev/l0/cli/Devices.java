package dev.l0.cli;

import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.kernels.sim.SimulatorExecutor;

/**
 * The {@code --device} choice of {@code l0 run}: {@code jvm} (the JVM backend), {@code sim} (the
 * SIMT simulator, block size {@value #SIMULATOR_BLOCK_SIZE}), {@code auto} (CUDA where a driver, a
 * GPU and a PTX compiler work, else the JVM, saying why) or {@code cuda} (refused with the reason
 * where CUDA cannot work). The choice itself is {@link L0Runtime#executorFor}'s, as for the API.
 */
final class Devices {
  static final int SIMULATOR_BLOCK_SIZE = 32;

  /** An executor and the line that reports it, e.g. {@code jvm: no CUDA driver (...)}. */
  record Choice(KernelExecutor executor, String report) {}

  private Devices() {}

  static Choice choose(String requested) {
    if (requested.equals("sim")) {
      return new Choice(
          new SimulatorExecutor(SIMULATOR_BLOCK_SIZE),
          "sim: SIMT simulator, blocks of " + SIMULATOR_BLOCK_SIZE + " threads");
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
      throw new CliArgs.UsageError(
          "--device cuda: " + e.getMessage() + "; use --device jvm or sim");
    }
    return new Choice(L0Runtime.executorFor(selection), selection.report());
  }
}
