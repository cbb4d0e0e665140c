package dev.l0.dsl.usage;

import dev.l0.ir.SourcePos;

/** Positions of lines of a test's own Java source, as the DSL records them. */
final class JavaLine {
  private JavaLine() {}

  /** The position of the line after the caller's: where the next statement stages. */
  static SourcePos next() {
    StackWalker.StackFrame caller =
        StackWalker.getInstance().walk(frames -> frames.skip(1).findFirst()).orElseThrow();
    return new SourcePos(caller.getFileName(), caller.getLineNumber() + 1, 0);
  }
}
