package dev.l0.kernels.vector;

import java.util.SplittableRandom;
import java.util.function.DoubleBinaryOperator;

/**
 * Compares one implementation of a function with its scalar reference on a stream of inputs, raw
 * 64-bit patterns against raw 64-bit patterns (NaN payloads and signed zeros included). The inputs,
 * in this order: special values; every boundary with its 2000 neighbours on either side (in bit
 * patterns); then, in equal shares and in runs of {@value #RUN} of one kind, random bit patterns,
 * random values of the function's usual domain and random neighbours of randomly chosen sampled
 * boundaries. For pow see {@link #runPow}; where both of its arguments are NaN, either one's
 * payload counts as equal ({@code eitherNaNOperand}).
 */
final class ExactnessCheck {
  /** Elements per call of the implementation: the staging-buffer size the kernels use. */
  static final int CHUNK = 1024;

  static final int NEIGHBOURS = 2000;

  /**
   * Random inputs come in runs of this many of one kind, so that a vector step's lanes are all of
   * one kind: all of the lane-wise code's range where the kind is, not one stray lane sending the
   * step to the scalar function.
   */
  private static final int RUN = 64;

  private static final double[] SPECIALS = {
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    -Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    Double.longBitsToDouble(0x7ff0000000000001L),
    Double.longBitsToDouble(0xfff8000000000123L),
    Double.longBitsToDouble(0x7ff4000000000000L),
    Double.longBitsToDouble(0x000fffffffffffffL),
    Math.E,
    Math.PI,
    1e-300,
    -1e-300,
    1e300,
    -1e300,
    0.6931471805599453,
    -0.6931471805599453
  };

  /**
   * The outcome: how many inputs were compared and how many results differed (y is 0 for
   * one-argument functions).
   */
  record Result(
      long inputs,
      long mismatches,
      double firstMismatchInput,
      double firstMismatchY,
      double firstMismatchExpected,
      double firstMismatchActual) {}

  /**
   * Exponents for pow: the special ones, small integers, halves, and |y| around 2^31 where fdlibm's
   * huge case starts.
   */
  private static final double[] POW_SPECIAL_Y = {
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.0,
    -2.0,
    0.5,
    -0.5,
    3.0,
    -3.0,
    1.5,
    0x1p31,
    -0x1p31,
    0x1.00000_ffff_ffffp31,
    Math.nextUp(0x1.00000_ffff_ffffp31),
    0x1p53,
    0x1p64,
    Double.MIN_VALUE,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    Double.longBitsToDouble(0x7ff0000000000001L)
  };

  /**
   * log2 of the results where e_pow.c changes path: 2^z overflows, underflows, turns subnormal,
   * gets reduced.
   */
  private static final double[] POW_RESULT_EXPONENTS = {
    1024, -1075, -1074, -1022, -1021, 1023, 1022, 0.5, -0.5, 1.5
  };

  private ExactnessCheck() {}

