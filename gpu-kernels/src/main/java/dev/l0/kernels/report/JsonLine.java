package dev.l0.kernels.report;

/** Builds one flat JSON object on one line, for the results of device checks and benchmarks. */
public final class JsonLine {
  private final StringBuilder text = new StringBuilder("{");

  public JsonLine add(String name, String value) {
    return field(name, quote(value));
  }

  public JsonLine add(String name, long value) {
    return field(name, Long.toString(value));
  }

  public JsonLine add(String name, double value) {
    return field(name, number(value));
  }

  /** An array of numbers; a non-finite element is written as JSON {@code null}. */
  public JsonLine add(String name, double[] values) {
    StringBuilder array = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      array.append(i == 0 ? "" : ", ").append(number(values[i]));
    }
    return field(name, array.append(']').toString());
  }

  public JsonLine add(String name, boolean value) {
    return field(name, Boolean.toString(value));
  }

  public String text() {
    return text + "}";
  }

  private JsonLine field(String name, String json) {
    if (text.length() > 1) {
      text.append(", ");
    }
    text.append(quote(name)).append(": ").append(json);
    return this;
  }

  /** JSON has no NaN or infinities: those are written {@code null}. */
  private static String number(double value) {
    return Double.isFinite(value) ? Double.toString(value) : "null";
  }

  private static String quote(String value) {
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      if (c == '"' || c == '\\') {
        quoted.append('\\').append(c);
      } else if (c < 0x20) {
        quoted.append(String.format("\\u%04x", (int) c));
      } else {
        quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }
}
