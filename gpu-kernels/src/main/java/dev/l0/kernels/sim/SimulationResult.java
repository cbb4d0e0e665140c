package dev.l0.kernels.sim;

import dev.l0.ir.Value;
import dev.l0.kernels.ir.KernelError;
import java.util.Map;
import java.util.Optional;

/**
 * What a simulated run of a kernel group gave: its outputs by program variable (empty when a launch
 * raised a run-time error or an issue stopped the run), the error raised, and the issues found.
 */
public record SimulationResult(
    Map<String, Value> outputs, Optional<KernelError> error, SimulationReport report) {
  public SimulationResult {
    outputs = Map.copyOf(outputs);
  }
}
