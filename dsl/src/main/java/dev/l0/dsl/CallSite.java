package dev.l0.dsl;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;

/**
 * The user's Java line that called into the DSL: the first stack frame whose class is not in this
 * package. Every node the DSL builds carries it, so that the type checker reports an error in a DSL
 * program at the line that wrote it.
 */
final class CallSite {
  private static final StackWalker WALKER =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  private static final String DSL_PACKAGE = CallSite.class.getPackageName();

  private CallSite() {}

  /** {@code SourcePos(javaFileName, line, 0)} of the user's calling frame. */
  static SourcePos current() {
    return WALKER.walk(
        frames ->
            frames
                .filter(frame -> !frame.getDeclaringClass().getPackageName().equals(DSL_PACKAGE))
                .findFirst()
                .map(
                    frame ->
                        new SourcePos(
                            frame.getFileName() != null
                                ? frame.getFileName()
                                : frame.getClassName(),
                            frame.getLineNumber(),
                            0))
                .orElse(SourcePos.NONE));
  }

  /** A compile error the DSL detects itself, reported at the user's line. */
  static L0CompileError error(String detail) {
    return new L0CompileError(current(), detail);
  }
}
