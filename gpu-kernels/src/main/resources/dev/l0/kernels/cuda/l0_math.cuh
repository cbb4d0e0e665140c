/*
 * l0_math.cuh: exp, log, pow, sin, cos, erf, sqrt and floor with java.lang.StrictMath's results,
 * bit for bit, on a CUDA device and on the host (ARCHITECTURE.md, "Kernels").
 *
 * StrictMath is specified as the fdlibm 5.3 algorithms (e_exp.c, e_log.c, e_pow.c, k_sin.c,
 * k_cos.c, e_rem_pio2.c, k_rem_pio2.c, s_sin.c, s_cos.c, s_floor.c, s_scalbn.c); erf follows
 * fdlibm's s_erf.c, as dev.l0.math.L0Math does on the JVM. Each function below performs the same
 * IEEE double operations in the same order as those algorithms, written afresh from their
 * published descriptions: argument reductions, polynomial coefficients and splitting constants
 * are the published ones (hexadecimal float literals, so no decimal conversion can move a bit).
 * sqrt is correctly rounded everywhere, so it is the hardware's.
 *
 * Only + - * /, comparisons, conversions between double and int and bit manipulation are used.
 * The results are identical on every machine with IEEE double arithmetic (GPUs; SSE2 or any
 * 64-bit host, not x87 extended precision) provided nothing contracts a*b+c into a fused
 * multiply-add: compile with `nvcc -fmad=false` and with `gcc -ffp-contract=off`, and never with
 * fast-math options. f32 math is the product's definition: compute in double, round to float.
 *
 * The same text compiles as CUDA C++ (every function __host__ __device__) and as C99 or C++ on
 * the host (the CUDA qualifiers vanish when __CUDACC__ is undefined). Every function is static,
 * so the header can be included by several translation units.
 */
#ifndef L0_MATH_CUH
#define L0_MATH_CUH

#ifdef __CUDACC__
#define L0_MATH_FN static __host__ __device__ inline
#else
#define L0_MATH_FN static inline
#endif
#ifndef __CUDACC_RTC__ /* NVRTC compiles device code only and has no host headers */
#include <math.h>
#include <string.h>
#endif

/* ---- IEEE 754 double bit access: the high word holds sign, exponent and 20 fraction bits ---- */

L0_MATH_FN long long l0_double_bits(double x) {
#ifdef __CUDA_ARCH__
  return __double_as_longlong(x);
#else
  long long bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
#endif
}

L0_MATH_FN double l0_bits_double(long long bits) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double(bits);
#else
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

L0_MATH_FN int l0_high_word(double x) { return (int)(l0_double_bits(x) >> 32); }

L0_MATH_FN unsigned l0_low_word(double x) { return (unsigned)(l0_double_bits(x) & 0xffffffffLL); }

L0_MATH_FN double l0_from_words(int high, unsigned low) {
  return l0_bits_double((long long)(((unsigned long long)(unsigned)high << 32) | low));
}

L0_MATH_FN double l0_with_high_word(double x, int high) { return l0_from_words(high, l0_low_word(x)); }

L0_MATH_FN double l0_with_low_word(double x, unsigned low) { return l0_from_words(l0_high_word(x), low); }

/* x with its low 32 bits cleared: the "hi part" splits of fdlibm (__LO(x) = 0). */
L0_MATH_FN double l0_clear_low_word(double x) { return l0_with_low_word(x, 0u); }

/* n << 20 without the undefined behaviour of shifting a negative int. */
L0_MATH_FN int l0_exponent_field(int n) { return (int)((unsigned)n << 20); }

L0_MATH_FN double l0_abs(double x) { return l0_bits_double(l0_double_bits(x) & 0x7fffffffffffffffLL); }

L0_MATH_FN double l0_copysign(double magnitude, double sign) {
  return l0_bits_double((l0_double_bits(magnitude) & 0x7fffffffffffffffLL)
                        | (l0_double_bits(sign) & (long long)0x8000000000000000ULL));
}

/* Constants that raise overflow or underflow when squared (fdlibm's huge and tiny). Where fdlibm
 * returns huge*huge or tiny*tiny as a constant result, the functions below return the value that
 * product has (infinity, zero), so compilers need not fold an overflowing constant expression. */
#define L0_MATH_HUGE 1.0e+300
#define L0_MATH_TINY 1.0e-300

L0_MATH_FN double l0_infinity(void) { return l0_bits_double(0x7ff0000000000000LL); }

/* ---- floor (s_floor.c): clear the fraction bits below the binary point, rounding toward -inf ---- */

L0_MATH_FN double l0_floor(double x) {
  int high = l0_high_word(x);
  unsigned low = l0_low_word(x);
  int exponent = ((high >> 20) & 0x7ff) - 0x3ff;
  if (exponent < 20) {
    if (exponent < 0) { /* |x| < 1: +0 for x >= 0, -1 for x < 0, -0 stays -0 */
      if (high >= 0) {
        high = 0;
        low = 0;
      } else if (((high & 0x7fffffff) | low) != 0) {
        high = (int)0xbff00000;
        low = 0;
      }
    } else {
      int fraction_mask = 0x000fffff >> exponent;
      if (((high & fraction_mask) | low) == 0) {
        return x; /* x is integral */
      }
      if (high < 0) {
        high += 0x00100000 >> exponent;
      }
      high &= ~fraction_mask;
      low = 0;
    }
  } else if (exponent > 51) {
    return exponent == 0x400 ? x + x : x; /* inf or NaN, or integral */
  } else {
    unsigned fraction_mask = 0xffffffffu >> (exponent - 20);
    if ((low & fraction_mask) == 0) {
      return x; /* x is integral */
    }
    if (high < 0) {
      if (exponent == 20) {
        high += 1;
      } else {
        unsigned rounded = low + (1u << (52 - exponent));
        if (rounded < low) {
          high += 1; /* carry into the high word */
        }
        low = rounded;
      }
    }
    low &= ~fraction_mask;
  }
  return l0_from_words(high, low);
}

