package dev.l0.math;

import static dev.l0.math.Fdlibm.*;

/**
 * L0's math built-ins, computed exactly as {@link StrictMath} (fdlibm 5.3) computes them, so that
 * the interpreter, the JVM backend and the CUDA kernels agree bit for bit (ARCHITECTURE.md,
 * "Kernels"). The {@code f32} versions (suffix {@code f}, as in C) compute in {@code double} and
 * round the result to {@code float} once.
 *
 * <p>{@code erf} is not in {@code StrictMath}; {@link #erf(double)} follows fdlibm's {@code
 * s_erf.c} (Sun Microsystems, 1993) step for step: the same four rational approximations with the
 * published coefficients, the same interval boundaries (tested on the high word of the IEEE
 * representation) and the same {@code exp} splitting trick, using {@link #exp} (equal to {@code
 * StrictMath.exp}) where fdlibm calls {@code __ieee754_exp}. It is plain straight-line double
 * arithmetic so that the CUDA device function can mirror it.
 */
public final class L0Math {
  private L0Math() {}

  /**
   * {@code StrictMath.exp}, bit for bit: fdlibm's e_exp.c for the common range 2^-28 <= |x| <
   * 709.78 (the same operations in the same order as the JDK's {@code FdLibm.Exp}, with the sign's
   * table lookups written as conditionals and the exponent added to the whole bit pattern, whose
   * low word it leaves unchanged), {@code StrictMath.exp} itself for the rest (tiny, huge,
   * non-finite). Exp-bound kernels (FinPar's InterestCalib) spend most of their time here;
   * bench/README.md has the measurements.
   */
  public static double exp(double x) {
    long bits = Double.doubleToRawLongBits(x);
    int hx = (int) (bits >>> 32) & 0x7fffffff;
    if (hx >= 0x40862E42 || hx < 0x3e300000) {
      return StrictMath.exp(x);
    }
    double hi = 0.0;
    double lo = 0.0;
    int k = 0;
    double r = x;
    if (hx > 0x3fd62e42) {
      boolean negative = bits < 0;
      if (hx < 0x3FF0A2B2) {
        hi = negative ? x - -LN2_HI : x - LN2_HI;
        lo = negative ? -LN2_LO : LN2_LO;
        k = negative ? -1 : 1;
      } else {
        k = (int) (INV_LN2 * x + (negative ? -0.5 : 0.5));
        double t = k;
        hi = x - t * LN2_HI;
        lo = t * LN2_LO;
      }
      r = hi - lo;
    }
    double t = r * r;
    double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0) {
      return 1.0 - ((r * c) / (c - 2.0) - r);
    }
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
      return Double.longBitsToDouble(Double.doubleToRawLongBits(y) + ((long) k << 52));
    }
    return Double.longBitsToDouble(Double.doubleToRawLongBits(y) + ((long) (k + 1000) << 52))
        * TWO_M1000;
  }

  /**
   * {@code StrictMath.log(x)}, bit for bit: fdlibm's {@code e_log.c} step for step, in Java. The
   * JDK 17 {@code StrictMath.log} is a native method, and the call into native code cost more than
   * the function itself in the kernels of FinPar's OptionPricing (its inverse normal takes a log on
   * 15% of the draws); JDK 21 replaced it by the same Java translation (FdLibm.Log).
   */
  public static double log(double x) {
    long bits = Double.doubleToRawLongBits(x);
    int hx = (int) (bits >> 32); // the high word
    if (hx < 0x00100000 || hx >= 0x7ff00000) {
      return logOutsideNormals(x, bits, hx);
    }
    return logOfNormal(bits, hx, 0);
  }

  /**
   * {@link #log} of what is not a positive normal number: zeros, negatives, subnormals (scaled up
   * by 2^54 first), infinities and NaNs. Apart, so that the common path is small enough for the JIT
   * compiler to inline into a hot loop.
   */
  private static double logOutsideNormals(double x, long bits, int hx) {
    if (hx >= 0x7ff00000) {
      return x + x;
    }
    if (((hx & 0x7fffffff) | (int) bits) == 0) {
      return -TWO54 / 0.0; // log(+-0) = -inf
    }
    if (hx < 0) {
      return (x - x) / 0.0; // log(-#) = NaN
    }
    long scaled = Double.doubleToRawLongBits(x * TWO54); // subnormal: scale x up
    return logOfNormal(scaled, (int) (scaled >> 32), -54);
  }

  /**
   * fdlibm's {@code e_log.c} from the normalisation on, for the positive normal number {@code bits}
   * (high word {@code hx}) whose exponent is {@code k} more than its own.
   */
  private static double logOfNormal(long bits, int hx, int k) {
    k += (hx >> 20) - 1023;
    hx &= 0x000fffff;
    int i = (hx + 0x95f64) & 0x100000;
    // x or x/2 normalised into [sqrt(2)/2, sqrt(2))
    double x =
        Double.longBitsToDouble(((long) (hx | (i ^ 0x3ff00000)) << 32) | (bits & 0xffffffffL));
    k += i >> 20;
    double f = x - 1.0;
    if ((0x000fffff & (2 + hx)) < 3) { // -2^-20 <= f < 2^-20
      return logNearOne(f, k);
    }
    double s = f / (2.0 + f);
    double dk = k;
    double z = s * s;
    double w = z * z;
    double t1 = w * (LG2 + w * (LG4 + w * LG6));
    double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    double r = t2 + t1;
    if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
      double hfsq = 0.5 * f * f;
      if (k == 0) {
        return f - (hfsq - s * (hfsq + r));
      }
      return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f);
    }
    if (k == 0) {
      return f - s * (f - r);
    }
    return dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f);
  }

  /** {@link #logOfNormal} where the normalised mantissa {@code 1 + f} is within 2^-20 of 1. */
  private static double logNearOne(double f, int k) {
    if (f == 0.0) {
      if (k == 0) {
        return 0.0;
      }
      double dk = k;
      return dk * LN2_HI + dk * LN2_LO;
    }
    double r = f * f * (0.5 - 0.33333333333333333 * f);
    if (k == 0) {
      return f - r;
    }
    double dk = k;
    return dk * LN2_HI - ((r - dk * LN2_LO) - f);
  }

  public static double sqrt(double x) {
    return StrictMath.sqrt(x);
  }

  public static double sin(double x) {
    return StrictMath.sin(x);
  }

  public static double cos(double x) {
    return StrictMath.cos(x);
  }

  public static double floor(double x) {
    return StrictMath.floor(x);
  }

  public static double pow(double x, double y) {
    return StrictMath.pow(x, y);
  }

  public static float expf(float x) {
    return (float) exp(x);
  }

  public static float logf(float x) {
    return (float) log(x);
  }

  public static float sqrtf(float x) {
    return (float) sqrt(x);
  }

  public static float sinf(float x) {
    return (float) sin(x);
  }

  public static float cosf(float x) {
    return (float) cos(x);
  }

  public static float floorf(float x) {
    return (float) floor(x);
  }

  public static float erff(float x) {
    return (float) erf(x);
  }

  public static float powf(float x, float y) {
    return (float) pow(x, y);
  }

  /** The error function, as fdlibm's {@code s_erf.c} computes it (see the class comment). */
  public static double erf(double x) {
    int hx = (int) (Double.doubleToRawLongBits(x) >>> 32);
    int ix = hx & 0x7fffffff;
    if (ix >= 0x7ff00000) { // NaN stays NaN; erf(+-inf) = +-1
      int sign = (hx >>> 31) << 1;
      return (1 - sign) + 1.0 / x;
    }
    if (ix < 0x3feb0000) { // |x| < 0.84375
      if (ix < 0x3e300000) { // |x| < 2^-28
        if (ix < 0x00800000) {
          return 0.125 * (8.0 * x + EFX8 * x); // avoids underflow
        }
        return x + EFX * x;
      }
      double z = x * x;
      double r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
      double s = 1.0 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
      double y = r / s;
      return x + x * y;
    }
    if (ix < 0x3ff40000) { // 0.84375 <= |x| < 1.25
      double s = Math.abs(x) - 1.0;
      double p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
      double q = 1.0 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
      return hx >= 0 ? ERX + p / q : -ERX - p / q;
    }
    if (ix >= 0x40180000) { // |x| >= 6
      return hx >= 0 ? 1.0 - TINY : TINY - 1.0;
    }
    double ax = Math.abs(x);
    double s = 1.0 / (ax * ax);
    double r;
    double q;
    if (ix < 0x4006DB6E) { // |x| < 1/0.35
      r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
      q =
          1.0
              + s
                  * (SA1
                      + s
                          * (SA2
                              + s
                                  * (SA3
                                      + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
    } else {
      r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
      q = 1.0 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
    }
    // z is |x| with the low 32 bits of its representation cleared, so z * z is exact.
    double z = Double.longBitsToDouble(Double.doubleToRawLongBits(ax) & 0xffffffff00000000L);
    double e = exp(-z * z - 0.5625) * exp((z - ax) * (z + ax) + r / q);
    return hx >= 0 ? 1.0 - e / ax : e / ax - 1.0;
  }
}
