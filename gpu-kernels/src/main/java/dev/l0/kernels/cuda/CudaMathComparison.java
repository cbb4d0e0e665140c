package dev.l0.kernels.cuda;

import dev.l0.kernels.report.JsonLine;
import java.util.Optional;

/**
 * The outcome of running one {@link CudaMathRoutine} of {@code l0_math.cuh} (on a device or on the
 * host) over a {@link CudaMathInputs} and comparing each result with the JVM's ({@link
 * CudaMathRoutine#sameResult}).
 */
public record CudaMathComparison(
    CudaMathRoutine routine, int inputs, int mismatches, Optional<String> firstMismatch) {

  /** Compares {@code results[i]}, the result bits for argument pair i, with the JVM's results. */
  public static CudaMathComparison of(
      CudaMathRoutine routine, CudaMathInputs arguments, long[] results) {
    if (results.length != arguments.size()) {
      throw new IllegalArgumentException(
          results.length + " results for " + arguments.size() + " arguments of " + routine.cName());
    }
    int mismatches = 0;
    String first = null;
    for (int i = 0; i < results.length; i++) {
      long expected = routine.expectedBits(arguments.first(i), arguments.second(i));
      if (!CudaMathRoutine.sameResult(results[i], expected)) {
        mismatches++;
        if (first == null) {
          first = describe(routine, arguments.first(i), arguments.second(i), expected, results[i]);
        }
      }
    }
    return new CudaMathComparison(routine, results.length, mismatches, Optional.ofNullable(first));
  }

  /**
   * One JSON object: {@code {"device": ..., "function": ..., "inputs": n, "mismatches": m}}, plus
   * the first mismatch if any.
   */
  public String toJson(String device) {
    JsonLine json =
        new JsonLine()
            .add("device", device)
            .add("function", routine.cName())
            .add("inputs", inputs)
            .add("mismatches", mismatches);
    firstMismatch.ifPresent(text -> json.add("firstMismatch", text));
    return json.text();
  }

  private static String describe(
      CudaMathRoutine routine, long first, long second, long expected, long actual) {
    String arguments = hex(first) + (routine.function().arity() == 2 ? ", " + hex(second) : "");
    return routine.cName() + "(" + arguments + ") = " + hex(actual) + ", JVM " + hex(expected);
  }

  private static String hex(long bits) {
    return String.format("0x%016x (%s)", bits, Double.longBitsToDouble(bits));
  }
}
