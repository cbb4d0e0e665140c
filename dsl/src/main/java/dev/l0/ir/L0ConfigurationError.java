package dev.l0.ir;

/**
 * A setting of this implementation (a {@code l0.*} system property) has a value it cannot use. The
 * message names the setting, what it must be, and the value given. {@link #intProperty} and {@link
 * #longProperty} read the integer settings this way, so that a mistyped value is reported instead
 * of silently replaced by the default; {@link #booleanProperty} the boolean ones.
 */
public class L0ConfigurationError extends RuntimeException {
  public L0ConfigurationError(String detail) {
    super(detail);
  }

  /**
   * The system property {@code name} as an {@code int} of at least {@code minimum}, or {@code
   * defaultValue} where it is not set; {@code meaning} says in a few words what it sets.
   *
   * @throws L0ConfigurationError where it is set to anything else
   */
  public static int intProperty(String name, int defaultValue, int minimum, String meaning) {
    return intValue(name, System.getProperty(name), defaultValue, minimum, meaning);
  }

  /** {@link #intProperty} for a {@code long}. */
  public static long longProperty(String name, long defaultValue, long minimum, String meaning) {
    return value(name, System.getProperty(name), defaultValue, minimum, Long.MAX_VALUE, meaning);
  }

  /**
   * The system property {@code name} as a boolean ({@code true} or {@code false}, in any case), or
   * {@code defaultValue} where it is not set; {@code meaning} says in a few words what it sets.
   *
   * @throws L0ConfigurationError where it is set to anything else
   */
  public static boolean booleanProperty(String name, boolean defaultValue, String meaning) {
    String value = System.getProperty(name);
    if (value == null) {
      return defaultValue;
    }
    if (value.trim().equalsIgnoreCase("true") || value.trim().equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value.trim());
    }
    throw new L0ConfigurationError(
        "the system property "
            + name
            + " must be true or false ("
            + meaning
            + "), not '"
            + value
            + "'");
  }

  /** {@link #intProperty} for the value {@code value} of the property {@code name}. */
  public static int intValue(
      String name, String value, int defaultValue, int minimum, String meaning) {
    return (int) value(name, value, defaultValue, minimum, Integer.MAX_VALUE, meaning);
  }

  private static long value(
      String name, String value, long defaultValue, long minimum, long maximum, String meaning) {
    if (value == null) {
      return defaultValue;
    }
    boolean tooLarge = false;
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= minimum && parsed <= maximum) {
        return parsed;
      }
      tooLarge = parsed > maximum;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new L0ConfigurationError(
        "the system property "
            + name
            + " must be an integer of at least "
            + minimum
            + (tooLarge ? " and at most " + maximum : "")
            + " ("
            + meaning
            + "), not '"
            + value
            + "'");
  }
}
