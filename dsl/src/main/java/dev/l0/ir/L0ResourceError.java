package dev.l0.ir;

/**
 * A well-typed program needs more than this implementation can give it: an array with more elements
 * than the JVM can hold or than the heap has room for, or more work than the SIMT simulator's
 * limits. Raised before the allocation or the work, not after. The message says which limit, the
 * sizes involved, the source position where known, and how to raise the limit if it can be.
 */
public class L0ResourceError extends RuntimeException {
  private final SourcePos pos;
  private final boolean moreHeapHelps;

  /**
   * {@code moreHeapHelps}: whether a larger maximum heap ({@code -Xmx}) lifts the limit reached.
   */
  public L0ResourceError(SourcePos pos, String detail, boolean moreHeapHelps) {
    super(pos == SourcePos.NONE ? detail : pos + ": " + detail);
    this.pos = pos;
    this.moreHeapHelps = moreHeapHelps;
  }

  public SourcePos pos() {
    return pos;
  }

  /** Whether a larger maximum heap ({@code -Xmx}) lifts the limit this error reached. */
  public boolean moreHeapHelps() {
    return moreHeapHelps;
  }
}