/* ---- scalbn (s_scalbn.c): x * 2^n by exponent manipulation, one rounding for subnormal results ---- */

L0_MATH_FN double l0_scalbn(double x, int n) {
  const double two54 = 0x1p54;
  const double twom54 = 0x1p-54;
  int high = l0_high_word(x);
  unsigned low = l0_low_word(x);
  int exponent = (high & 0x7ff00000) >> 20;
  if (exponent == 0) { /* 0 or subnormal x */
    if ((low | (high & 0x7fffffff)) == 0) {
      return x;
    }
    x *= two54;
    high = l0_high_word(x);
    exponent = ((high & 0x7ff00000) >> 20) - 54;
    if (n < -50000) {
      return L0_MATH_TINY * x;
    }
  }
  if (exponent == 0x7ff) {
    return x + x; /* inf or NaN */
  }
  exponent += n;
  if (exponent > 0x7fe) {
    return L0_MATH_HUGE * l0_copysign(L0_MATH_HUGE, x); /* overflow */
  }
  if (exponent > 0) {
    return l0_with_high_word(x, (high & (int)0x800fffff) | l0_exponent_field(exponent));
  }
  if (exponent <= -54) {
    if (n > 50000) {
      return L0_MATH_HUGE * l0_copysign(L0_MATH_HUGE, x); /* overflow when n + exponent wrapped */
    }
    return L0_MATH_TINY * l0_copysign(L0_MATH_TINY, x); /* underflow */
  }
  exponent += 54; /* subnormal result */
  x = l0_with_high_word(x, (high & (int)0x800fffff) | l0_exponent_field(exponent));
  return x * twom54;
}

/* ---- sqrt: correctly rounded by IEEE 754, so the hardware's instruction is StrictMath's ---- */

L0_MATH_FN double l0_sqrt(double x) {
#ifdef __CUDA_ARCH__
  return __dsqrt_rn(x);
#else
  return sqrt(x);
#endif
}

/* ---- exp (e_exp.c) ----
 * Reduce x = k*ln2 + r with |r| <= ln2/2 (r = hi - lo, ln2 split so k*ln2_hi is exact),
 * approximate exp(r) = 1 + r + r*R1(r)/(2 - R1(r)) with a degree-5 Remez polynomial in r*r,
 * and scale by 2^k through the exponent field.
 */
L0_MATH_FN double l0_exp(double x) {
  const double overflow_threshold = 0x1.62e42fefa39efp9;    /* 709.782712893383973096 */
  const double underflow_threshold = -0x1.74910d52d3051p9;  /* -745.133219101941108420 */
  const double ln2_hi = 0x1.62e42feep-1;
  const double ln2_lo = 0x1.a39ef35793c76p-33;
  const double inv_ln2 = 0x1.71547652b82fep0;
  const double twom1000 = 0x1p-1000;
  const double P1 = 0x1.555555555553ep-3;
  const double P2 = -0x1.6c16c16bebd93p-9;
  const double P3 = 0x1.1566aaf25de2cp-14;
  const double P4 = -0x1.bbd41c5d26bf1p-20;
  const double P5 = 0x1.6376972bea4d0p-25;
  double hi = 0.0;
  double lo = 0.0;
  int k = 0;
  int high = l0_high_word(x);
  int negative = (high >> 31) & 1;
  high &= 0x7fffffff; /* high word of |x| */

  if (high >= 0x40862E42) { /* |x| >= 709.78...: non-finite, overflow or underflow */
    if (high >= 0x7ff00000) {
      if (((high & 0xfffff) | l0_low_word(x)) != 0) {
        return x + x; /* NaN */
      }
      return negative ? 0.0 : x; /* exp(+inf) = inf, exp(-inf) = 0 */
    }
    if (x > overflow_threshold) {
      return l0_infinity(); /* huge*huge */
    }
    if (x < underflow_threshold) {
      return 0.0; /* twom1000*twom1000 */
    }
  }

  if (high > 0x3fd62e42) { /* |x| > ln2/2 */
    if (high < 0x3FF0A2B2) { /* and |x| < 3*ln2/2: k = +-1 */
      hi = negative ? x + ln2_hi : x - ln2_hi;
      lo = negative ? -ln2_lo : ln2_lo;
      k = 1 - negative - negative;
    } else {
      double t;
      k = (int)(inv_ln2 * x + (negative ? -0.5 : 0.5));
      t = k;
      hi = x - t * ln2_hi; /* t*ln2_hi is exact here */
      lo = t * ln2_lo;
    }
    x = hi - lo;
  } else if (high < 0x3e300000) { /* |x| < 2^-28: exp(x) rounds to 1 + x */
    return 1.0 + x;
  }

  {
    double t = x * x;
    double c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double y;
    if (k == 0) {
      return 1.0 - ((x * c) / (c - 2.0) - x);
    }
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
      return l0_with_high_word(y, l0_high_word(y) + l0_exponent_field(k));
    }
    y = l0_with_high_word(y, l0_high_word(y) + l0_exponent_field(k + 1000));
    return y * twom1000; /* subnormal result */
  }
}

/* ---- log (e_log.c) ----
 * Write x = 2^k * (1+f) with sqrt(2)/2 < 1+f < sqrt(2); with s = f/(2+f),
 * log(1+f) = f - s*(f - R(s*s)) or f - (hfsq - s*(hfsq + R)) (hfsq = f*f/2), R a degree-14
 * Remez polynomial; then log(x) = k*ln2_hi + (log(1+f) + k*ln2_lo).
 */
