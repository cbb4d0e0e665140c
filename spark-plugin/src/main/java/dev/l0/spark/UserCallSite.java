package dev.l0.spark;

import java.util.Set;

/**
 * The user's line that called into this integration: the caller of {@link L0}'s factory methods,
 * i.e. the first stack frame outside {@link L0} and this class. Planning errors name it, so a bad
 * pipeline is reported where the user built it (also where the user's jar bundles this one).
 */
final class UserCallSite {
  private static final StackWalker WALKER =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  private static final Set<Class<?>> ENTRY_CLASSES = Set.of(L0.class, UserCallSite.class);

  private UserCallSite() {}

  /**
   * {@code File.java:42} of the calling user frame, or {@code "unknown call site"} where there is
   * none.
   */
  static String current() {
    return WALKER.walk(
        frames ->
            frames
                .filter(frame -> !ENTRY_CLASSES.contains(frame.getDeclaringClass()))
                .findFirst()
                .map(
                    frame ->
                        (frame.getFileName() != null ? frame.getFileName() : frame.getClassName())
                            + ":"
                            + frame.getLineNumber())
                .orElse("unknown call site"));
  }
}
