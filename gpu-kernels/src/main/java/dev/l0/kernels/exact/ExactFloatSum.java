package dev.l0.kernels.exact;

/**
 * Exact sums of whole {@code f64} and {@code f32} arrays, and an exact sum rounded once to
 * {@code f32}: what an exact float reduce needs besides {@link ExactSum} itself. Adding arrays
 * element by element into one accumulator boxes nothing; rounding to {@code f32} goes straight from
 * the exact sum (rounding it to a {@code double} first and then to a {@code float} could round twice).
 */
public final class ExactFloatSum {
  private ExactFloatSum() {}

  /** The exact sum of {@code values}. */
  public static ExactSum of(double[] values) {
    ExactSum sum = new ExactSum();
    for (double value : values) {
      sum.add(value);
    }
    return sum;
  }

  /** The exact sum of {@code values} (each widened to a {@code double}, exactly). */
  public static ExactSum of(float[] values) {
    ExactSum sum = new ExactSum();
    for (float value : values) {
      sum.add(value);
    }
    return sum;
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