L0_MATH_FN double l0_log(double x) {
  const double two54 = 0x1p54;
  const double ln2_hi = 0x1.62e42feep-1;
  const double ln2_lo = 0x1.a39ef35793c76p-33;
  const double Lg1 = 0x1.5555555555593p-1;
  const double Lg2 = 0x1.999999997fa04p-2;
  const double Lg3 = 0x1.2492494229359p-2;
  const double Lg4 = 0x1.c71c51d8e78afp-3;
  const double Lg5 = 0x1.7466496cb03dep-3;
  const double Lg6 = 0x1.39a09d078c69fp-3;
  const double Lg7 = 0x1.2f112df3e5244p-3;
  double f, s, z, w, R, dk;
  int k = 0;
  int high = l0_high_word(x);
  unsigned low = l0_low_word(x);
  int i, j;

  if (high < 0x00100000) { /* x < 2^-1022: zero, negative or subnormal */
    if (((high & 0x7fffffff) | low) == 0) {
      return -l0_infinity(); /* log(+-0) = -two54/0 = -inf */
    }
    if (high < 0) {
      return (x - x) / (x - x); /* log(negative) = (x-x)/0 = NaN */
    }
    k -= 54;
    x *= two54; /* scale a subnormal up */
    high = l0_high_word(x);
  }
  if (high >= 0x7ff00000) {
    return x + x; /* inf or NaN */
  }
  k += (high >> 20) - 1023;
  high &= 0x000fffff;
  i = (high + 0x95f64) & 0x100000;
  x = l0_with_high_word(x, high | (i ^ 0x3ff00000)); /* normalise x or x/2 */
  k += i >> 20;
  f = x - 1.0;
  dk = (double)k;
  if ((0x000fffff & (2 + high)) < 3) { /* |f| < 2^-20 */
    if (f == 0.0) {
      return k == 0 ? 0.0 : dk * ln2_hi + dk * ln2_lo;
    }
    R = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - R : dk * ln2_hi - ((R - dk * ln2_lo) - f);
  }
  s = f / (2.0 + f);
  z = s * s;
  i = high - 0x6147a;
  w = z * z;
  j = 0x6b851 - high;
  R = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7))) + w * (Lg2 + w * (Lg4 + w * Lg6));
  i |= j;
  if (i > 0) {
    double hfsq = 0.5 * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + R))
                  : dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
  }
  return k == 0 ? f - s * (f - R) : dk * ln2_hi - ((s * (f - R) - dk * ln2_lo) - f);
}

/* ---- pow (e_pow.c) ----
 * pow(x,y) = 2^(y*log2(x)). log2(|x|) is computed in extra precision as t1 + t2 (t1 with its low
 * word cleared), y is split the same way into y1 + y2, the product y*log2(x) = p_h + p_l is
 * checked for overflow and underflow, and 2^(p_h+p_l) is evaluated like exp with the integer
 * part moved into the exponent field. The special cases are those of e_pow.c's table.
 */

/* y's parity for x < 0: 0 = y is not an integer, 1 = odd integer, 2 = even integer. */
L0_MATH_FN int l0_pow_integer_kind(int y_abs_high, unsigned y_low) {
  if (y_abs_high >= 0x43400000) {
    return 2; /* |y| >= 2^53: every such double is even */
  }
  if (y_abs_high >= 0x3ff00000) {
    int exponent = (y_abs_high >> 20) - 0x3ff;
    if (exponent > 20) {
      unsigned integer_bits = y_low >> (52 - exponent);
      if ((integer_bits << (52 - exponent)) == y_low) {
        return 2 - (int)(integer_bits & 1u);
      }
    } else if (y_low == 0) {
      int integer_bits = y_abs_high >> (20 - exponent);
      if ((integer_bits << (20 - exponent)) == y_abs_high) {
        return 2 - (integer_bits & 1);
      }
    }
  }
  return 0;
}

