package dev.l0.semantics;

/**
 * The wording of the run-time failures whose message names values (an index and its dimension's
 * size, a split point, a size): templates whose {@code {k}} is the k-th value. The interpreter
 * fills them in as it fails; a kernel thread that fails records the values and the host fills them
 * in, so every evaluator and device reports the same message.
 */
public final class FailureDetails {
  /** Values: the index, its dimension (0 the outermost), the dimension's size. */
  public static final String INDEX = "index {0} out of bounds for dimension {1} of size {2}";

  /**
   * Several indices of which one is out of bounds; values: each index and its dimension's size in
   * turn. It reads as {@link #INDEX} of the first index outside its dimension.
   */
  public static final String INDICES = "index {0...} out of bounds";

  /** {@link #INDEX} of dimension {@code dimension}; values: the index, the dimension's size. */
  public static String index(int dimension) {
    return "index {0} out of bounds for dimension " + dimension + " of size {1}";
  }

  /** Values: the size. */
  public static final String NEGATIVE_SIZE = "negative size {0}";

  /** Values: the split point, the array's outer size. */
  public static final String SPLIT = "split point {0} outside 0..{1} (the outer size of the array)";

  /** Values: the argument's number (from 1), its outer size, the first argument's outer size. */
  public static final String ZIP =
      "argument {0} has outer size {1} but argument 1 has outer size {2}";

  /** Values: the negative size. */
  public static final String NEGATIVE_NEW_SIZE = "negative size {0} in the new shape";

  /** Values: the negative exponent of an integer {@code pow}. */
  public static final String NEGATIVE_EXPONENT = "negative exponent {0} for an integer power";

  private FailureDetails() {}

  /**
   * A reshape of an array of {@code rank} dimensions into {@code newRank}; values: the array's
   * sizes, its element count, the new sizes, their product.
   */
  public static String reshape(int rank, int newRank) {
    StringBuilder text = new StringBuilder("cannot reshape an array of shape ");
    int k = 0;
    for (int d = 0; d < rank; d++) {
      text.append("[{").append(k++).append("}]");
    }
    text.append(" ({").append(k++).append("} elements) into shape (");
    for (int d = 0; d < newRank; d++) {
      text.append(d > 0 ? ", {" : "{").append(k++).append('}');
    }
    return text.append(") ({").append(k).append("} elements)").toString();
  }

  /**
   * Rows of a map of {@code rank} dimensions that differ in shape (arrays are regular, thesis
   * §2.1), as the interpreter's {@code ArrayOperations.regular} words them; values: the row, its
   * sizes, row 0's sizes.
   */
  public static String irregular(int rank) {
    return twoShapes(
        "irregular array: element {0} has shape ", " but element 0 has shape ", 1, rank);
  }

  /**
   * {@code concat}'s arrays whose rows, of {@code rowRank} dimensions, differ in shape, as the
   * interpreter's {@code ArrayOperations.concat} words them; values: the first array's row sizes,
   * then the second's.
   */
  public static String concat(int rowRank) {
    return twoShapes(
        "the rows of the first array have shape ",
        " but those of the second have shape ",
        0,
        rowRank);
  }

  /**
   * An in-place update whose value, of {@code rank} dimensions, has another shape than the part it
   * replaces, as the interpreter's {@code ArrayOperations.update} words it; values: the value's
   * sizes, then the part's.
   */
  public static String update(int rank) {
    return twoShapes("the new value has shape ", " but the updated part has shape ", 0, rank);
  }

  /**
   * {@code before}, a shape of {@code rank} sizes from value {@code first} on, {@code between}, and
   * a second shape of the next {@code rank} values: {@code [{1}][{2}] but ... [{3}][{4}]}.
   */
  private static String twoShapes(String before, String between, int first, int rank) {
    StringBuilder text = new StringBuilder(before);
    for (int d = 0; d < 2 * rank; d++) {
      text.append(d == rank ? between : "").append("[{").append(first + d).append("}]");
    }
    return text.append(rank == 0 ? between : "").toString();
  }

  /**
   * The words of {@code template} without its values, for a failure that could not record them
   * (rows run interleaved on the JVM backend): {@code index out of bounds}, {@code arrays of
   * different sizes}, ...; a template that names no value as it is.
   */
  public static String withoutValues(String template) {
    if (template.startsWith("index ")) {
      return "index out of bounds";
    } else if (template.equals(ZIP)) {
      return "arrays of different sizes";
    } else if (template.equals(SPLIT)) {
      return "split point outside the array";
    } else if (template.equals(NEGATIVE_SIZE)) {
      return "negative size";
    } else if (template.equals(NEGATIVE_NEW_SIZE)) {
      return "negative size in the new shape";
    } else if (template.equals(NEGATIVE_EXPONENT)) {
      return "negative exponent for an integer power";
    } else if (template.startsWith("cannot reshape")) {
      return "cannot reshape to that shape";
    } else if (template.startsWith("irregular array")) {
      return "irregular array: rows of different shapes";
    } else if (template.startsWith("the rows of the first array")) {
      return "the rows of the arrays have different shapes";
    } else if (template.startsWith("the new value has shape")) {
      return "the new value's shape differs from the updated part's";
    }
    return template;
  }

  /**
   * {@code template} with each {@code {k}} replaced by {@code values[k]}, for k below its length.
   */
  public static String format(String template, long... values) {
    if (template.equals(INDICES)) {
      for (int k = 0; k + 1 < values.length; k += 2) {
        if (values[k] < 0 || values[k] >= values[k + 1]) {
          return format(index(k / 2), values[k], values[k + 1]);
        }
      }
      return withoutValues(template);
    }
    String out = template;
    for (int k = 0; k < values.length; k++) {
      out = out.replace("{" + k + "}", Long.toString(values[k]));
    }
    return out;
  }
}
