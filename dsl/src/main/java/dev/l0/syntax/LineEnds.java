package dev.l0.syntax;

/**
 * Where lines end in program text and value text: at a line feed, a carriage return and line feed,
 * or a carriage return alone (old Mac files), so that a {@code //} comment ends with its line and
 * positions count lines whatever the line ends.
 */
public final class LineEnds {
  private LineEnds() {}

  /** Whether the character at {@code i} is the last one of a line end. */
  public static boolean endsLine(String text, int i) {
    char c = text.charAt(i);
    return c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n');
  }

  /** Whether a line end begins at {@code i}. */
  public static boolean startsLineEnd(String text, int i) {
    char c = text.charAt(i);
    return c == '\n' || c == '\r';
  }
}