L0_MATH_FN double l0_pow(double x, double y) {
  const double two53 = 0x1p53;
  const double ovt = 0x1.71547652b82fep-54; /* -(1024 - log2(overflow threshold + ulp/2)) */
  const double cp = 0x1.ec709dc3a03fdp-1;   /* 2/(3 ln2) */
  const double cp_h = 0x1.ec709ep-1;
  const double cp_l = -0x1.e2fe0145b01f5p-28;
  const double ivln2 = 0x1.71547652b82fep0; /* 1/ln2 */
  const double ivln2_h = 0x1.715476p0;
  const double ivln2_l = 0x1.4ae0bf85ddf44p-26;
  const double L1 = 0x1.3333333333303p-1;
  const double L2 = 0x1.b6db6db6fabffp-2;
  const double L3 = 0x1.55555518f264dp-2;
  const double L4 = 0x1.17460a91d4101p-2;
  const double L5 = 0x1.d864a93c9db65p-3;
  const double L6 = 0x1.a7e284a454eefp-3;
  const double P1 = 0x1.555555555553ep-3;
  const double P2 = -0x1.6c16c16bebd93p-9;
  const double P3 = 0x1.1566aaf25de2cp-14;
  const double P4 = -0x1.bbd41c5d26bf1p-20;
  const double P5 = 0x1.6376972bea4d0p-25;
  const double lg2 = 0x1.62e42fefa39efp-1;
  const double lg2_h = 0x1.62e43p-1;
  const double lg2_l = -0x1.05c610ca86c39p-29;
  double z, ax, p_h, p_l, y1, t1, t2, r, s, t, u, v, w;
  int i, j, k, y_kind, n;
  int hx = l0_high_word(x);
  unsigned lx = l0_low_word(x);
  int hy = l0_high_word(y);
  unsigned ly = l0_low_word(y);
  int ix = hx & 0x7fffffff;
  int iy = hy & 0x7fffffff;

  if ((iy | ly) == 0) {
    return 1.0; /* x^0 = 1, even for NaN x */
  }
  if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0)) {
    return x + y; /* NaN */
  }
  y_kind = hx < 0 ? l0_pow_integer_kind(iy, ly) : 0;

  if (ly == 0) { /* special values of y */
    if (iy == 0x7ff00000) { /* y = +-inf */
      if (((ix - 0x3ff00000) | lx) == 0) {
        return y - y; /* (+-1)^+-inf = NaN */
      }
      if (ix >= 0x3ff00000) {
        return hy >= 0 ? y : 0.0; /* (|x| > 1)^+-inf = inf, 0 */
      }
      return hy < 0 ? -y : 0.0; /* (|x| < 1)^-+inf = inf, 0 */
    }
    if (iy == 0x3ff00000) { /* y = +-1 */
      return hy < 0 ? 1.0 / x : x;
    }
    if (hy == 0x40000000) {
      return x * x; /* y = 2 */
    }
    if (hy == 0x3fe00000 && hx >= 0) {
      return l0_sqrt(x); /* y = 0.5, x >= +0 */
    }
  }

  ax = l0_abs(x);
  if (lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000)) { /* x = +-0, +-inf, +-1 */
    z = hy < 0 ? 1.0 / ax : ax;
    if (hx < 0) {
      if (((ix - 0x3ff00000) | y_kind) == 0) {
        z = (z - z) / (z - z); /* (-1)^non-integer = NaN */
      } else if (y_kind == 1) {
        z = -z; /* (x < 0)^odd = -(|x|^odd) */
      }
    }
    return z;
  }

  n = (hx >> 31) + 1; /* 0 for negative x, 1 otherwise */
  if ((n | y_kind) == 0) {
    return (x - x) / (x - x); /* (x < 0)^non-integer = NaN */
  }
  s = (n | (y_kind - 1)) == 0 ? -1.0 : 1.0; /* sign of the result: (-x)^odd is negative */

  if (iy > 0x41e00000) { /* |y| > 2^31 */
    if (iy > 0x43f00000) { /* |y| > 2^64: certain overflow or underflow, y even */
      if (ix <= 0x3fefffff) {
        return hy < 0 ? l0_infinity() : 0.0;
      }
      if (ix >= 0x3ff00000) {
        return hy > 0 ? l0_infinity() : 0.0;
      }
    }
    if (ix < 0x3fefffff) { /* x not close to 1: overflow or underflow (s*huge*huge, s*tiny*tiny) */
      return hy < 0 ? s * l0_infinity() : s * 0.0;
    }
    if (ix > 0x3ff00000) {
      return hy > 0 ? s * l0_infinity() : s * 0.0;
    }
    /* |1 - x| <= 2^-20: log(x) by x - x^2/2 + x^3/3 - x^4/4 */
    t = ax - 1.0; /* t has 20 trailing zeros */
    w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
    u = ivln2_h * t; /* ivln2_h has 21 significant bits */
    v = t * ivln2_l - w * ivln2;
    t1 = l0_clear_low_word(u + v);
    t2 = v - (t1 - u);
  } else {
    const double bp = 1.5;                        /* bp[1]; bp[0] = 1 */
    const double dp_h = 0x1.2b8034p-1;            /* log2(1.5) high part */
    const double dp_l = 0x1.cfdeb43cfd006p-27;    /* log2(1.5) tail */
    double ss, s2, s_h, s_l, t_h, t_l, z_h, z_l, base, log2_base_h, log2_base_l;
    n = 0;
    if (ix < 0x00100000) { /* subnormal x */
      ax *= two53;
      n -= 53;
      ix = l0_high_word(ax);
    }
    n += (ix >> 20) - 0x3ff;
    j = ix & 0x000fffff;
    ix = j | 0x3ff00000; /* normalise */
    if (j <= 0x3988E) {
      k = 0; /* |x| < sqrt(3/2) */
    } else if (j < 0xBB67A) {
      k = 1; /* |x| < sqrt(3) */
    } else {
      k = 0;
      n += 1;
      ix -= 0x00100000;
    }
    ax = l0_with_high_word(ax, ix);
    base = k == 0 ? 1.0 : bp;
    log2_base_h = k == 0 ? 0.0 : dp_h;
    log2_base_l = k == 0 ? 0.0 : dp_l;

    /* ss = s_h + s_l = (x - base)/(x + base) */
    u = ax - base;
    v = 1.0 / (ax + base);
    ss = u * v;
    s_h = l0_clear_low_word(ss);
    t_h = l0_from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0u); /* ax + base, high part */
    t_l = ax - (t_h - base);
    s_l = v * ((u - s_h * t_h) - s_h * t_l);
    /* log(ax) */
    s2 = ss * ss;
    r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
    r += s_l * (s_h + ss);
    s2 = s_h * s_h;
    t_h = l0_clear_low_word(3.0 + s2 + r);
    t_l = r - ((t_h - 3.0) - s2);
    /* u + v = ss*(1 + ...) */
    u = s_h * t_h;
    v = s_l * t_h + t_l * ss;
    /* 2/(3 ln2) * (ss + ...) */
    p_h = l0_clear_low_word(u + v);
    p_l = v - (p_h - u);
    z_h = cp_h * p_h; /* cp_h + cp_l = 2/(3 ln2) */
    z_l = cp_l * p_h + p_l * cp + log2_base_l;
    /* log2(ax) = (ss + ...)*2/(3 ln2) = n + log2_base + z_h + z_l */
    t = (double)n;
    t1 = l0_clear_low_word(((z_h + z_l) + log2_base_h) + t);
    t2 = z_l - (((t1 - t) - log2_base_h) - z_h);
  }

  /* (y1 + y2) * (t1 + t2) */
  y1 = l0_clear_low_word(y);
  p_l = (y - y1) * t1 + y * t2;
  p_h = y1 * t1;
  z = p_l + p_h;
  j = l0_high_word(z);
  i = (int)l0_low_word(z);
  if (j >= 0x40900000) { /* z >= 1024 */
    if (((j - 0x40900000) | i) != 0 || p_l + ovt > z - p_h) {
      return s * l0_infinity(); /* overflow */
    }
  } else if ((j & 0x7fffffff) >= 0x4090cc00) { /* z <= -1075 */
    if ((int)(((unsigned)j - 0xc090cc00u) | (unsigned)i) != 0 || p_l <= z - p_h) {
      return s * 0.0; /* underflow */
    }
  }

  /* 2^(p_h + p_l) */
  i = j & 0x7fffffff;
  k = (i >> 20) - 0x3ff;
  n = 0;
  if (i > 0x3fe00000) { /* |z| > 0.5: n = nearest integer to z */
    n = j + (0x00100000 >> (k + 1));
    k = ((n & 0x7fffffff) >> 20) - 0x3ff; /* exponent of n */
    t = l0_from_words(n & ~(0x000fffff >> k), 0u);
    n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) {
      n = -n;
    }
    p_h -= t;
  }
  t = l0_clear_low_word(p_l + p_h);
  u = t * lg2_h;
  v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
  z = u + v;
  w = v - (z - u);
  t = z * z;
  t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  r = (z * t1) / (t1 - 2.0) - (w + z * w);
  z = 1.0 - (r - z);
  j = l0_high_word(z) + l0_exponent_field(n);
  if ((j >> 20) <= 0) {
    z = l0_scalbn(z, n); /* subnormal result */
  } else {
    z = l0_with_high_word(z, j);
  }
  return s * z;
}

