package dev.l0.kernels.sim;

import java.util.List;
import java.util.stream.Collectors;

/** The defects a simulation found, in the order found; a clean report has none. */
public record SimulationReport(List<SimulationIssue> issues) {
  public SimulationReport {
    issues = List.copyOf(issues);
  }

  public boolean isClean() {
    return issues.isEmpty();
  }

  /** The issues of kind {@code kind}. */
  public <T extends SimulationIssue> List<T> issuesOf(Class<T> kind) {
    return issues.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  /** One line per issue, or "no issues". */
  public String describe() {
    return isClean()
        ? "no issues"
        : issues.stream().map(SimulationIssue::describe).collect(Collectors.joining("\n"));
  }
}
