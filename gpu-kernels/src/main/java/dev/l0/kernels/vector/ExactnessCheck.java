package dev.l0.kernels.vector;

import java.util.SplittableRandom;

/**
 * Compares one implementation of a function with its scalar reference on a stream of inputs,
 * raw 64-bit patterns against raw 64-bit patterns (NaN payloads and signed zeros included). The
 * inputs, in this order: special values; every boundary with its 2000 neighbours on either side
 * (in bit patterns); then, in equal shares, random bit patterns, random values of the function's
 * usual domain and random neighbours of randomly chosen sampled boundaries.
 */
final class ExactnessCheck {
  /** Elements per call of the implementation: the staging-buffer size the kernels use. */
  static final int CHUNK = 1024;
  static final int NEIGHBOURS = 2000;

  private static final double[] SPECIALS = {
      0.0, -0.0, 1.0, -1.0, 0.5, 2.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, -Double.MIN_NORMAL,
      Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
      Double.longBitsToDouble(0x7ff0000000000001L), Double.longBitsToDouble(0xfff8000000000123L),
      Double.longBitsToDouble(0x7ff4000000000000L), Double.longBitsToDouble(0x000fffffffffffffL),
      Math.E, Math.PI, 1e-300, -1e-300, 1e300, -1e300, 0.6931471805599453, -0.6931471805599453};

  /** The outcome: how many inputs were compared and how many results differed. */
  record Result(long inputs, long mismatches, double firstMismatchInput, double firstMismatchExpected,
      double firstMismatchActual) {}

  private ExactnessCheck() {}

  /** Runs {@code implementation} of {@code function} on {@code inputs} inputs drawn with {@code seed}. */
  static Result run(CheckedFunction function, ArrayFunction implementation, long inputs, long seed) {
    if (inputs < 0) {
      throw new IllegalArgumentException("input count " + inputs + " is negative");
    }
    Comparison comparison = new Comparison(function, implementation);
    comparison.values(SPECIALS, inputs);
    for (long boundary : function.boundaries()) {
      for (long offset = -NEIGHBOURS; offset <= NEIGHBOURS && comparison.count < inputs; offset++) {
        comparison.add(Double.longBitsToDouble(boundary + offset));
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    long[] sampled = function.sampledBoundaries();
    int kinds = sampled.length > 0 ? 3 : 2;
    while (comparison.count < inputs) {
      double x = switch ((int) (comparison.count % kinds)) {
        case 0 -> Double.longBitsToDouble(random.nextLong());
        case 1 -> function.sampleDomain(random);
        default -> Double.longBitsToDouble(sampled[random.nextInt(sampled.length)]
            + random.nextInt(-NEIGHBOURS, NEIGHBOURS + 1));
      };
      comparison.add(x);
    }
    return comparison.finish();
  }

  /** Buffers inputs into chunks, runs each chunk through the implementation and counts differences. */
  private static final class Comparison {
    private final CheckedFunction function;
    private final ArrayFunction implementation;
    private final double[] in = new double[CHUNK];
    private final double[] out = new double[CHUNK];
    private int buffered;
    private long count;
    private long mismatches;
    private double firstInput = Double.NaN;
    private double firstExpected = Double.NaN;
    private double firstActual = Double.NaN;

    Comparison(CheckedFunction function, ArrayFunction implementation) {
      this.function = function;
      this.implementation = implementation;
    }

    void values(double[] values, long limit) {
      for (int i = 0; i < values.length && count < limit; i++) {
        add(values[i]);
      }
    }

    void add(double x) {
      in[buffered++] = x;
      count++;
      if (buffered == CHUNK) {
        flush();
      }
    }

    private void flush() {
      implementation.apply(in, 0, out, 0, buffered);
      for (int i = 0; i < buffered; i++) {
        double expected = function.reference(in[i]);
        if (Double.doubleToRawLongBits(expected) != Double.doubleToRawLongBits(out[i])) {
          if (mismatches == 0) {
            firstInput = in[i];
            firstExpected = expected;
            firstActual = out[i];
          }
          mismatches++;
        }
      }
      buffered = 0;
    }

    Result finish() {
      flush();
      return new Result(count, mismatches, firstInput, firstExpected, firstActual);
    }
  }
}