/* ---- sin and cos on [-pi/4, pi/4] (k_sin.c, k_cos.c); x + y is the reduced argument ---- */

L0_MATH_FN double l0_kernel_sin(double x, double y, int y_is_nonzero) {
  const double S1 = -0x1.5555555555549p-3;
  const double S2 = 0x1.111111110f8a6p-7;
  const double S3 = -0x1.a01a019c161d5p-13;
  const double S4 = 0x1.71de357b1fe7dp-19;
  const double S5 = -0x1.ae5e68a2b9cebp-26;
  const double S6 = 0x1.5d93a5acfd57cp-33;
  double z, r, v;
  if ((l0_high_word(x) & 0x7fffffff) < 0x3e400000) {
    return x; /* |x| < 2^-27: sin(x) rounds to x */
  }
  z = x * x;
  v = z * x;
  r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!y_is_nonzero) {
    return x + v * (S1 + z * r);
  }
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

L0_MATH_FN double l0_kernel_cos(double x, double y) {
  const double C1 = 0x1.555555555554cp-5;
  const double C2 = -0x1.6c16c16c15177p-10;
  const double C3 = 0x1.a01a019cb159p-16;
  const double C4 = -0x1.27e4f809c52adp-22;
  const double C5 = 0x1.1ee9ebdb4b1c4p-29;
  const double C6 = -0x1.8fae9be8838d4p-37;
  double z, r, qx;
  int ix = l0_high_word(x) & 0x7fffffff;
  if (ix < 0x3e400000) {
    return 1.0; /* |x| < 2^-27: cos(x) rounds to 1 */
  }
  z = x * x;
  r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3FD33333) { /* |x| < 0.3 */
    return 1.0 - (0.5 * z - (z * r - x * y));
  }
  /* subtract qx ~ x*x/4 exactly from both 1 and x*x/2 to keep the last subtraction accurate */
  qx = ix > 0x3fe90000 ? 0.28125 : l0_from_words(ix - 0x00200000, 0u);
  return (1.0 - qx) - ((0.5 * z - qx) - (z * r - x * y));
}

/* ---- Payne-Hanek reduction (k_rem_pio2.c) for |x| >= 2^19*pi/2 ----
 * x is given as nx 24-bit pieces x[i] with x[0]*2^e0 holding the leading bits. The product
 * x * 2/pi is formed from 24-bit chunks of 2/pi, skipping the chunks whose contribution is a
 * multiple of 8; the integer part mod 8 is returned and the fraction, times pi/2, is stored as
 * y[0] + y[1] (64-bit precision: jk = 4 initial terms). More terms are added while the fraction
 * cancels to zero.
 */
