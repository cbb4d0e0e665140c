package dev.l0.cli;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PARSEC Black-Scholes reference options (by default the copy shipped as {@value
 * #DEFAULT_OPTIONS}), the thesis's P0 that prices them ({@value #PROGRAM_RESOURCE}), and the report
 * that compares prices with the DerivaGem reference values within PARSEC's tolerance of {@value
 * #TOLERANCE}. Shared by {@code l0 demo} and the Spark job {@code
 * dev.l0.jobs.BlackScholesSparkJob}, so both read the same records and print the same lines.
 */
public final class BlackScholesReference {
  public static final String PROGRAM_RESOURCE = "/programs/p0_blackscholes.l0";
  public static final String DEFAULT_OPTIONS = "/data/blackscholes/parsec_derivagem_ref.txt";
  public static final String ENTRY = "blackscholes";
  public static final double TOLERANCE = 1e-4;

  /** The fields of an option record, in order (the type field is {@code C} or {@code P}). */
  private static final List<String> FIELD_NAMES =
      List.of("spot", "strike", "rate", "divq", "volatility", "years", "C|P", "divs", "reference");

  private static final int TYPE_FIELD = 6;
  private static final Pattern FIELD = Pattern.compile("\\S+");

  /** A decimal number: digits with an optional sign, point and exponent; no NaN, hex or suffix. */
  private static final Pattern DECIMAL =
      Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

  private BlackScholesReference() {}

  /** One option record: spot strike rate divq volatility years type(C|P) divs reference. */
  public record OptionRecord(
      double spot,
      double strike,
      double rate,
      double volatility,
      double years,
      boolean call,
      double reference) {
    /**
     * The record on {@code line} (line {@code lineNumber} of {@code file}); a wrong number of
     * fields, a type other than C or P, or a field that is not a decimal number is bad input at the
     * line and column of the field (of the line's end for a missing one), named.
     */
    static OptionRecord parse(String line, String file, int lineNumber) {
      List<Integer> columns = new ArrayList<>();
      List<String> fields = new ArrayList<>();
      Matcher m = FIELD.matcher(line);
      while (m.find()) {
        columns.add(m.start() + 1);
        fields.add(m.group());
      }
      if (fields.size() != FIELD_NAMES.size()) {
        int column =
            fields.size() > FIELD_NAMES.size()
                ? columns.get(FIELD_NAMES.size())
                : line.stripTrailing().length() + 1;
        throw new ValueFormatError(
            new SourcePos(file, lineNumber, column),
            "expected "
                + FIELD_NAMES.size()
                + " fields ("
                + String.join(" ", FIELD_NAMES)
                + "), found "
                + fields.size());
      }
      String type = fields.get(TYPE_FIELD);
      if (!type.equals("C") && !type.equals("P")) {
        throw new ValueFormatError(
            new SourcePos(file, lineNumber, columns.get(TYPE_FIELD)),
            "type: expected C or P, found '" + type + "'");
      }
      double[] v = new double[fields.size()];
      for (int i = 0; i < fields.size(); i++) {
        if (i == TYPE_FIELD) {
          continue;
        }
        if (!DECIMAL.matcher(fields.get(i)).matches()) {
          throw new ValueFormatError(
              new SourcePos(file, lineNumber, columns.get(i)),
              FIELD_NAMES.get(i) + ": not a decimal number: '" + fields.get(i) + "'");
        }
        v[i] = Double.parseDouble(fields.get(i));
      }
      return new OptionRecord(v[0], v[1], v[2], v[4], v[5], type.equals("C"), v[8]);
    }

    /** The P0 element {call, price, strike, years, r, v}. */
    public Value toL0() {
      return new Value.Tuple(
          List.of(
              ScalarValue.bool(call),
              ScalarValue.f64(spot),
              ScalarValue.f64(strike),
              ScalarValue.f64(years),
              ScalarValue.f64(rate),
              ScalarValue.f64(volatility)));
    }
  }

  /** The type of P0's option element, {bool, f64, f64, f64, f64, f64}. */
  public static Type optionType() {
    return Type.tuple(
        ScalarType.BOOL,
        ScalarType.F64,
        ScalarType.F64,
        ScalarType.F64,
        ScalarType.F64,
        ScalarType.F64);
  }

  /**
   * The option records of a file's text; blank lines and '#' comments are skipped; errors name
   * file:line.
   */
  public static List<OptionRecord> parseOptions(String text, String file) {
    List<String> lines = text.lines().toList();
    List<OptionRecord> options = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.isBlank() && !line.strip().startsWith("#")) {
        options.add(OptionRecord.parse(line, file, i + 1));
      }
    }
    if (options.isEmpty()) {
      throw new ValueFormatError(new SourcePos(file, 1, 1), "no option records");
    }
    return options;
  }

  /** The shipped reference options, {@value #DEFAULT_OPTIONS}. */
  public static List<OptionRecord> referenceOptions() throws IOException {
    return parseOptions(resourceText(DEFAULT_OPTIONS), DEFAULT_OPTIONS);
  }

  /** The text of P0, {@value #PROGRAM_RESOURCE}. */
  public static String programText() throws IOException {
    return resourceText(PROGRAM_RESOURCE);
  }

  /**
   * Prints the table (one line per option: its fields, the price, the reference and |diff|) and the
   * verdict line {@code options: N, max |price - reference|: D, tolerance 1e-04: PASS|FAIL};
   * returns whether every price is within {@link #TOLERANCE} (a NaN price fails).
   */
  public static boolean printReport(List<OptionRecord> options, double[] prices, PrintStream out) {
    if (prices.length != options.size()) {
      throw new IllegalArgumentException(
          prices.length + " prices for " + options.size() + " options");
    }
    out.printf(
        "%8s %8s %6s %5s %6s %4s %14s %14s %10s%n",
        "spot", "strike", "rate", "vol", "years", "type", "L0 price", "reference", "|diff|");
    double maxDiff = 0;
    for (int i = 0; i < options.size(); i++) {
      OptionRecord o = options.get(i);
      double diff = Math.abs(prices[i] - o.reference());
      maxDiff = Math.max(maxDiff, Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff);
      out.printf(
          "%8.2f %8.2f %6.4f %5.2f %6.4f %4s %14.8f %14.8f %10.2e%n",
          o.spot(),
          o.strike(),
          o.rate(),
          o.volatility(),
          o.years(),
          o.call() ? "C" : "P",
          prices[i],
          o.reference(),
          diff);
    }
    boolean pass = maxDiff <= TOLERANCE;
    out.printf(
        "options: %d, max |price - reference|: %.3e, tolerance %.0e: %s%n",
        options.size(), maxDiff, TOLERANCE, pass ? "PASS" : "FAIL");
    return pass;
  }

  private static String resourceText(String resource) throws IOException {
    try (InputStream s = BlackScholesReference.class.getResourceAsStream(resource)) {
      if (s == null) {
        throw new IllegalStateException(resource + " is missing from the classpath");
      }
      return new String(s.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
