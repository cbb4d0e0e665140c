package dev.l0.dsl;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;

/**
 * The user's Java line that called into the DSL: the first stack frame whose class is neither in
 * this package nor the Java platform's own (a DSL method passed as a method reference to a stream,
 * say {@code Stream.of(a, b).reduce(I32::div)}, is called by the JDK's code, and the user's line is
 * the one around that call). Every node the DSL builds carries it, so that the type checker reports
 * an error in a DSL program at the line that wrote it.
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
                .filter(frame -> isUserCode(frame.getDeclaringClass()))
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

  private static boolean isUserCode(Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    return !type.getPackageName().equals(DSL_PACKAGE)
        && loader != null
        && loader != ClassLoader.getPlatformClassLoader();
  }

  /** A compile error the DSL detects itself, reported at the user's line. */
  static L0CompileError error(String detail) {
    return new L0CompileError(current(), detail);
  }
}
