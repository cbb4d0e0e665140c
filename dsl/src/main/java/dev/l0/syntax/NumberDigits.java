package dev.l0.syntax;

/**
 * Whether the text of a decimal number stands for a value other than zero, from its digits alone:
 * what tells a number that rounds to 0 in its float type (out of range downwards) from a zero, for
 * a program's literals and for input values alike.
 */
public final class NumberDigits {
  private NumberDigits() {}

  /** Whether the digits of {@code number} before its exponent, if any, are not all zeros. */
  public static boolean nonZero(String number) {
    for (int i = 0; i < number.length(); i++) {
      char c = number.charAt(i);
      if (c == 'e' || c == 'E') {
        return false;
      }
      if (c >= '1' && c <= '9') {
        return true;
      }
    }
    return false;
  }
}
