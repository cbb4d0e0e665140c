package dev.l0.kernels.vector;

import dev.l0.kernels.report.JsonLine;
import java.util.ArrayList;
import java.util.List;

/**
 * A check, not a test: {@link VectorMath}'s functions against {@link StrictMath} (through {@link
 * dev.l0.math.L0Math}), bit for bit, on many inputs (see {@link ExactnessCheck} for which). Prints
 * one JSON line per function; exits 1 if any result differs, 64 on bad arguments.
 *
 * <pre>
 * java --add-modules=jdk.incubator.vector -cp l0-gpu-kernels-*-cli.jar dev.l0.kernels.vector.VectorMathCheck \
 *     [--inputs N] [--functions exp,log,sqrt,pow] [--seed S]
 * </pre>
 *
 * Defaults: 100,000,000 inputs (pairs for pow) per function, every function, seed 20261125. Without
 * the module it checks the scalar fallback ({@code "lanewise": false}).
 */
public final class VectorMathCheck {
  private static final String POW = "pow";
  private static final List<String> ALL = allFunctions();

  private VectorMathCheck() {}

  private static List<String> allFunctions() {
    List<String> names = new ArrayList<>();
    for (CheckedFunction function : CheckedFunction.values()) {
      names.add(function.functionName());
    }
    names.add(POW);
    return List.copyOf(names);
  }

  public static void main(String[] args) {
    long inputs = 100_000_000L;
    long seed = 20261125L;
    List<String> functions = new ArrayList<>(ALL);
    try {
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--inputs" -> {
            inputs = wholeNumber(args[i], value);
            if (inputs < 1) {
              throw new IllegalArgumentException("--inputs must be at least 1, not " + inputs);
            }
          }
          case "--seed" -> seed = wholeNumber(args[i], value);
          case "--functions" -> {
            functions.clear();
            for (String name : required(args[i], value).split(",")) {
              if (!ALL.contains(name.trim())) {
                throw new IllegalArgumentException(
                    "unknown function '" + name.trim() + "'; known: " + String.join(", ", ALL));
              }
              functions.add(name.trim());
            }
          }
          default ->
              throw new IllegalArgumentException(
                  "unknown option '"
                      + args[i]
                      + "'; usage: VectorMathCheck [--inputs N] [--functions "
                      + String.join(",", ALL)
                      + "] [--seed S]");
        }
        i++;
      }
    } catch (IllegalArgumentException e) {
      System.err.println("VectorMathCheck: " + e.getMessage());
      System.exit(64);
    }
    boolean allExact = true;
    for (String function : functions) {
      long start = System.nanoTime();
      ExactnessCheck.Result result =
          function.equals(POW)
              ? ExactnessCheck.runPow(VectorMath::pow, inputs, seed)
              : ExactnessCheck.run(
                  CheckedFunction.named(function),
                  CheckedFunction.named(function).product(),
                  inputs,
                  seed);
      double seconds = (System.nanoTime() - start) / 1e9;
      JsonLine line =
          new JsonLine()
              .add("check", "vector-math")
              .add("function", function)
              .add("lanewise", VectorMath.lanewise())
              .add("lanes", VectorMath.lanes())
              .add("java", System.getProperty("java.version"))
              .add("inputs", result.inputs())
              .add("mismatches", result.mismatches())
              .add("seconds", seconds);
      if (result.mismatches() > 0) {
        line.add(
                "firstMismatchInput",
                Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchInput())))
            .add(
                "firstMismatchY",
                Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchY())))
            .add(
                "expected",
                Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchExpected())))
            .add(
                "actual",
                Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchActual())));
        allExact = false;
      }
      System.out.println(line.text());
    }
    System.exit(allExact ? 0 : 1);
  }

  private static long wholeNumber(String option, String value) {
    try {
      return Long.parseLong(required(option, value));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " must be a whole number, not '" + value + "'", e);
    }
  }

  private static String required(String option, String value) {
    if (value == null) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return value;
  }
}
