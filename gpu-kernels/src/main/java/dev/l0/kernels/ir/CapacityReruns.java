package dev.l0.kernels.ir;

import dev.l0.ir.L0ResourceError;
import java.util.function.LongFunction;

/**
 * How a host runs a kernel group whose threads grow arrays without a bound the host can compute
 * before the launch (a loop inside a kernel thread that concatenates to its array accumulator rows
 * whose number depends on the data): such an array gets a per-thread capacity that grows with
 * {@link KernelGroup#CAPACITY_SCALE}; a thread whose array would outgrow it raises a {@link
 * KernelError#capacityOverflow} instead of writing past it, and the host reruns the whole group
 * with {@value #GROWTH} times the scale, at most {@value #MOST_RERUNS} times. Past that the run
 * fails with an {@link L0ResourceError} naming the construct and its source position.
 */
public final class CapacityReruns {
  /** The rows a growing array's first capacity has beyond its initial rows, at scale 1. */
  public static final long FIRST_ROWS = 64;

  /** The factor by which each rerun multiplies the scale. */
  public static final long GROWTH = 4;

  /** The most reruns: the last capacity is {@code 4^8 = 65536} times the first. */
  public static final int MOST_RERUNS = 8;

  private CapacityReruns() {}

  /** Thrown by an attempt whose launch raised {@code error}, a capacity overflow. */
  public static final class Overflow extends RuntimeException {
    private final transient KernelError error;

    public Overflow(KernelError error) {
      super(error.operation() + ": " + error.detail(), null, false, false);
      this.error = error;
    }
  }

  /**
   * What a launch that raised {@code error} throws: {@link Overflow} for a capacity overflow, else
   * the program's error.
   */
  public static RuntimeException failure(KernelError error, long[] values) {
    return error.capacityOverflow() ? new Overflow(error) : error.toRuntimeError(values);
  }

  /**
   * {@code attempt} at scale 1, then, while it throws {@link Overflow}, at {@value #GROWTH} times
   * the scale, at most {@value #MOST_RERUNS} reruns.
   */
  public static <T> T run(LongFunction<T> attempt) {
    long scale = 1;
    for (int rerun = 0; ; rerun++) {
      try {
        return attempt.apply(scale);
      } catch (Overflow overflow) {
        if (rerun == MOST_RERUNS) {
          KernelError error = overflow.error;
          throw new L0ResourceError(
              error.pos(),
              error.operation()
                  + ": "
                  + error.detail()
                  + ", also at "
                  + scale
                  + " times its first capacity ("
                  + MOST_RERUNS
                  + " reruns with "
                  + GROWTH
                  + " times the capacity each, the limit of growing arrays inside kernels)",
              false);
        }
        scale *= GROWTH;
      }
    }
  }
}
