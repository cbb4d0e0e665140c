package dev.l0.syntax;

/**
 * A name as an error message writes it after an indefinite article, "a" or "an" by how the name is
 * read aloud: "an" before a vowel letter ({@code an i32}, {@code an int[]}, {@code an Integer}) and
 * before a letter read by its name that starts with a vowel sound when a digit follows, as in L0's
 * type names ({@code an f64}, "eff sixty-four"); otherwise "a" ({@code a bool}, {@code a
 * double[]}). Names whose first vowel is read as a consonant ("unique") are not told apart.
 */
public final class Article {
  /** Letters whose names start with a vowel sound: eff, aitch, el, em, en, ar, ess, ex. */
  private static final String LETTERS_READ_WITH_A_VOWEL = "fhlmnrsx";

  private Article() {}

  /** {@code name} after its indefinite article, e.g. {@code "an f64"}. */
  public static String before(String name) {
    return (takesAn(name) ? "an " : "a ") + name;
  }

  private static boolean takesAn(String name) {
    if (name.isEmpty()) {
      return false;
    }
    char first = Character.toLowerCase(name.charAt(0));
    if ("aeiou".indexOf(first) >= 0) {
      return true;
    }
    return LETTERS_READ_WITH_A_VOWEL.indexOf(first) >= 0
        && name.length() > 1
        && Character.isDigit(name.charAt(1));
  }
}
