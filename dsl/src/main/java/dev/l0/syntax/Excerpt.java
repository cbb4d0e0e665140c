package dev.l0.syntax;

/**
 * A piece of the user's text (a token, a literal) as an error message quotes it: whole when short,
 * else its first {@value #MAX_CHARS} characters and its length, so that a huge bad token in a
 * program or an input does not flood the terminal.
 */
public final class Excerpt {
  /** The most characters of one piece of text an error message repeats. */
  public static final int MAX_CHARS = 60;

  private Excerpt() {}

  public static String of(String text) {
    if (text.length() <= MAX_CHARS) {
      return text;
    }
    int cut = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
    return text.substring(0, cut) + "... (" + text.length() + " characters)";
  }
}
