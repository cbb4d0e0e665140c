package dev.l0.ir;

/**
 * A well-typed program needs more than this implementation can give it: an array with more elements
 * than the JVM can hold or than the heap has room for, more work than the SIMT simulator's limits,
 * or recursion deeper than the stack. Raised before the allocation or the work, not after. The
 * message says which limit, the sizes involved, the source position where known, and how to raise
 * the limit if it can be.
 */
public class L0ResourceError extends RuntimeException {
  /** The start of the message of {@link #recursionTooDeep}. */
  private static final String RECURSION_TOO_DEEP = "call: recursion too deep for the ";

  private final SourcePos pos;
  private final boolean moreHeapHelps;

  /**
   * Recursion deeper than the stack of {@code stack} (the interpreter's, the evaluator's) allows,
   * at the function called, {@code pos} ({@link SourcePos#NONE} until the caller knows it).
   */
  public static L0ResourceError recursionTooDeep(SourcePos pos, String stack) {
    return new L0ResourceError(pos, RECURSION_TOO_DEEP + stack + "'s stack", false);
  }

  /** Whether this is a {@link #recursionTooDeep} error that has no position yet. */
  public boolean isRecursionTooDeepWithoutPosition() {
    return pos == SourcePos.NONE && getMessage().startsWith(RECURSION_TOO_DEEP);
  }

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
