package dev.l0.kernels.exec;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import java.util.function.Supplier;

/**
 * A run's outcome for comparing executors: its value, or the operation, source position and message
 * of its run-time error. The optimiser may word an error differently from the interpreter (it
 * checks sizes earlier, with certificates), so comparisons with the interpreter use {@link
 * #withoutMessage}.
 */
public record RunOutcome(Value value, String failedOperation, SourcePos failedAt, String failure) {
  public static RunOutcome of(Supplier<Value> run) {
    try {
      return new RunOutcome(run.get(), null, null, null);
    } catch (L0RuntimeError e) {
      return new RunOutcome(null, e.operation(), e.pos(), e.getMessage());
    }
  }

  /** This outcome with the error's operation and position but not its message. */
  public RunOutcome withoutMessage() {
    return new RunOutcome(value, failedOperation, failedAt, null);
  }
}
