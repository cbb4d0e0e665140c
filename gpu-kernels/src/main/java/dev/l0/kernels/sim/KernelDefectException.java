package dev.l0.kernels.sim;

/**
 * A simulated kernel group has defects (races, out-of-bounds accesses, divergent barriers): a bug
 * in the kernels, not in the program.
 */
public final class KernelDefectException extends RuntimeException {
  private final SimulationReport report;

  public KernelDefectException(String group, SimulationReport report) {
    super(group + ":\n" + report.describe());
    this.report = report;
  }

  public SimulationReport report() {
    return report;
  }
}