L0_MATH_FN int l0_kernel_rem_pio2(const double *x, double *y, int e0, int nx) {
  /* 2/pi in 24-bit chunks: two_over_pi[i] * 2^(-24(i+1)). */
  static const int two_over_pi[66] = {
      0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
      0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
      0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
      0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
      0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
      0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
      0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
      0x73A8C9, 0x60E27B, 0xC08C6B};
  /* pi/2 in 24-bit chunks. */
  static const double pio2_chunks[8] = {0x1.921fb4p0,   0x1.4442dp-24,  0x1.846988p-48,
                                        0x1.8cc516p-72, 0x1.01b838p-96, 0x1.a25204p-120,
                                        0x1.382228p-145, 0x1.9f31dp-169};
  const double two24 = 0x1p24;
  const double twon24 = 0x1p-24;
  const int jk = 4; /* initial number of 2/pi terms for 64-bit precision */
  const int jp = jk;
  int iq[20];
  double f[20], q[20];
  double fq[20] = {0.0};
  int jz, jx, jv, carry, n, i, j, k, m, q0, ih;
  double z, fw;

  jx = nx - 1;
  jv = (e0 - 3) / 24;
  if (jv < 0) {
    jv = 0;
  }
  q0 = e0 - 24 * (jv + 1);

  /* f[0..jx+jk] = two_over_pi[jv-jx .. jv+jk] */
  j = jv - jx;
  m = jx + jk;
  for (i = 0; i <= m; i++, j++) {
    f[i] = j < 0 ? 0.0 : (double)two_over_pi[j];
  }
  for (i = 0; i <= jk; i++) {
    for (j = 0, fw = 0.0; j <= jx; j++) {
      fw += x[j] * f[jx + i - j];
    }
    q[i] = fw;
  }

  jz = jk;
  for (;;) {
    /* distill q[] into 24-bit integers iq[], last term first */
    for (i = 0, j = jz, z = q[jz]; j > 0; i++, j--) {
      fw = (double)((int)(twon24 * z));
      iq[i] = (int)(z - two24 * fw);
      z = q[j - 1] + fw;
    }
    /* n = integer part of the product, mod 8 */
    z = l0_scalbn(z, q0);
    z -= 8.0 * l0_floor(z * 0.125);
    n = (int)z;
    z -= (double)n;
    ih = 0;
    if (q0 > 0) { /* iq[jz-1] holds integer bits too */
      i = iq[jz - 1] >> (24 - q0);
      n += i;
      iq[jz - 1] -= i << (24 - q0);
      ih = iq[jz - 1] >> (23 - q0);
    } else if (q0 == 0) {
      ih = iq[jz - 1] >> 23;
    } else if (z >= 0.5) {
      ih = 2;
    }
    if (ih > 0) { /* fraction >= 0.5: take 1 - fraction and round n up */
      n += 1;
      carry = 0;
      for (i = 0; i < jz; i++) {
        j = iq[i];
        if (carry == 0) {
          if (j != 0) {
            carry = 1;
            iq[i] = 0x1000000 - j;
          }
        } else {
          iq[i] = 0xffffff - j;
        }
      }
      if (q0 == 1) {
        iq[jz - 1] &= 0x7fffff;
      } else if (q0 == 2) {
        iq[jz - 1] &= 0x3fffff;
      }
      if (ih == 2) {
        z = 1.0 - z;
        if (carry != 0) {
          z -= l0_scalbn(1.0, q0);
        }
      }
    }
    if (z != 0.0) {
      break;
    }
    /* the fraction cancelled so far: recompute with more terms unless it is exactly zero */
    j = 0;
    for (i = jz - 1; i >= jk; i--) {
      j |= iq[i];
    }
    if (j != 0) {
      break;
    }
    for (k = 1; iq[jk - k] == 0; k++) {
      /* k = number of additional terms needed */
    }
    for (i = jz + 1; i <= jz + k; i++) {
      f[jx + i] = (double)two_over_pi[jv + i];
      for (j = 0, fw = 0.0; j <= jx; j++) {
        fw += x[j] * f[jx + i - j];
      }
      q[i] = fw;
    }
    jz += k;
  }

  /* chop off zero terms, or split the last z into 24-bit pieces */
  if (z == 0.0) {
    jz -= 1;
    q0 -= 24;
    while (iq[jz] == 0) {
      jz--;
      q0 -= 24;
    }
  } else {
    z = l0_scalbn(z, -q0);
    if (z >= two24) {
      fw = (double)((int)(twon24 * z));
      iq[jz] = (int)(z - two24 * fw);
      jz += 1;
      q0 += 24;
      iq[jz] = (int)fw;
    } else {
      iq[jz] = (int)z;
    }
  }

  /* integer chunks back to doubles */
  fw = l0_scalbn(1.0, q0);
  for (i = jz; i >= 0; i--) {
    q[i] = fw * (double)iq[i];
    fw *= twon24;
  }
  /* fq = pi/2 * q */
  for (i = jz; i >= 0; i--) {
    for (fw = 0.0, k = 0; k <= jp && k <= jz - i; k++) {
      fw += pio2_chunks[k] * q[i + k];
    }
    fq[jz - i] = fw;
  }
  /* compress fq[] into y[0] + y[1] */
  fw = 0.0;
  for (i = jz; i >= 0; i--) {
    fw += fq[i];
  }
  y[0] = ih == 0 ? fw : -fw;
  fw = fq[0] - fw;
  for (i = 1; i <= jz; i++) {
    fw += fq[i];
  }
  y[1] = ih == 0 ? fw : -fw;
  return n & 7;
}

/* ---- argument reduction (e_rem_pio2.c): x - n*pi/2 = y[0] + y[1], returns n ----
 * |x| < 3pi/4: one subtraction of a 33+53-bit pi/2; |x| <= 2^19*pi/2: Cody-Waite with up to
 * three 33-bit pieces of pi/2, chosen by the cancellation observed; larger: Payne-Hanek.
 */
