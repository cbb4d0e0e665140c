package dev.l0.kernels.exact;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An exact sum of doubles: Shewchuk's non-overlapping expansion ("partials", as Python's {@code
 * math.fsum} keeps them), each {@link #add(double)} exact by two-sum, {@link #add(ExactSum)} exact
 * by adding the other's partials, and {@link #value()} rounded once, to nearest with ties to even.
 * So the value is the correctly rounded sum of every value added, whatever their order and however
 * they were split between accumulators and merged: bit-identical across partitionings.
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
      throw new ArithmeticException(
          "exact sum: intermediate overflow (the sum's magnitude passes " + Double.MAX_VALUE + ")");
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
}
