package dev.l0.ir;

/**
 * A well-typed program failed while running: index out of bounds, zip/reshape/concat size mismatch,
 * integer division by zero, a bad {@code iota}/{@code replicate}/{@code split} size. The only
 * exception any executor of L0 raises for a program's own failure. The message names the operation,
 * the sizes involved and the source position.
 */
public class L0RuntimeError extends RuntimeException {
  private final String operation;
  private final SourcePos pos;
  private final String detail;

  public L0RuntimeError(String operation, SourcePos pos, String detail) {
    super(pos + ": " + operation + ": " + detail);
    this.operation = operation;
    this.pos = pos;
    this.detail = detail;
  }

  /** The message without the position and the operation. */
  public String detail() {
    return detail;
  }

  /** The failing operation, e.g. {@code "index"}, {@code "zip"}, {@code "reshape"}, {@code "/"}. */
  public String operation() {
    return operation;
  }

  public SourcePos pos() {
    return pos;
  }
}