L0_MATH_FN int l0_rem_pio2(double x, double *y) {
  /* high words of n*pi/2 for n = 1..32: a match means cancellation is possible */
  static const int npio2_high_words[32] = {
      0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB,
      0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB,
      0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C,
      0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB,
      0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB};
  const double invpio2 = 0x1.45f306dc9c883p-1; /* 53 bits of 2/pi */
  const double pio2_1 = 0x1.921fb544p0;        /* first 33 bits of pi/2 */
  const double pio2_1t = 0x1.0b4611a626331p-34; /* pi/2 - pio2_1 */
  const double pio2_2 = 0x1.0b4611a6p-34;       /* second 33 bits of pi/2 */
  const double pio2_2t = 0x1.3198a2e037073p-69; /* pi/2 - (pio2_1 + pio2_2) */
  const double pio2_3 = 0x1.3198a2ep-69;        /* third 33 bits of pi/2 */
  const double pio2_3t = 0x1.b839a252049c1p-104; /* pi/2 - (pio2_1 + pio2_2 + pio2_3) */
  double z, w, t, r, fn;
  double pieces[3];
  int e0, i, j, nx, n;
  int hx = l0_high_word(x);
  int ix = hx & 0x7fffffff;

  if (ix <= 0x3fe921fb) { /* |x| <= pi/4 */
    y[0] = x;
    y[1] = 0.0;
    return 0;
  }
  if (ix < 0x4002d97c) { /* |x| < 3pi/4: n = +-1 */
    double sign = hx > 0 ? 1.0 : -1.0;
    z = x - sign * pio2_1;
    if (ix != 0x3ff921fb) { /* 33+53 bits of pi/2 suffice */
      y[0] = z - sign * pio2_1t;
      y[1] = (z - y[0]) - sign * pio2_1t;
    } else { /* near pi/2: 33+33+53 bits */
      z -= sign * pio2_2;
      y[0] = z - sign * pio2_2t;
      y[1] = (z - y[0]) - sign * pio2_2t;
    }
    return hx > 0 ? 1 : -1;
  }
  if (ix <= 0x413921fb) { /* |x| <= 2^19*pi/2 */
    t = l0_abs(x);
    n = (int)(t * invpio2 + 0.5);
    fn = (double)n;
    r = t - fn * pio2_1;
    w = fn * pio2_1t; /* first round: 85 bits */
    y[0] = r - w;
    if (n >= 32 || ix == npio2_high_words[n - 1]) {
      j = ix >> 20;
      i = j - ((l0_high_word(y[0]) >> 20) & 0x7ff);
      if (i > 16) { /* second round: 118 bits */
        t = r;
        w = fn * pio2_2;
        r = t - w;
        w = fn * pio2_2t - ((t - r) - w);
        y[0] = r - w;
        i = j - ((l0_high_word(y[0]) >> 20) & 0x7ff);
        if (i > 49) { /* third round: 151 bits, enough for every double */
          t = r;
          w = fn * pio2_3;
          r = t - w;
          w = fn * pio2_3t - ((t - r) - w);
          y[0] = r - w;
        }
      }
    }
    y[1] = (r - y[0]) - w;
    if (hx < 0) {
      y[0] = -y[0];
      y[1] = -y[1];
      return -n;
    }
    return n;
  }
  if (ix >= 0x7ff00000) { /* inf or NaN */
    y[0] = y[1] = x - x;
    return 0;
  }
  /* |x| as three 24-bit pieces: z = scalbn(|x|, ilogb(x) - 23) */
  e0 = (ix >> 20) - 1046;
  z = l0_from_words(ix - l0_exponent_field(e0), l0_low_word(x));
  for (i = 0; i < 2; i++) {
    pieces[i] = (double)((int)z);
    z = (z - pieces[i]) * 0x1p24;
  }
  pieces[2] = z;
  nx = 3;
  while (pieces[nx - 1] == 0.0) {
    nx--; /* skip zero pieces */
  }
  n = l0_kernel_rem_pio2(pieces, y, e0, nx);
  if (hx < 0) {
    y[0] = -y[0];
    y[1] = -y[1];
    return -n;
  }
  return n;
}

/* ---- sin, cos (s_sin.c, s_cos.c): reduce to [-pi/4, pi/4], pick the kernel by n mod 4 ---- */

L0_MATH_FN double l0_sin(double x) {
  double y[2];
  int ix = l0_high_word(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    return l0_kernel_sin(x, 0.0, 0);
  }
  if (ix >= 0x7ff00000) {
    return x - x; /* sin(inf or NaN) = NaN */
  }
  switch (l0_rem_pio2(x, y) & 3) {
    case 0: return l0_kernel_sin(y[0], y[1], 1);
    case 1: return l0_kernel_cos(y[0], y[1]);
    case 2: return -l0_kernel_sin(y[0], y[1], 1);
    default: return -l0_kernel_cos(y[0], y[1]);
  }
}

L0_MATH_FN double l0_cos(double x) {
  double y[2];
  int ix = l0_high_word(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    return l0_kernel_cos(x, 0.0);
  }
  if (ix >= 0x7ff00000) {
    return x - x; /* cos(inf or NaN) = NaN */
  }
  switch (l0_rem_pio2(x, y) & 3) {
    case 0: return l0_kernel_cos(y[0], y[1]);
    case 1: return -l0_kernel_sin(y[0], y[1], 1);
    case 2: return -l0_kernel_cos(y[0], y[1]);
    default: return l0_kernel_sin(y[0], y[1], 1);
  }
}

/* ---- erf (s_erf.c) ----
 * |x| < 0.84375: x + x*R(x^2)/S(x^2); 0.84375 <= |x| < 1.25: erx + P(|x|-1)/Q(|x|-1) with
 * erx = (float)erf(1); 1.25 <= |x| < 6: 1 - exp(-z*z - 0.5625)*exp((z-x)(z+x) + R(1/x^2)/S(1/x^2))/x
 * with z = x rounded to 20 significant bits (two rational approximations split at 1/0.35);
 * |x| >= 6: +-1.
 */
