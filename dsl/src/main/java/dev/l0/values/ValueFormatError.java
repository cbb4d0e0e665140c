package dev.l0.values;

import dev.l0.ir.SourcePos;

/**
 * Input text is not a value of the expected type; the message reads {@code SOURCE:LINE:COL:
 * detail}.
 */
public class ValueFormatError extends RuntimeException {
  private final SourcePos pos;
  private final String detail;

  public ValueFormatError(SourcePos pos, String detail) {
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
