package dev.l0.kernels.sim;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.kernels.ir.KernelError;
import java.util.Map;
import java.util.Optional;

/**
 * What a simulated run of a kernel group gave: its outputs by program variable (empty when a launch
 * raised a run-time error or an issue stopped the run), the error raised and the values its raise
 * recorded, and the issues found.
 */
public record SimulationResult(
    Map<String, Value> outputs,
    Optional<KernelError> error,
    long[] errorValues,
    SimulationReport report) {
  public SimulationResult {
    outputs = Map.copyOf(outputs);
  }

  /** A result without error values. */
  public SimulationResult(
      Map<String, Value> outputs, Optional<KernelError> error, SimulationReport report) {
    this(outputs, error, new long[0], report);
  }

  /** The program's error the run raised, its values filled in. */
  public Optional<L0RuntimeError> runtimeError() {
    return error.map(e -> e.toRuntimeError(errorValues));
  }
}
