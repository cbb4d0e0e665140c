package dev.l0.kernels.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic argument sets for checking a {@link CudaMathRoutine} against the JVM: the special
 * values every function must get right (zeros, subnormals, infinities, NaN, the extremes), the
 * function's own hard places (exp's overflow and underflow thresholds, log near 1, sin and cos at
 * multiples of pi/2 and at huge arguments that need Payne-Hanek reduction, the interval boundaries
 * of erf, e_pow.c's table of special cases, pow results at the edges of the double range),
 * uniformly drawn ordinary arguments and random bit patterns. f32 routines get the same arguments
 * rounded to float plus random float bit patterns. The same routine and count always give the same
 * arguments, as IEEE double bit patterns.
 */
public final class CudaMathInputs {
  private static final double[] SPECIALS = {
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL - Double.MIN_VALUE,
    -(Double.MIN_NORMAL - Double.MIN_VALUE),
    Double.MIN_NORMAL,
    -Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    3.0,
    -3.0,
    1.5,
    -1.5,
    10.0,
    1e-300,
    -1e-300,
    1e300,
    -1e300,
    Math.PI,
    -Math.PI,
    Math.PI / 2,
    -Math.PI / 2,
    Math.PI / 4,
    Math.E,
    Float.MIN_VALUE,
    Float.MAX_VALUE,
    Float.MIN_NORMAL,
    0x1p-28,
    0x1p-27,
    0x1p-20,
    0x1p31,
    0x1p52,
    0x1p53,
    0x1p63,
    0x1p64,
    0x1p-1022,
    0x1p-1074,
    1e10,
    1e22,
    1e300
  };

  /**
   * y values of e_pow.c's special cases: zeros, +-1, 2, 0.5, infinities, NaN, huge, odd and even
   * integers.
   */
  private static final double[] POW_EXPONENTS = {
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
    -1.5,
    0.25,
    1e300,
    -1e300,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    0x1p31 - 1,
    0x1p31 + 1,
    -(0x1p31 + 1),
    0x1p52 + 1,
    0x1p53,
    0x1p53 + 2,
    -0x1p53,
    0x1p64,
    0x1.8p64,
    -0x1p65,
    1023.0,
    1024.0,
    1075.0,
    -1074.0,
    -1075.0,
    -1076.0,
    1e-20,
    Double.MAX_VALUE
  };

  /** 6381956970095103 * 2^797, the double closest to a multiple of pi/2 (x mod pi/2 = 4.7e-19). */
  private static final double HARDEST_REDUCTION = 0x1.6ac5b262ca1ffp+849;

  private static final double LN2 = 0x1.62e42fefa39efp-1;
  private static final double EXP_OVERFLOW = 0x1.62e42fefa39efp9;
  private static final double EXP_UNDERFLOW = -0x1.74910d52d3051p9;
  private static final double[] ERF_BOUNDARIES = {0.84375, 1.25, 1 / 0.35, 6.0, 0x1p-28, 0x1p-1015};

  private final long[] first;
  private final long[] second;

  private CudaMathInputs(long[] first, long[] second) {
    this.first = first;
    this.second = second;
  }

  /** {@code count} argument pairs for {@code routine} (the second is 0 for unary functions). */
  public static CudaMathInputs forRoutine(CudaMathRoutine routine, int count) {
    Draws draws = new Draws(new SplittableRandom(0x4c30_4d61_7468L + routine.id()));
    List<double[]> pairs = new ArrayList<>(count);
    specialPairs(routine.function(), pairs);
    while (pairs.size() < count) {
      pairs.add(ordinaryPair(routine.function(), draws));
    }
    long[] first = new long[count];
    long[] second = new long[count];
    for (int i = 0; i < count; i++) {
      double[] pair = pairs.get(i);
      if (routine.singlePrecision()) {
        boolean floatBits = draws.chance(0.25);
        first[i] =
            Double.doubleToRawLongBits(floatBits ? draws.floatBitPattern() : (float) pair[0]);
        second[i] =
            Double.doubleToRawLongBits(
                floatBits && draws.chance(0.5) ? draws.floatBitPattern() : (float) pair[1]);
      } else {
        first[i] = Double.doubleToRawLongBits(pair[0]);
        second[i] = Double.doubleToRawLongBits(pair[1]);
      }
    }
    return new CudaMathInputs(first, second);
  }

  public int size() {
    return first.length;
  }

  public long first(int index) {
    return first[index];
  }

  public long second(int index) {
    return second[index];
  }

  public long[] firstBits() {
    return first.clone();
  }

  public long[] secondBits() {
    return second.clone();
  }

  private static void specialPairs(CudaMathFunction function, List<double[]> pairs) {
    if (function.arity() == 2) {
      for (double x : SPECIALS) {
        for (double y : POW_EXPONENTS) {
          pairs.add(new double[] {x, y});
        }
      }
      return;
    }
    for (double x : SPECIALS) {
      pairs.add(new double[] {x, 0.0});
    }
    if (function == CudaMathFunction.SIN || function == CudaMathFunction.COS) {
      long hardest = Double.doubleToRawLongBits(HARDEST_REDUCTION);
      for (long step = -4; step <= 4; step++) {
        double x = Double.longBitsToDouble(hardest + step);
        pairs.add(new double[] {x, 0.0});
        pairs.add(new double[] {-x, 0.0});
      }
    }
  }

