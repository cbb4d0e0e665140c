package dev.l0.kernels.vector;

import dev.l0.kernels.report.JsonLine;
import java.util.ArrayList;
import java.util.List;

/**
 * A check, not a test: {@link VectorMath}'s functions against {@link StrictMath} (through
 * {@link dev.l0.math.L0Math}), bit for bit, on many inputs (see {@link ExactnessCheck} for which).
 * Prints one JSON line per function; exits 1 if any result differs, 64 on bad arguments.
 *
 * <pre>
 * java --add-modules=jdk.incubator.vector -cp l0-gpu-kernels-*-cli.jar dev.l0.kernels.vector.VectorMathCheck \
 *     [--inputs N] [--functions exp,log,sqrt] [--seed S]
 * </pre>
 * Defaults: 100,000,000 inputs per function, every function, seed 20261125. Without the module
 * it checks the scalar fallback ({@code "lanewise": false}).
 */
public final class VectorMathCheck {
  private VectorMathCheck() {}

  public static void main(String[] args) {
    long inputs = 100_000_000L;
    long seed = 20261125L;
    List<CheckedFunction> functions = new ArrayList<>(List.of(CheckedFunction.values()));
    try {
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--inputs" -> inputs = Long.parseLong(required(args[i], value));
          case "--seed" -> seed = Long.parseLong(required(args[i], value));
          case "--functions" -> {
            functions.clear();
            for (String name : required(args[i], value).split(",")) {
              functions.add(CheckedFunction.named(name.trim()));
            }
          }
          default -> throw new IllegalArgumentException("unknown option '" + args[i]
              + "'; usage: VectorMathCheck [--inputs N] [--functions exp,log,sqrt] [--seed S]");
        }
        i++;
      }
    } catch (IllegalArgumentException e) {
      System.err.println("VectorMathCheck: " + e.getMessage());
      System.exit(64);
    }
    boolean allExact = true;
    for (CheckedFunction function : functions) {
      long start = System.nanoTime();
      ExactnessCheck.Result result = ExactnessCheck.run(function, function.product(), inputs, seed);
      double seconds = (System.nanoTime() - start) / 1e9;
      JsonLine line = new JsonLine()
          .add("check", "vector-math")
          .add("function", function.functionName())
          .add("lanewise", VectorMath.lanewise())
          .add("lanes", VectorMath.lanes())
          .add("java", System.getProperty("java.version"))
          .add("inputs", result.inputs())
          .add("mismatches", result.mismatches())
          .add("seconds", seconds);
      if (result.mismatches() > 0) {
        line.add("firstMismatchInput", Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchInput())))
            .add("expected", Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchExpected())))
            .add("actual", Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchActual())));
        allExact = false;
      }
      System.out.println(line.text());
    }
    System.exit(allExact ? 0 : 1);
  }

  private static String required(String option, String value) {
    if (value == null) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return value;
  }
}
