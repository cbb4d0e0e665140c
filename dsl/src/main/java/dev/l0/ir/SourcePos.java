package dev.l0.ir;

import java.io.Serializable;

/**
 * Where a construct was written: a 1-based line and column in a named source (a file path, or the
 * Java call site for programs built with the DSL, which has a line but no column: column 0). {@link
 * #NONE} marks generated code. Serializable, so that the errors that carry one ({@link
 * L0RuntimeError}, {@link L0CompileError}, ...) reach a Spark driver from the task that raised
 * them.
 */
public record SourcePos(String source, int line, int column) implements Serializable {
  public static final SourcePos NONE = new SourcePos("<generated>", 0, 0);

  @Override
  public String toString() {
    if (line <= 0) {
      return source;
    }
    return column <= 0 ? source + ":" + line : source + ":" + line + ":" + column;
  }
}