L0_MATH_FN double l0_erf(double x) {
  const double erx = 0x1.b0ac160000000p-1;
  const double efx = 0x1.06eba8214db69p-3;
  const double efx8 = 0x1.06eba8214db69p+0;
  const double pp0 = 0x1.06eba8214db68p-3, pp1 = -0x1.4cd7d691cb913p-2,
               pp2 = -0x1.d2a51dbd7194fp-6, pp3 = -0x1.7a291236668e4p-8,
               pp4 = -0x1.8ead6120016acp-16;
  const double qq1 = 0x1.97779cddadc09p-2, qq2 = 0x1.0a54c5536cebap-4,
               qq3 = 0x1.4d022c4d36b0fp-8, qq4 = 0x1.15dc9221c1a10p-13,
               qq5 = -0x1.09c4342a26120p-18;
  const double pa0 = -0x1.359b8bef77538p-9, pa1 = 0x1.a8d00ad92b34dp-2,
               pa2 = -0x1.7d240fbb8c3f1p-2, pa3 = 0x1.45fca805120e4p-2,
               pa4 = -0x1.c63983d3e28ecp-4, pa5 = 0x1.22a36599795ebp-5,
               pa6 = -0x1.1bf380a96073fp-9;
  const double qa1 = 0x1.b3e6618eee323p-4, qa2 = 0x1.14af092eb6f33p-1,
               qa3 = 0x1.2635cd99fe9a7p-4, qa4 = 0x1.02660e763351fp-3,
               qa5 = 0x1.bedc26b51dd1cp-7, qa6 = 0x1.88b545735151dp-7;
  const double ra0 = -0x1.43412600d6435p-7, ra1 = -0x1.63416e4ba7360p-1,
               ra2 = -0x1.51e0441b0e726p+3, ra3 = -0x1.f300ae4cba38dp+5,
               ra4 = -0x1.44cb184282266p+7, ra5 = -0x1.7135cebccabb2p+7,
               ra6 = -0x1.4526557e4d2f2p+6, ra7 = -0x1.3a0efc69ac25cp+3;
  const double sa1 = 0x1.3a6b9bd707687p+4, sa2 = 0x1.1350c526ae721p+7,
               sa3 = 0x1.b290dd58a1a71p+8, sa4 = 0x1.42b1921ec2868p+9,
               sa5 = 0x1.ad02157700314p+8, sa6 = 0x1.b28a3ee48ae2cp+6,
               sa7 = 0x1.a47ef8e484a93p+2, sa8 = -0x1.eeff2ee749a62p-5;
  const double rb0 = -0x1.4341239e86f4ap-7, rb1 = -0x1.993ba70c285dep-1,
               rb2 = -0x1.1c209555f995ap+4, rb3 = -0x1.4145d43c5ed98p+7,
               rb4 = -0x1.3ec881375f228p+9, rb5 = -0x1.004616a2e5992p+10,
               rb6 = -0x1.e384e9bdc383fp+8;
  const double sb1 = 0x1.e568b261d5190p+4, sb2 = 0x1.45cae221b9f0ap+8,
               sb3 = 0x1.802eb189d5118p+10, sb4 = 0x1.8ffb7688c246ap+11,
               sb5 = 0x1.3f219cedf3be6p+11, sb6 = 0x1.da874e79fe763p+8,
               sb7 = -0x1.670e242712d62p+4;
  double R, S, P, Q, s, z, r;
  int hx = l0_high_word(x);
  int ix = hx & 0x7fffffff;

  if (ix >= 0x7ff00000) { /* erf(NaN) = NaN, erf(+-inf) = +-1 */
    return (double)(1 - (int)(((unsigned)hx >> 31) << 1)) + 1.0 / x;
  }
  if (ix < 0x3feb0000) { /* |x| < 0.84375 */
    if (ix < 0x3e300000) { /* |x| < 2^-28 */
      if (ix < 0x00800000) {
        return 0.125 * (8.0 * x + efx8 * x); /* avoids underflow */
      }
      return x + efx * x;
    }
    z = x * x;
    r = pp0 + z * (pp1 + z * (pp2 + z * (pp3 + z * pp4)));
    s = 1.0 + z * (qq1 + z * (qq2 + z * (qq3 + z * (qq4 + z * qq5))));
    return x + x * (r / s);
  }
  if (ix < 0x3ff40000) { /* 0.84375 <= |x| < 1.25 */
    s = l0_abs(x) - 1.0;
    P = pa0 + s * (pa1 + s * (pa2 + s * (pa3 + s * (pa4 + s * (pa5 + s * pa6)))));
    Q = 1.0 + s * (qa1 + s * (qa2 + s * (qa3 + s * (qa4 + s * (qa5 + s * qa6)))));
    return hx >= 0 ? erx + P / Q : -erx - P / Q;
  }
  if (ix >= 0x40180000) { /* |x| >= 6 */
    return hx >= 0 ? 1.0 - L0_MATH_TINY : L0_MATH_TINY - 1.0;
  }
  x = l0_abs(x);
  s = 1.0 / (x * x);
  if (ix < 0x4006DB6E) { /* |x| < 1/0.35 */
    R = ra0 + s * (ra1 + s * (ra2 + s * (ra3 + s * (ra4 + s * (ra5 + s * (ra6 + s * ra7))))));
    S = 1.0 + s * (sa1 + s * (sa2 + s * (sa3 + s * (sa4 + s * (sa5 + s * (sa6 + s * (sa7 + s * sa8)))))));
  } else { /* 1/0.35 <= |x| < 6 */
    R = rb0 + s * (rb1 + s * (rb2 + s * (rb3 + s * (rb4 + s * (rb5 + s * rb6)))));
    S = 1.0 + s * (sb1 + s * (sb2 + s * (sb3 + s * (sb4 + s * (sb5 + s * (sb6 + s * sb7))))));
  }
  z = l0_clear_low_word(x);
  r = l0_exp(-z * z - 0.5625) * l0_exp((z - x) * (z + x) + R / S);
  return hx >= 0 ? 1.0 - r / x : r / x - 1.0;
}

/* ---- f32 versions: the double result rounded to float (the product's definition of f32 math) ---- */

#define L0_MATH_FLOAT_OF_DOUBLE(name)                                            \
  L0_MATH_FN float name##f(float x) { return (float)name((double)x); }

L0_MATH_FLOAT_OF_DOUBLE(l0_exp)
L0_MATH_FLOAT_OF_DOUBLE(l0_log)
L0_MATH_FLOAT_OF_DOUBLE(l0_sin)
L0_MATH_FLOAT_OF_DOUBLE(l0_cos)
L0_MATH_FLOAT_OF_DOUBLE(l0_erf)
L0_MATH_FLOAT_OF_DOUBLE(l0_sqrt)
L0_MATH_FLOAT_OF_DOUBLE(l0_floor)

#undef L0_MATH_FLOAT_OF_DOUBLE

L0_MATH_FN float l0_powf(float x, float y) { return (float)l0_pow((double)x, (double)y); }

#endif /* L0_MATH_CUH */