  /**
   * Runs {@code implementation} of {@code function} on {@code inputs} inputs drawn with {@code
   * seed}.
   */
  static Result run(
      CheckedFunction function, ArrayFunction implementation, long inputs, long seed) {
    requireCount(inputs);
    Comparison comparison =
        new Comparison(
            (x, y) -> function.reference(x),
            (xs, ys, out, count) -> implementation.apply(xs, 0, out, 0, count));
    for (int i = 0; i < SPECIALS.length && comparison.count < inputs; i++) {
      comparison.add(SPECIALS[i], 0.0);
    }
    for (long boundary : function.boundaries()) {
      for (long offset = -NEIGHBOURS; offset <= NEIGHBOURS && comparison.count < inputs; offset++) {
        comparison.add(Double.longBitsToDouble(boundary + offset), 0.0);
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    long[] sampled = function.sampledBoundaries();
    int kinds = sampled.length > 0 ? 3 : 2;
    while (comparison.count < inputs) {
      double x =
          switch ((int) (comparison.count / RUN % kinds)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> function.sampleDomain(random);
            default ->
                Double.longBitsToDouble(
                    sampled[random.nextInt(sampled.length)]
                        + random.nextInt(-NEIGHBOURS, NEIGHBOURS + 1));
          };
      comparison.add(x, 0.0);
    }
    return comparison.finish();
  }

  /**
   * pow against StrictMath.pow on {@code inputs} pairs: every special x (the specials above) with
   * every special y; then, in turn (runs of {@value #RUN}), random bit patterns for both, x of (0,
   * 200] with y of [-20, 20], negative x with integer y, x within 2000 ulps of where e_pow.c's log2
   * changes interval (fractions 0x3988F and 0xBB67A, powers of two, the smallest normal) with y of
   * [-20, 20], random positive normal x with y of [-2, 2], and x of (0, 4) with y within 2000 ulps
   * of where x^y overflows, underflows, turns subnormal or is reduced ({@link
   * #POW_RESULT_EXPONENTS}).
   */
  static Result runPow(PairArrayFunction implementation, long inputs, long seed) {
    requireCount(inputs);
    Comparison comparison =
        new Comparison(
            StrictMath::pow,
            (xs, ys, out, count) -> implementation.apply(xs, 0, ys, 0, out, 0, count));
    for (int i = 0; i < SPECIALS.length && comparison.count < inputs; i++) {
      for (int j = 0; j < POW_SPECIAL_Y.length && comparison.count < inputs; j++) {
        comparison.add(SPECIALS[i], POW_SPECIAL_Y[j]);
      }
    }
    // fractions where log2's interval k changes, and 0 (powers of two); the smallest normal as it
    // is
    long[] intervals = {0x3988FL << 32, 0xBB67AL << 32, 0L, 0x00100000_00000000L};
    SplittableRandom random = new SplittableRandom(seed);
    while (comparison.count < inputs) {
      switch ((int) (comparison.count / RUN % 6)) {
        case 0 ->
            comparison.add(
                Double.longBitsToDouble(random.nextLong()),
                Double.longBitsToDouble(random.nextLong()));
        case 1 -> comparison.add(random.nextDouble(0x1p-30, 200), random.nextDouble(-20, 20));
        case 4 ->
            comparison.add(
                Double.longBitsToDouble(random.nextLong(0x0010000000000000L, 0x7ff0000000000000L)),
                random.nextDouble(-2, 2));
        case 2 -> comparison.add(-random.nextDouble(0x1p-30, 200), random.nextInt(-40, 41));
        case 3 -> {
          long exponent = (long) random.nextInt(0x7ff) << 52;
          long interval = intervals[random.nextInt(intervals.length)];
          long bits =
              (interval == 0x00100000_00000000L ? interval : interval | exponent)
                  + random.nextInt(-NEIGHBOURS, NEIGHBOURS + 1);
          comparison.add(Double.longBitsToDouble(bits), random.nextDouble(-20, 20));
        }
        default -> {
          double x = random.nextDouble(0x1p-8, 4);
          double target = POW_RESULT_EXPONENTS[random.nextInt(POW_RESULT_EXPONENTS.length)];
          double y = target / (StrictMath.log(x) / StrictMath.log(2));
          comparison.add(
              x,
              Double.longBitsToDouble(
                  Double.doubleToRawLongBits(y) + random.nextInt(-NEIGHBOURS, NEIGHBOURS + 1)));
        }
      }
    }
    return comparison.finish();
  }

  private static void requireCount(long inputs) {
    if (inputs < 0) {
      throw new IllegalArgumentException("input count " + inputs + " is negative");
    }
  }

  /** The function under check on arrays of arguments. */
  @FunctionalInterface
  private interface Batch {
    void apply(double[] xs, double[] ys, double[] out, int count);
  }

  /**
   * Buffers inputs into chunks, runs each chunk through the implementation and counts differences.
   */
  private static final class Comparison {
    private final DoubleBinaryOperator reference;
    private final Batch implementation;
    private final double[] in = new double[CHUNK];
    private final double[] second = new double[CHUNK];
    private final double[] out = new double[CHUNK];
    private int buffered;
    private long count;
    private long mismatches;
    private double firstInput = Double.NaN;
    private double firstY = Double.NaN;
    private double firstExpected = Double.NaN;
    private double firstActual = Double.NaN;

    Comparison(DoubleBinaryOperator reference, Batch implementation) {
      this.reference = reference;
      this.implementation = implementation;
    }

    void add(double x, double y) {
      in[buffered] = x;
      second[buffered] = y;
      buffered++;
      count++;
      if (buffered == CHUNK) {
        flush();
      }
    }

    private void flush() {
      implementation.apply(in, second, out, buffered);
      for (int i = 0; i < buffered; i++) {
        double expected = reference.applyAsDouble(in[i], second[i]);
        if (Double.doubleToRawLongBits(expected) != Double.doubleToRawLongBits(out[i])
            && !eitherNaNOperand(in[i], second[i], out[i])) {
          if (mismatches == 0) {
            firstInput = in[i];
            firstY = second[i];
            firstExpected = expected;
            firstActual = out[i];
          }
          mismatches++;
        }
      }
      buffered = 0;
    }

    /**
     * Where both arguments are NaN, fdlibm returns {@code x + y}, and which operand's payload a
     * Java addition of two NaNs carries is not fixed: C2 may swap the operands of an addition, so
     * StrictMath.pow itself gives either, depending on how it was compiled. Either quieted payload
     * counts as equal there.
     */
    private static boolean eitherNaNOperand(double x, double y, double actual) {
      long quiet = 0x0008000000000000L;
      long bits = Double.doubleToRawLongBits(actual);
      return Double.isNaN(x)
          && Double.isNaN(y)
          && (bits == (Double.doubleToRawLongBits(x) | quiet)
              || bits == (Double.doubleToRawLongBits(y) | quiet));
    }

    Result finish() {
      flush();
      return new Result(count, mismatches, firstInput, firstY, firstExpected, firstActual);
    }
  }
}
