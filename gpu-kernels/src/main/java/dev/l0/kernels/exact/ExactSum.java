package dev.l0.kernels.exact;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An exact sum of doubles: Shewchuk's non-overlapping expansion ("partials", as Python's
 * {@code math.fsum} keeps them), each {@link #add(double)} exact by two-sum, {@link #add(ExactSum)}
 * exact by adding the other's partials, and {@link #value()} rounded once, to nearest with ties to
 * even. So the value is the correctly rounded sum of every value added, whatever their order and
 * however they were split between accumulators and merged: bit-identical across partitionings.
 *
 * <p>Special values: any NaN, or both infinities, make the sum NaN; otherwise an infinity makes it
 * that infinity. Limit: a sum whose exact partial magnitude passes {@link Double#MAX_VALUE} while
 * finite values are added throws an {@link ArithmeticException} (an intermediate overflow, which
 * the order of the values could otherwise decide). Cost: a few flops per partial, and a sum of
 * values of similar magnitude keeps one to three partials. Not thread-safe.
 */
public final class ExactSum implements Serializable {
  private static final long serialVersionUID = 1L;

  private double[] partials = new double[4];
  private int count;
  private double infinities;
  private boolean nan;

  /** Adds {@code value} exactly. */
  public ExactSum add(double value) {
    if (!Double.isFinite(value)) {
      addSpecial(value);
      return this;
    }
    double x = value;
    int kept = 0;
    for (int i = 0; i < count; i++) {
      double y = partials[i];
      if (Math.abs(x) < Math.abs(y)) {
        double t = x;
        x = y;
        y = t;
      }
      double hi = x + y;
      double lo = y - (hi - x);
      if (lo != 0.0) {
        partials[kept++] = lo;
      }
      x = hi;
    }
    if (!Double.isFinite(x)) {
      throw new ArithmeticException("exact sum: intermediate overflow (the sum's magnitude passes "
          + Double.MAX_VALUE + ")");
    }
    if (kept == partials.length) {
      partials = Arrays.copyOf(partials, partials.length * 2);
    }
    partials[kept++] = x;
    count = kept;
    return this;
  }

  /** Adds every value of {@code other} exactly; {@code other} is unchanged. */
  public ExactSum add(ExactSum other) {
    for (int i = 0; i < other.count; i++) {
      add(other.partials[i]);
    }
    if (other.nan) {
      nan = true;
    }
    if (other.infinities != 0.0) {
      addSpecial(other.infinities);
    }
    return this;
  }

  private void addSpecial(double value) {
    if (Double.isNaN(value)) {
      nan = true;
    } else if (infinities != 0.0 && infinities != value) {
      nan = true;
    } else {
      infinities = value;
    }
  }

  /** The correctly rounded (to nearest, ties to even) sum of everything added; 0.0 if nothing. */
  public double value() {
    if (nan) {
      return Double.NaN;
    }
    if (infinities != 0.0) {
      return infinities;
    }
    int n = count;
    if (n == 0) {
      return 0.0;
    }
    // The partials are non-overlapping and increasing in magnitude: sum from the top until a
    // rounding error appears, then correct the half-way case from the sign of the next partial.
    double hi = partials[--n];
    double lo = 0.0;
    while (n > 0) {
      double x = hi;
      double y = partials[--n];
      hi = x + y;
      double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) {
        break;
      }
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
      double y = lo * 2.0;
      double x = hi + y;
      double yr = x - hi;
      if (y == yr) {
        hi = x;
      }
    }
    return hi;
  }

  /**
   * Element-wise exact sums of equal-length vectors, rounded once per element, with the same
   * values as an {@link ExactSum} per element but a cheaper {@link #add(double[])}. Each element
   * keeps a fixed-point accumulator of {@value #CHUNKS} signed {@code long} chunks, chunk {@code k}
   * weighing 2<sup>32k-1074</sup>: a finite double below 2<sup>960</sup> in magnitude adds exactly
   * as two integer additions (its 53-bit significand shifted into two adjacent chunks). Every
   * {@value #CARRY_EVERY} vectors the chunks are carried into 32-bit digits, before a {@code long}
   * can overflow. The other values (NaN, infinities, magnitudes of 2<sup>960</sup> and above, and
   * -0.0, whose sign counts only when every value is -0.0) go to an {@link ExactSum} per element.
   * Rounding adds the carried digits, each exactly a double, to a copy of that {@link ExactSum}, so
   * each element's value is the correctly rounded sum of everything added to it.
   */
  public static final class Vector implements Serializable {
    private static final long serialVersionUID = 2L;
    private static final int CHUNKS = 64;
    private static final int DIGIT_BITS = 32;
    private static final long DIGIT_MASK = (1L << DIGIT_BITS) - 1;
    private static final int CARRY_EVERY = 1024;
    /** The largest biased exponent of the fixed-point path: values below 2^960 in magnitude. */
    private static final int LARGEST_FIXED_EXPONENT = 1023 + 959;
    private static final long NEGATIVE_ZERO_BITS = Double.doubleToRawLongBits(-0.0);
    private static final long FRACTION_MASK = (1L << 52) - 1;

    private int length;
    /** Element {@code i}'s chunks are {@code chunks[i * CHUNKS .. (i + 1) * CHUNKS)}. */
    private long[] chunks = new long[0];
    /** Whether element {@code i} was given a value on the fixed-point path (so a zero total is +0.0). */
    private boolean[] fixedValues = new boolean[0];
    /** Per element, the sum of its other values; null until the first one. */
    private ExactSum[] others;
    private int vectorsSinceCarry;

    /** An empty vector sum; its length is the first added vector's. */
    public Vector() {}

    /** Adds {@code values} element-wise; throws if its length differs from earlier vectors'. */
    public Vector add(double[] values) {
      ensureLength(values.length);
      if (vectorsSinceCarry == CARRY_EVERY) {
        carry();
      }
      for (int i = 0; i < values.length; i++) {
        double value = values[i];
        long bits = Double.doubleToRawLongBits(value);
        int exponent = (int) (bits >>> 52) & 0x7ff;
        if (exponent > LARGEST_FIXED_EXPONENT || bits == NEGATIVE_ZERO_BITS) {
          other(i).add(value);
          continue;
        }
        long significand = (bits & FRACTION_MASK) | (exponent == 0 ? 0L : 1L << 52);
        int scale = Math.max(exponent, 1) - 1;
        int chunk = i * CHUNKS + (scale >>> 5);
        int shift = scale & (DIGIT_BITS - 1);
        long low = (significand << shift) & DIGIT_MASK;
        long high = significand >>> (DIGIT_BITS - shift);
        if (bits < 0) {
          chunks[chunk] -= low;
          chunks[chunk + 1] -= high;
        } else {
          chunks[chunk] += low;
          chunks[chunk + 1] += high;
        }
        fixedValues[i] = true;
      }
      vectorsSinceCarry++;
      return this;
    }

    /** Adds every element sum of {@code other}; {@code other}'s value is unchanged. */
    public Vector add(Vector other) {
      if (other.length == 0) {
        return this;
      }
      ensureLength(other.length);
      carry();
      other.carry();
      for (int j = 0; j < chunks.length; j++) {
        chunks[j] += other.chunks[j];
      }
      for (int i = 0; i < length; i++) {
        fixedValues[i] |= other.fixedValues[i];
        if (other.others != null && other.others[i] != null) {
          other(i).add(other.others[i]);
        }
      }
      carry();
      return this;
    }

    private ExactSum other(int element) {
      if (others == null) {
        others = new ExactSum[length];
      }
      if (others[element] == null) {
        others[element] = new ExactSum();
      }
      return others[element];
    }

    /** Carries each chunk's bits above its 32-bit digit into the next chunk; the value is unchanged. */
    private void carry() {
      for (int base = 0; base < chunks.length; base += CHUNKS) {
        for (int k = 0; k < CHUNKS - 1; k++) {
          long chunk = chunks[base + k];
          long carried = chunk >> DIGIT_BITS;
          chunks[base + k] = chunk & DIGIT_MASK;
          chunks[base + k + 1] += carried;
        }
      }
      vectorsSinceCarry = 0;
    }

    private void ensureLength(int newLength) {
      if (length == 0 && newLength > 0) {
        length = newLength;
        chunks = new long[newLength * CHUNKS];
        fixedValues = new boolean[newLength];
      } else if (length != newLength) {
        throw new IllegalArgumentException("exact vector sum: a vector of length " + newLength
            + " added to sums of length " + length);
      }
    }

    /** The correctly rounded sum of each element; an empty array if nothing was added. */
    public double[] values() {
      carry();
      double[] out = new double[length];
      for (int i = 0; i < length; i++) {
        ExactSum sum = new ExactSum();
        if (others != null && others[i] != null) {
          sum.add(others[i]);
        }
        boolean digits = false;
        for (int k = 0; k < CHUNKS; k++) {
          long digit = chunks[i * CHUNKS + k];
          if (digit != 0) {
            // |digit| < 2^53 (the top chunk holds at most the count of values times 2^18), and its
            // weight is a power of two from 2^-1074 up: the product is exactly a double.
            sum.add(Math.scalb((double) digit, DIGIT_BITS * k - 1074));
            digits = true;
          }
        }
        if (!digits && fixedValues[i]) {
          sum.add(0.0);
        }
        out[i] = sum.value();
      }
      return out;
    }
  }
}
