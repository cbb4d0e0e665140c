package dev.l0.kernels.ir;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.SourcePos;
import dev.l0.semantics.FailureDetails;

/**
 * A run-time failure a kernel can raise: the {@code L0RuntimeError} the host throws for it. A
 * {@code capacityOverflow} is no failure of the program: a thread's growing array outgrew the
 * per-thread capacity of the launch ({@link KernelGroup#CAPACITY_SCALE}), and the host reruns the
 * group with a larger one ({@link CapacityReruns}).
 */
public record KernelError(
    String operation, SourcePos pos, String detail, boolean capacityOverflow) {

  /** A failure of the program itself. */
  public KernelError(String operation, SourcePos pos, String detail) {
    this(operation, pos, detail, false);
  }

  /**
   * The error with the values its raise recorded filled into {@code detail} ({@code
   * FailureDetails.format}); without them (a raise that records none, as rows run interleaved do)
   * in {@code detail}'s words without values.
   */
  public L0RuntimeError toRuntimeError(long[] values) {
    return new L0RuntimeError(
        operation,
        pos,
        values.length == 0
            ? FailureDetails.withoutValues(detail)
            : FailureDetails.format(detail, values));
  }
}