  private static double[] ordinaryPair(CudaMathFunction function, Draws d) {
    if (d.chance(0.1)) {
      return new double[] {d.bitPattern(), d.bitPattern()};
    }
    switch (function) {
      case EXP:
        return unary(
            d.pick(
                d.uniform(-750, 750),
                d.uniform(-110, 90),
                d.uniform(-1, 1),
                d.near(EXP_OVERFLOW, 4096),
                d.near(EXP_UNDERFLOW, 4096),
                d.uniform(-745.2, -708),
                d.signed(d.magnitude(-70, -15)),
                d.near(d.sign() * 0.5 * LN2, 64),
                d.near(d.sign() * 1.5 * LN2, 64)));
      case LOG:
        return unary(
            d.pick(
                d.magnitude(-1074, 1023),
                d.uniform(0, 4),
                d.near(1.0, 1 << 20),
                1.0 + d.uniform(-0x1p-19, 0x1p-19),
                d.near(d.magnitude(-1022, 1023), 8),
                -d.magnitude(-1074, 1023)));
      case SIN:
      case COS:
        return unary(
            d.pick(
                d.uniform(-10, 10),
                d.uniform(-1e6, 1e6),
                d.near(d.integer(1 << 20) * (Math.PI / 2), 8),
                d.near(d.integer(1_000_000_000) * (Math.PI / 2), 8),
                d.signed(d.magnitude(20, 1023)),
                d.signed(d.magnitude(-60, 20)),
                d.near(d.sign() * Math.PI / 4, 64),
                d.near(d.sign() * 0x1p19 * Math.PI / 2, 64)));
      case ERF:
        return unary(
            d.pick(
                d.uniform(-7, 7),
                d.uniform(-1.5, 1.5),
                d.near(d.sign() * ERF_BOUNDARIES[d.index(ERF_BOUNDARIES.length)], 256),
                d.signed(d.magnitude(-1074, 10))));
      case SQRT:
        return unary(
            d.pick(d.magnitude(-1074, 1023), d.uniform(0, 100), -d.magnitude(-1074, 1023)));
      case FLOOR:
        return unary(
            d.pick(
                d.uniform(-1e6, 1e6),
                d.uniform(-2, 2),
                d.near(d.integer(1 << 30) - (1 << 29), 4),
                d.signed(d.magnitude(-5, 60)),
                d.signed(d.magnitude(-1074, 1023))));
      case POW:
        return d.pickPair(
            new double[] {d.uniform(0, 10), d.uniform(-100, 100)},
            new double[] {d.magnitude(-1074, 1023), d.uniform(-5, 5)},
            new double[] {1.0 + d.uniform(-0x1p-21, 0x1p-21), d.signed(d.magnitude(31, 70))},
            new double[] {-d.uniform(0, 10), d.integer(201) - 100.0},
            new double[] {-d.uniform(0, 10), d.uniform(-100, 100)},
            edgeOfRange(d),
            new double[] {d.near(1.0, 64), d.signed(d.magnitude(0, 64))});
      default:
        throw new IllegalStateException("no arguments for " + function);
    }
  }

  /** x^y near the overflow threshold 2^1024 or the subnormal range 2^-1022..2^-1075. */
  private static double[] edgeOfRange(Draws d) {
    double x = d.uniform(1.001, 20);
    double exponent = d.chance(0.5) ? d.uniform(1020, 1026) : -d.uniform(1015, 1080);
    return new double[] {x, exponent / (Math.log(x) / LN2)};
  }

  private static double[] unary(double x) {
    return new double[] {x, 0.0};
  }

  /** Random draws from one seeded generator. */
  private static final class Draws {
    private final SplittableRandom random;

    Draws(SplittableRandom random) {
      this.random = random;
    }

    boolean chance(double probability) {
      return random.nextDouble() < probability;
    }

    int index(int bound) {
      return random.nextInt(bound);
    }

    long integer(int bound) {
      return random.nextInt(bound);
    }

    double sign() {
      return random.nextBoolean() ? 1.0 : -1.0;
    }

    double signed(double x) {
      return sign() * x;
    }

    double uniform(double low, double high) {
      return low + (high - low) * random.nextDouble();
    }

    /**
     * A positive double with a uniformly drawn binary exponent in [low, high] and random
     * significand bits.
     */
    double magnitude(int lowExponent, int highExponent) {
      int exponent = lowExponent + random.nextInt(highExponent - lowExponent + 1);
      double significand = 1.0 + random.nextDouble();
      return Math.scalb(significand, exponent);
    }

    /** A double within {@code ulps} representable steps of {@code x}. */
    double near(double x, int ulps) {
      long bits = Double.doubleToRawLongBits(x) + random.nextInt(2 * ulps + 1) - ulps;
      return Double.longBitsToDouble(bits);
    }

    double bitPattern() {
      return Double.longBitsToDouble(random.nextLong());
    }

    double floatBitPattern() {
      return Float.intBitsToFloat(random.nextInt());
    }

    /** One of the already drawn candidates, uniformly. */
    double pick(double... candidates) {
      return candidates[random.nextInt(candidates.length)];
    }

    /** One of the already drawn argument pairs, uniformly. */
    double[] pickPair(double[]... candidates) {
      return candidates[random.nextInt(candidates.length)];
    }
  }
}
