package dev.l0.kernels.lower;

import dev.l0.ir.SourcePos;

/**
 * The lowering cannot turn a kernel-plan entry into kernels; the message names the construct and,
 * once the lowering knows it, the source position of the code it was lowering (the nearest
 * expression that has one). The host runner turns it into the program's compile error: no kernel
 * runs on the optimiser's evaluator instead.
 */
public final class UnsupportedKernelException extends RuntimeException {
  private final String construct;
  private final SourcePos pos;

  public UnsupportedKernelException(String construct) {
    this(construct, SourcePos.NONE);
  }

  public UnsupportedKernelException(String construct, SourcePos pos) {
    super(
        "cannot lower to kernels: "
            + construct
            + (pos.equals(SourcePos.NONE) ? "" : " (at " + pos + ")"));
    this.construct = construct;
    this.pos = pos;
  }

  /** This rejection with source position {@code near} where it has none yet. */
  public UnsupportedKernelException near(SourcePos near) {
    return pos.equals(SourcePos.NONE) && !near.equals(SourcePos.NONE)
        ? new UnsupportedKernelException(construct, near)
        : this;
  }

  /** What the lowering could not lower, without the position. */
  public String construct() {
    return construct;
  }

  /** Where the rejected code is, or {@link SourcePos#NONE} where no position is known. */
  public SourcePos pos() {
    return pos;
  }
}
