package dev.l0.kernels.exact;

import java.io.Serializable;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Exact sums of many doubles in fixed point, for what {@link ExactSum} alone would make slow: whole
 * {@code f64} and {@code f32} arrays summed to one {@link ExactSum} ({@link #of(double[])}, the
 * exact float sums of L0 programs and pipelines), an exact sum rounded once to {@code f32} ({@link
 * #roundedToFloat}), and element-wise sums of equal-length vectors rounded once per element (an
 * instance: {@link #addElementWise}, {@link #add(ExactFloatSum)}, {@link #values()}, the buffer of
 * Spark's {@code exactSumElementWise}).
 *
 * <p>Every sum is a superaccumulator (as in Neal's "small superaccumulator"): {@value #DIGITS}
 * signed 64-bit digits of 32 bits each, digit {@code k} weighing 2<sup>32k-1075</sup>, span every
 * finite double and the sum of up to 2<sup>31</sup> of them. A finite double adds exactly as two
 * integer additions (its 53-bit significand shifted into two adjacent digits), without boxing;
 * every {@value #ADDS_BETWEEN_CARRIES} additions the digits' multiples of 2<sup>32</sup> move up
 * before a digit could overflow. NaNs and infinities go to an {@link ExactSum}. The digits then go
 * into that {@link ExactSum} (each exactly a double), which merges and rounds; a sum whose
 * magnitude passes {@link Double#MAX_VALUE} throws an {@link ArithmeticException}.
 *
 * <p>Zeros: {@link #of(double[])} of zeros is +0.0 (as a reduce from the neutral element 0.0); an
 * element-wise sum keeps the sign of an IEEE sum, -0.0 where every value of the element was -0.0.
 * So each element's value is the one an {@link ExactSum} of its values gives. Instances are not
 * thread-safe.
 */
public final class ExactFloatSum implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Bits a digit holds once carries are propagated. */
  private static final int DIGIT_BITS = 32;

  private static final long DIGIT_MASK = (1L << DIGIT_BITS) - 1;

  /**
   * Digits of one sum: bit position {@code p} (weight {@code 2^(p - 1075)}) of the biased exponents
   * 1..2046 and 53-bit significands, and carries.
   */
  private static final int DIGITS = (2046 + 53) / DIGIT_BITS + 2;

  /** The weight exponent of bit position 0. */
  private static final int POSITION_ZERO_EXPONENT = -1075;

  /**
   * Additions of less than {@code 2^52} each a signed 64-bit digit of less than {@code 2^33} takes
   * before its carries must move up.
   */
  private static final int ADDS_BETWEEN_CARRIES = 1024;

  private static final long FRACTION_MASK = (1L << 52) - 1;
  private static final long NEGATIVE_ZERO_BITS = Double.doubleToRawLongBits(-0.0);

  /** The fewest values a thread of a parallel sum gets. */
  private static final int MIN_VALUES_PER_THREAD = 1 << 16;

  /** Elements of an element-wise sum: the first added vector's length. */
  private int length;

  /** Element {@code i}'s digits are {@code digits[i * DIGITS .. (i + 1) * DIGITS)}. */
  private long[] digits = new long[0];

  /** Per element, the sum of its NaNs and infinities; null until the first one. */
  private ExactSum[] specials;

  /** Vectors added, and per element how many of their values were -0.0 (null until the first). */
  private long vectors;

  private long[] negativeZeros;
  private int vectorsSinceCarry;

  /** An empty element-wise sum; its length is the first added vector's. */
  public ExactFloatSum() {}

  /**
   * Adds values {@code [from, to)} of an array to the digits, NaNs and infinities to {@code
   * specials}.
   */
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
   * pool, the calling one included): one superaccumulator per thread, merged exactly, so the sum is
   * the same bits on any thread count.
   */
  public static ExactSum of(double[] values, int threads) {
    return sum(
        values.length,
        threads,
        (digits, specials, from, to) -> {
          for (int i = from; i < to; i++) {
            add(digits, specials, values[i]);
          }
        });
  }

  /** The exact sum of {@code values} (each widened to a {@code double}, exactly). */
  public static ExactSum of(float[] values) {
    return of(values, 1);
  }

  /**
   * {@link #of(double[], int)} for {@code f32} values, each widened to a {@code double}, exactly.
   */
  public static ExactSum of(float[] values, int threads) {
    return sum(
        values.length,
        threads,
        (digits, specials, from, to) -> {
          for (int i = from; i < to; i++) {
            add(digits, specials, values[i]);
          }
        });
  }

  /**
   * The exact sum of {@code length} values that {@code adder} adds, split into at most {@code
   * threads} ranges run side by side.
   */
  private static ExactSum sum(int length, int threads, RangeAdder adder) {
    int parts = Math.max(1, Math.min(threads, length / MIN_VALUES_PER_THREAD));
    if (parts == 1) {
      return sumOfRange(0, length, adder);
    }
    List<ExactSum> sums =
        IntStream.range(0, parts)
            .parallel()
            .mapToObj(
                p ->
                    sumOfRange(
                        (int) ((long) length * p / parts),
                        (int) ((long) length * (p + 1) / parts),
                        adder))
            .toList();
    ExactSum total = new ExactSum();
    sums.forEach(total::add);
    return total;
  }

  /**
   * The exact sum of values {@code [from, to)}: one superaccumulator, carries moved up before any
   * digit could overflow.
   */
  private static ExactSum sumOfRange(int from, int to, RangeAdder adder) {
    long[] digits = new long[DIGITS];
    ExactSum specials = new ExactSum();
    for (int start = from; start < to; start += ADDS_BETWEEN_CARRIES) {
      adder.add(digits, specials, start, (int) Math.min(to, (long) start + ADDS_BETWEEN_CARRIES));
      propagateCarries(digits, 0);
    }
    return toExactSum(digits, 0, specials);
  }

  /** Adds {@code values} element-wise; throws if its length differs from earlier vectors'. */
  public ExactFloatSum addElementWise(double[] values) {
    ensureLength(values.length);
    if (length == 0) {
      return this;
    }
    if (vectorsSinceCarry == ADDS_BETWEEN_CARRIES) {
      propagateAllCarries();
    }
    for (int i = 0; i < length; i++) {
      double value = values[i];
      long bits = Double.doubleToRawLongBits(value);
      if (bits == NEGATIVE_ZERO_BITS) {
        negativeZeros()[i]++;
      } else if (Double.isFinite(value)) {
        addFinite(digits, i * DIGITS, bits);
      } else {
        special(i).add(value);
      }
    }
    vectors++;
    vectorsSinceCarry++;
    return this;
  }

  /** Adds every element sum of {@code other}; {@code other}'s values are unchanged. */
  public ExactFloatSum add(ExactFloatSum other) {
    if (other.length == 0) {
      return this;
    }
    ensureLength(other.length);
    propagateAllCarries();
    other.propagateAllCarries();
    for (int j = 0; j < digits.length; j++) {
      digits[j] += other.digits[j];
    }
    vectors += other.vectors;
    for (int i = 0; i < length; i++) {
      if (other.negativeZeros != null) {
        negativeZeros()[i] += other.negativeZeros[i];
      }
      if (other.specials != null && other.specials[i] != null) {
        special(i).add(other.specials[i]);
      }
    }
    propagateAllCarries();
    return this;
  }

  /** The correctly rounded sum of each element; an empty array if nothing was added. */
  public double[] values() {
    propagateAllCarries();
    double[] out = new double[length];
    for (int i = 0; i < length; i++) {
      if (negativeZeros != null && negativeZeros[i] == vectors) {
        out[i] = -0.0;
      } else {
        out[i] = toExactSum(digits, i * DIGITS, specials == null ? null : specials[i]).value();
      }
    }
    return out;
  }

  private void ensureLength(int newLength) {
    if (length == 0 && newLength > 0) {
      length = newLength;
      digits = new long[newLength * DIGITS];
    } else if (length != newLength) {
      throw new IllegalArgumentException(
          "exact vector sum: a vector of length "
              + newLength
              + " added to sums of length "
              + length);
    }
  }

  private long[] negativeZeros() {
    if (negativeZeros == null) {
      negativeZeros = new long[length];
    }
    return negativeZeros;
  }

  private ExactSum special(int element) {
    if (specials == null) {
      specials = new ExactSum[length];
    }
    if (specials[element] == null) {
      specials[element] = new ExactSum();
    }
    return specials[element];
  }

  private void propagateAllCarries() {
    for (int base = 0; base < digits.length; base += DIGITS) {
      propagateCarries(digits, base);
    }
    vectorsSinceCarry = 0;
  }

  /**
   * Adds the finite double whose raw bits are {@code bits} exactly to the digits of the sum that
   * starts at {@code base}: its significand (below {@code 2^53}), shifted to its exponent's bit
   * position, as its low 32 bits into one digit and the rest (below {@code 2^52}) into the next.
   */
  /** Adds {@code value} to {@code digits}, or to {@code specials} where it is not finite. */
  private static void add(long[] digits, ExactSum specials, double value) {
    if (Double.isFinite(value)) {
      addFinite(digits, 0, Double.doubleToRawLongBits(value));
    } else {
      specials.add(value);
    }
  }

  private static void addFinite(long[] digits, int base, long bits) {
    int exponent = (int) (bits >>> 52) & 0x7FF;
    long significand = (bits & FRACTION_MASK) | (exponent == 0 ? 0L : 1L << 52);
    int position = Math.max(exponent, 1);
    int digit = base + (position >>> 5);
    int shift = position & (DIGIT_BITS - 1);
    long low = (significand << shift) & DIGIT_MASK;
    long high = significand >>> (DIGIT_BITS - shift);
    long sign = bits >> 63;
    digits[digit] += (low ^ sign) - sign;
    digits[digit + 1] += (high ^ sign) - sign;
  }

  /**
   * Moves each digit's multiples of {@code 2^32} into the next digit of the sum that starts at
   * {@code base}, rounding toward zero, so that every digit but the top one keeps its sign and
   * stays below {@code 2^32} in magnitude, and no digit above those the values reached becomes
   * non-zero (a negative sum does not turn into a top digit of -1).
   */
  private static void propagateCarries(long[] digits, int base) {
    for (int k = base; k < base + DIGITS - 1; k++) {
      long carry = digits[k] / (1L << DIGIT_BITS);
      digits[k] -= carry * (1L << DIGIT_BITS);
      digits[k + 1] += carry;
    }
  }

  /**
   * The exact value of the carried digits of the sum that starts at {@code base} (each digit
   * exactly a double, the top one as its multiple of {@code 2^32} and the rest) and of {@code
   * specials} (null for none), as an {@link ExactSum}.
   */
  private static ExactSum toExactSum(long[] digits, int base, ExactSum specials) {
    ExactSum sum = new ExactSum();
    for (int k = DIGITS - 1; k >= 0; k--) {
      long digit = digits[base + k];
      if (digit != 0) {
        int weight = POSITION_ZERO_EXPONENT + k * DIGIT_BITS;
        long high = digit / (1L << DIGIT_BITS);
        if (high != 0) {
          sum.add(finite(Math.scalb((double) high, weight + DIGIT_BITS)));
        }
        long rest = digit - high * (1L << DIGIT_BITS);
        if (rest != 0) {
          sum.add(finite(Math.scalb((double) rest, weight)));
        }
      }
    }
    return specials == null ? sum : sum.add(specials);
  }

  /**
   * {@code piece}, a part of the digits' value; an {@link ArithmeticException} where it passes the
   * largest double.
   */
  private static double finite(double piece) {
    if (Double.isInfinite(piece)) {
      throw new ArithmeticException(
          "exact sum: intermediate overflow (the sum's magnitude passes " + Double.MAX_VALUE + ")");
    }
    return piece;
  }

  /**
   * {@code sum} correctly rounded to a {@code float} (to nearest, ties to even): its {@code double}
   * rounding, corrected where that lies exactly half-way between two floats, by the sign of what
   * the {@code double} rounding left out. Rounding to {@code f32} goes straight from the exact sum
   * (rounding to a {@code double} first and then to a {@code float} could round twice).
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
