package dev.l0.kernels.runtime;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One-line descriptions of failures for log lines and reasons. JCuda's native-library errors span
 * dozens of lines; the line that matters names the shared object that did not load.
 */
public final class FailureMessages {
  private static final Pattern MISSING_LIBRARY =
      Pattern.compile("([^\\s:/]+\\.so[.0-9]*): cannot open shared object file");

  private FailureMessages() {}

  /** The failure's class and the first line of its message. */
  public static String oneLine(Throwable failure) {
    String message = String.valueOf(failure.getMessage()).strip();
    int end = message.indexOf('\n');
    return failure.getClass().getSimpleName()
        + ": "
        + (end < 0 ? message : message.substring(0, end).strip());
  }

  /**
   * A native library's load failure as {@code UnsatisfiedLinkError: libcuda.so.1: cannot open
   * shared object file}, naming the missing library wherever in the chain of causes it appears;
   * else {@link #oneLine}.
   */
  static String libraryLoadFailure(LinkageError failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      Matcher missing = MISSING_LIBRARY.matcher(String.valueOf(cause.getMessage()));
      if (missing.find()) {
        return failure.getClass().getSimpleName()
            + ": "
            + missing.group(1)
            + ": cannot open shared object file";
      }
    }
    return oneLine(failure);
  }
}
