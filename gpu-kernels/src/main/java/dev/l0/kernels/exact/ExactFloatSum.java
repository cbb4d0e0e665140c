package dev.l0.kernels.exact;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Exact sums of whole {@code f64} and {@code f32} arrays, and an exact sum rounded once to
 * {@code f32}: what an exact float reduce needs besides {@link ExactSum} itself. An array is added
 * into a fixed-point superaccumulator (as in Neal's "small superaccumulator"): 66 signed 64-bit
 * digits of 32 bits each span every finite double, so adding a value is a few integer operations
 * on three digits, without branches on its magnitude and without boxing; the digits then go into
 * an {@link ExactSum} (at most 132 exact pieces), which merges and rounds. Rounding to {@code f32}
 * goes straight from the exact sum (rounding to a {@code double} first and then to a
 * {@code float} could round twice).
 */
public final class ExactFloatSum {
  /** Bits a digit holds once carries are propagated. */
  private static final int DIGIT_BITS = 32;
  private static final long DIGIT_MASK = (1L << DIGIT_BITS) - 1;
  /** Digits: bit position {@code p} (weight {@code 2^(p - 1075)}) of the biased exponents 1..2046 and 53-bit mantissas. */
  private static final int DIGITS = (2046 + 53) / DIGIT_BITS + 2;
  /** The weight exponent of bit position 0. */
  private static final int POSITION_ZERO_EXPONENT = -1075;
  /** Additions of less than {@code 2^32} each a signed 64-bit digit takes before its carries must move up. */
  private static final int ADDS_BETWEEN_CARRIES = 1 << 30;

  /** The fewest values a thread of a parallel sum gets. */
  private static final int MIN_VALUES_PER_THREAD = 1 << 16;

  private ExactFloatSum() {}

  /** Adds values {@code [from, to)} of an array to the digits, NaNs and infinities to {@code specials}. */
  @FunctionalInterface
  private interface RangeAdder {
    void add(long[] digits, ExactSum specials, int from, int to);
  }

  /** The exact sum of {@code values}. */
  public static ExactSum of(double[] values) {
    return of(values, 1);
  }

  /**
   * The exact sum of {@code values} on at most {@code threads} threads (of the common fork-join
   * pool, the calling one included): one superaccumulator per thread, merged exactly, so the sum
   * is the same bits on any thread count.
   */
  public static ExactSum of(double[] values, int threads) {
    return sum(values.length, threads, (digits, specials, from, to) -> {
      for (int i = from; i < to; i++) {
        addTo(digits, values[i], specials);
      }
    });
  }

  /** The exact sum of {@code values} (each widened to a {@code double}, exactly). */
  public static ExactSum of(float[] values) {
    return of(values, 1);
  }

  /** {@link #of(double[], int)} for {@code f32} values, each widened to a {@code double}, exactly. */
  public static ExactSum of(float[] values, int threads) {
    return sum(values.length, threads, (digits, specials, from, to) -> {
      for (int i = from; i < to; i++) {
        addTo(digits, values[i], specials);
      }
    });
  }

  /** The exact sum of {@code length} values that {@code adder} adds, split into at most {@code threads} ranges run side by side. */
  private static ExactSum sum(int length, int threads, RangeAdder adder) {
    int parts = Math.max(1, Math.min(threads, length / MIN_VALUES_PER_THREAD));
    if (parts == 1) {
      return sumOfRange(0, length, adder);
    }
    List<ExactSum> sums = IntStream.range(0, parts).parallel()
        .mapToObj(p -> sumOfRange((int) ((long) length * p / parts), (int) ((long) length * (p + 1) / parts), adder))
        .toList();
    ExactSum total = new ExactSum();
    sums.forEach(total::add);
    return total;
  }

  /** The exact sum of values {@code [from, to)}: one superaccumulator, carries moved up before any digit could overflow. */
  private static ExactSum sumOfRange(int from, int to, RangeAdder adder) {
    long[] digits = new long[DIGITS];
    ExactSum specials = new ExactSum();
    for (int start = from; start < to; start += ADDS_BETWEEN_CARRIES) {
      adder.add(digits, specials, start, (int) Math.min(to, (long) start + ADDS_BETWEEN_CARRIES));
      propagateCarries(digits);
    }
    return toExactSum(digits, specials);
  }

  /** Adds {@code value} to the digits exactly; a NaN or an infinity goes to {@code specials}. */
  private static void addTo(long[] digits, double value, ExactSum specials) {
    long bits = Double.doubleToRawLongBits(value);
    int exponent = (int) (bits >>> 52) & 0x7FF;
    if (exponent == 0x7FF) {
      specials.add(value);
      return;
    }
    long mantissa = bits & ((1L << 52) - 1);
    if (exponent == 0) {
      exponent = 1;
    } else {
      mantissa |= 1L << 52;
    }
    int digit = exponent >>> 5;
    int shift = exponent & (DIGIT_BITS - 1);
    long low = (mantissa << shift) & DIGIT_MASK;
    long rest = mantissa >>> (DIGIT_BITS - shift);
    long middle = rest & DIGIT_MASK;
    long high = rest >>> DIGIT_BITS;
    if (bits < 0) {
      digits[digit] -= low;
      digits[digit + 1] -= middle;
      digits[digit + 2] -= high;
    } else {
      digits[digit] += low;
      digits[digit + 1] += middle;
      digits[digit + 2] += high;
    }
  }

  /**
   * Moves each digit's multiples of {@code 2^32} into the next digit, rounding toward zero, so
   * that every digit keeps its sign and stays below {@code 2^32} in magnitude, and no digit above
   * those the values reached becomes non-zero (a negative sum does not turn into a top digit of -1).
   */
  private static void propagateCarries(long[] digits) {
    for (int k = 0; k < digits.length - 1; k++) {
      long carry = digits[k] / (1L << DIGIT_BITS);
      digits[k] -= carry * (1L << DIGIT_BITS);
      digits[k + 1] += carry;
    }
  }

  /**
   * The digits' exact value (each digit as two exact doubles of its sign, its multiple of
   * {@code 2^32} and the rest) and the special values, as an {@link ExactSum}.
   */
  private static ExactSum toExactSum(long[] digits, ExactSum specials) {
    ExactSum sum = new ExactSum();
    for (int k = digits.length - 1; k >= 0; k--) {
      long digit = digits[k];
      if (digit != 0) {
        int weight = POSITION_ZERO_EXPONENT + k * DIGIT_BITS;
        long high = digit / (1L << DIGIT_BITS);
        sum.add(finite(Math.scalb((double) high, weight + DIGIT_BITS)));
        sum.add(finite(Math.scalb((double) (digit - high * (1L << DIGIT_BITS)), weight)));
      }
    }
    return sum.add(specials);
  }

  /** {@code piece}, a part of the digits' value; an {@link ArithmeticException} where it passes the largest double. */
  private static double finite(double piece) {
    if (Double.isInfinite(piece)) {
      throw new ArithmeticException("exact sum: intermediate overflow (the sum's magnitude passes " + Double.MAX_VALUE + ")");
    }
    return piece;
  }

  /**
   * {@code sum} correctly rounded to a {@code float} (to nearest, ties to even): its {@code double}
   * rounding, corrected where that lies exactly half-way between two floats, by the sign of what the
   * {@code double} rounding left out.
   */
  public static float roundedToFloat(ExactSum sum) {
    double nearest = sum.value();
    float rounded = (float) nearest;
    if (!Double.isFinite(nearest) || Float.isInfinite(rounded) || (double) rounded == nearest) {
      return rounded;
    }
    float neighbour = (double) rounded < nearest ? Math.nextUp(rounded) : Math.nextDown(rounded);
    boolean halfWay = ((double) rounded + (double) neighbour) / 2.0 == nearest;
    if (!halfWay) {
      return rounded;
    }
    double leftOut = new ExactSum().add(sum).add(-nearest).value();
    if (leftOut == 0.0) {
      return rounded;
    }
    return leftOut > 0.0 ? Math.max(rounded, neighbour) : Math.min(rounded, neighbour);
  }
}
