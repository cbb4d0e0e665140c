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
    static OptionRecord parse(String line, String file, int lineNumber) {
      String[] f = line.trim().split("\\s+");
      if (f.length != 9 || !(f[6].equals("C") || f[6].equals("P"))) {
        throw new ValueFormatError(
            new SourcePos(file, lineNumber, 1),
            "expected 'spot strike rate divq vol years C|P divs reference', found '"
                + line.trim()
                + "'");
      }
      try {
        return new OptionRecord(
            Double.parseDouble(f[0]),
            Double.parseDouble(f[1]),
            Double.parseDouble(f[2]),
            Double.parseDouble(f[4]),
            Double.parseDouble(f[5]),
            f[6].equals("C"),
            Double.parseDouble(f[8]));
      } catch (NumberFormatException e) {
        throw new ValueFormatError(
            new SourcePos(file, lineNumber, 1), "not a number in '" + line.trim() + "'");
      }
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
      if (!line.isBlank() && !line.startsWith("#")) {
        options.add(OptionRecord.parse(line, file, i + 1));
      }
    }
    if (options.isEmpty()) {
      throw new ValueFormatError(new SourcePos(file, 0, 0), "no option records");
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
