package dev.l0.cli;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code l0 demo [--options FILE]}: prices the PARSEC Black-Scholes reference options (by default
 * the copy shipped as {@code /data/blackscholes/parsec_derivagem_ref.txt}) with the thesis's P0
 * ({@code /programs/p0_blackscholes.l0}), optimised, and compares each price with the DerivaGem
 * reference value; fails (exit 1) if any differs by more than PARSEC's tolerance of 1e-4.
 */
final class DemoCommand implements Command {
  static final String PROGRAM_RESOURCE = "/programs/p0_blackscholes.l0";
  static final String DEFAULT_OPTIONS = "/data/blackscholes/parsec_derivagem_ref.txt";
  static final double TOLERANCE = 1e-4;

  /** One option record: spot strike rate divq volatility years type(C|P) divs reference. */
  record OptionRecord(double spot, double strike, double rate, double volatility, double years, boolean call, double reference) {
    static OptionRecord parse(String line, String file, int lineNumber) {
      String[] f = line.trim().split("\\s+");
      if (f.length != 9 || !(f[6].equals("C") || f[6].equals("P"))) {
        throw new ValueFormatError(new SourcePos(file, lineNumber, 1),
            "expected 'spot strike rate divq vol years C|P divs reference', found '" + line.trim() + "'");
      }
      try {
        return new OptionRecord(
            Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]),
            Double.parseDouble(f[4]), Double.parseDouble(f[5]), f[6].equals("C"), Double.parseDouble(f[8]));
      } catch (NumberFormatException e) {
        throw new ValueFormatError(new SourcePos(file, lineNumber, 1), "not a number in '" + line.trim() + "'");
      }
    }

    /** The P0 element {call, price, strike, years, r, v}. */
    Value toL0() {
      return new Value.Tuple(
          List.of(ScalarValue.bool(call), ScalarValue.f64(spot), ScalarValue.f64(strike),
              ScalarValue.f64(years), ScalarValue.f64(rate), ScalarValue.f64(volatility)));
    }
  }

  @Override
  public Set<String> options() {
    return Set.of("options");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err) throws IOException {
    if (!args.positional().isEmpty()) {
      throw new CliArgs.UsageError("demo takes no positional arguments");
    }
    Optional<String> file = args.option("options");
    List<OptionRecord> options =
        file.isPresent()
            ? parseOptions(Files.readString(Path.of(file.get()), StandardCharsets.US_ASCII), file.get())
            : parseOptions(resourceText(DEFAULT_OPTIONS), DEFAULT_OPTIONS);
    OptimizedProgram p0 = Optimizer.optimize(TypeChecker.check(L0Parser.parse(resourceText(PROGRAM_RESOURCE), PROGRAM_RESOURCE)));
    Type element = Type.tuple(
        ScalarType.BOOL, ScalarType.F64, ScalarType.F64, ScalarType.F64, ScalarType.F64, ScalarType.F64);
    Value input = new Value.Array(element, options.stream().map(OptionRecord::toL0).toList());
    Value.Array prices = (Value.Array) p0.call("blackscholes", List.of(input));
    out.printf("P0 (%s) optimised into %d kernel(s): %s%n", PROGRAM_RESOURCE, p0.kernelPlan().kernels().size(),
        p0.kernelPlan().kernels().stream().map(KernelPlan.Kernel::structure).toList());

    out.printf("%8s %8s %6s %5s %6s %4s %14s %14s %10s%n",
        "spot", "strike", "rate", "vol", "years", "type", "L0 price", "reference", "|diff|");
    double maxDiff = 0;
    for (int i = 0; i < options.size(); i++) {
      OptionRecord o = options.get(i);
      double price = ((ScalarValue.Float) prices.get(i)).value();
      double diff = Math.abs(price - o.reference());
      maxDiff = Math.max(maxDiff, Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff);
      out.printf("%8.2f %8.2f %6.4f %5.2f %6.4f %4s %14.8f %14.8f %10.2e%n",
          o.spot(), o.strike(), o.rate(), o.volatility(), o.years(), o.call() ? "C" : "P", price, o.reference(), diff);
    }
    boolean pass = maxDiff <= TOLERANCE;
    out.printf("options: %d, max |price - reference|: %.3e, tolerance %.0e: %s%n",
        options.size(), maxDiff, TOLERANCE, pass ? "PASS" : "FAIL");
    return pass ? Main.EXIT_OK : Main.EXIT_PROGRAM_ERROR;
  }

  private static List<OptionRecord> parseOptions(String text, String file) {
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

  private static String resourceText(String resource) throws IOException {
    try (InputStream s = DemoCommand.class.getResourceAsStream(resource)) {
      if (s == null) {
        throw new IllegalStateException(resource + " is missing from the classpath");
      }
      return new String(s.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
