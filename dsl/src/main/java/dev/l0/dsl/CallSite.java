package dev.l0.dsl;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.Arrays;
import java.util.List;

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

  /**
   * Throws at the user's line where an argument of the DSL method {@code call} is null, or an array
   * or list argument holds a null: Java lets a null through where the DSL needs a value, a type or
   * a function. {@code call} is the method's signature, such as {@code "map(xs, f)"}, naming {@code
   * args} in order.
   */
  static void nonNull(String call, Object... args) {
    String[] names = call.substring(call.indexOf('(') + 1, call.length() - 1).split(", ");
    for (int i = 0; i < args.length; i++) {
      List<?> elements =
          args[i] instanceof Object[] array
              ? Arrays.asList(array)
              : args[i] instanceof List<?> list ? list : List.of();
      if (args[i] == null) {
        throw error(call + ": " + names[i] + " is null");
      }
      for (int k = 0; k < elements.size(); k++) {
        if (elements.get(k) == null) {
          throw error(call + ": " + names[i] + " has a null at " + k);
        }
      }
    }
  }

  /** A compile error the DSL detects itself, reported at the user's line. */
  static L0CompileError error(String detail) {
    return new L0CompileError(current(), detail);
  }
}
