package dev.l0.ir;

/**
 * Where a construct was written: a 1-based line and column in a named source (a file path, or
 * the Java call site for programs built with the DSL). {@link #NONE} marks generated code.
 */
public record SourcePos(String source, int line, int column) {
  public static final SourcePos NONE = new SourcePos("<generated>", 0, 0);

  @Override
  public String toString() {
    return source + ":" + line + ":" + column;
  }
}
