package dev.l0.ir;

/**
 * A program is ill-formed: a syntax error, a type error, a uniqueness violation, an unknown name.
 * The message reads {@code SOURCE:LINE:COL: detail}, as the CLI prints it.
 */
public class L0CompileError extends RuntimeException {
  private final SourcePos pos;
  private final String detail;

  public L0CompileError(SourcePos pos, String detail) {
    super(pos + ": " + detail);
    this.pos = pos;
    this.detail = detail;
  }

  public SourcePos pos() {
    return pos;
  }

  /** The message without the position. */
  public String detail() {
    return detail;
  }
}
