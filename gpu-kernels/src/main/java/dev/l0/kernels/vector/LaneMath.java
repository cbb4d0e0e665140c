package dev.l0.kernels.vector;

import static dev.l0.math.Fdlibm.*;
import static jdk.incubator.vector.VectorOperators.ASHR;
import static jdk.incubator.vector.VectorOperators.EQ;
import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LE;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.NE;
import static jdk.incubator.vector.VectorOperators.SQRT;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * fdlibm 5.3's {@code exp} (e_exp.c), {@code log} (e_log.c), {@code pow} (e_pow.c, as the JDK's
 * {@code FdLibm.Pow}), {@code sin} and {@code cos} (s_sin.c, s_cos.c, k_sin.c, k_cos.c,
 * e_rem_pio2.c), {@code erf} (s_erf.c, as {@link dev.l0.math.L0Math#erf}) and the correctly rounded
 * square root, written with the Vector API over {@link DoubleVector#SPECIES_PREFERRED}: the same
 * floating-point operations in the same order as the C code, so each lane's result equals {@link
 * StrictMath}'s bit for bit. fdlibm's branches become blends of both sides; a vector step with a
 * lane outside the common range (say for exp |x| >= 708 or NaN) is computed by the scalar function
 * instead, so that rarely run vector code never stays interpreted.
 *
 * <p>Conventions that keep it exact and fast on JDK 17: fdlibm's tests on the high word are
 * compares on the value or on the high word as a long lane; truncation and integer-to-double
 * conversion use the 1.5·2^52 magic-number trick (JDK 17 has no fast lane conversion between double
 * and long); 2^k is added to the exponent field as fdlibm's {@code __HI(y) += k << 20} does. Each
 * array loop is compiled with its lane kernel inside it, and vectors never cross a call (a method
 * over 325 bytecodes is not inlined, and vectors that cross such a call are boxed); the larger
 * functions run in stages over blocks of {@value #STAGE_BLOCK} elements, passing their intermediate
 * values through scratch arrays.
 *
 * <p>Only {@link VectorMath} (and its checks) call this class, and only when the module is loaded.
 */
final class LaneMath {
  private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
  private static final int LANES = DOUBLES.length();

  /** 1.5 * 2^52: adding it rounds a double of magnitude below 2^51 to an integer (ties to even). */
  private static final double MAGIC = 0x1.8p52;

  private static final long MAGIC_BITS = Double.doubleToRawLongBits(MAGIC);

  // e_exp.c (its and e_log.c's and s_erf.c's published constants are Fdlibm's)
  private static final double EXP_SCALAR_FROM = 708.0;

  /** fdlibm's o_threshold: exp(x) for x above it is huge * huge, +inf. */
  private static final double EXP_OVERFLOW_ABOVE = 7.09782712893383973096e+02;

  /** fdlibm's u_threshold: exp(x) for x below it is twom1000 * twom1000, +0. */
  private static final double EXP_UNDERFLOW_BELOW = -7.45133219101941108420e+02;

  /** |x| above 0.5 ln2: fdlibm's {@code hx > 0x3fd62e42}. */
  private static final double EXP_REDUCE_FROM = Double.longBitsToDouble(0x3fd62e4300000000L);

  /** |x| below 2^-28: fdlibm's {@code hx < 0x3e300000}. */
  private static final double EXP_TINY_BELOW = Double.longBitsToDouble(0x3e30000000000000L);

  // e_pow.c (FdLibm.Pow of the JDK)
  /**
   * The block of elements the staged functions (pow, sin, cos, erf) compute stage by stage through
   * scratch arrays.
   */
  private static final int STAGE_BLOCK = 256;

  /** |y| above this is fdlibm's "|y| is huge" case (scalar). */
  private static final double POW_HUGE_Y = 0x1.00000_ffff_ffffp31;

  private static final double CP = 0x1.ec70_9dc3_a03fdp-1;
  private static final double CP_H = 0x1.ec709ep-1;
  private static final double CP_L = -0x1.e2fe_0145_b01f5p-28;
  private static final double DP_H1 = 0x1.2b80_34p-1;
  private static final double DP_L1 = 0x1.cfde_b43c_fd006p-27;
  private static final double L1 = 0x1.3333_3333_33303p-1;
  private static final double L2 = 0x1.b6db_6db6_fabffp-2;
  private static final double L3 = 0x1.5555_5518_f264dp-2;
  private static final double L4 = 0x1.1746_0a91_d4101p-2;
  private static final double L5 = 0x1.d864_a93c_9db65p-3;
  private static final double L6 = 0x1.a7e2_84a4_54eefp-3;
  private static final double POW_LN2 = 0x1.62e4_2fef_a39efp-1;
  private static final double POW_LN2_H = 0x1.62e43p-1;
  private static final double POW_LN2_L = -0x1.05c6_10ca_86c39p-29;
  private static final long HIGH_WORD = 0xffffffff_00000000L;

  // s_sin.c, s_cos.c, k_sin.c, k_cos.c, e_rem_pio2.c (medium arguments)
  /**
   * |x| up to here (high word 0x413921fb, about 2^19 pi/2) is reduced lane-wise; beyond, the scalar
   * function.
   */
  private static final double TRIG_REDUCE_BELOW = Double.longBitsToDouble(0x413921fc_00000000L);

  /** |x| below this (high word up to 0x3fe921fb, about pi/4) needs no reduction. */
  private static final double TRIG_SMALL_BELOW = Double.longBitsToDouble(0x3fe921fc_00000000L);

  /** The high word for which e_rem_pio2.c's n = 1 case subtracts pi/2 in three parts (scalar). */
  private static final long NEAR_HALF_PI_HIGH = 0x3ff921fbL;

  private static final double INVPIO2 = 0x1.45f306dc9c883p-1;
  private static final double PIO2_1 = 0x1.921fb544p0;
  private static final double PIO2_1T = 0x1.0b4611a626331p-34;
  private static final double S1 = -0x1.5555555555549p-3;
  private static final double S2 = 0x1.111111110f8a6p-7;
  private static final double S3 = -0x1.a01a019c161d5p-13;
  private static final double S4 = 0x1.71de357b1fe7dp-19;
  private static final double S5 = -0x1.ae5e68a2b9cebp-26;
  private static final double S6 = 0x1.5d93a5acfd57cp-33;
  private static final double C1 = 0x1.555555555554cp-5;
  private static final double C2 = -0x1.6c16c16c15177p-10;
  private static final double C3 = 0x1.a01a019cb159p-16;
  private static final double C4 = -0x1.27e4f809c52adp-22;
  private static final double C5 = 0x1.1ee9ebdb4b1c4p-29;
  private static final double C6 = -0x1.8fae9be8838d4p-37;

  /** |x| below 2^-27: the kernels' tiny case. */
  private static final double TRIG_TINY_BELOW = 0x1p-27;

  private static final double COS_NEAR_ZERO_BELOW = Double.longBitsToDouble(0x3FD33333_00000000L);

  // s_erf.c (L0Math.erf)
  /**
   * |x| from here (high word 0x00800000) on is computed lane-wise; below, the scalar function
   * (fdlibm's underflow-safe form).
   */
  private static final double ERF_LANES_FROM = Double.longBitsToDouble(0x00800000_00000000L);

  private static final double ERF_TINY_BELOW = Double.longBitsToDouble(0x3e300000_00000000L);
  private static final double ERF_SMALL_BELOW = Double.longBitsToDouble(0x3feb0000_00000000L);
  private static final double ERF_MIDDLE_BELOW = Double.longBitsToDouble(0x3ff40000_00000000L);
  private static final double ERF_ERFC_A_BELOW = Double.longBitsToDouble(0x4006DB6E_00000000L);
  private static final double ERF_ONE_FROM = Double.longBitsToDouble(0x40180000_00000000L);

  /** Per thread, {@link #erf}'s two scratch arrays of {@value #STAGE_BLOCK} doubles. */
  private static final ThreadLocal<double[][]> ERF_SCRATCH =
      ThreadLocal.withInitial(
          () -> new double[][] {new double[STAGE_BLOCK], new double[STAGE_BLOCK]});

  /** Per thread, the vector {@link #lastVector} computes a range's last elements in. */
  private static final ThreadLocal<double[]> PADDED =
      ThreadLocal.withInitial(() -> new double[LANES]);

  private LaneMath() {}

  static int lanes() {
    return LANES;
  }

  /**
   * Whether vectors are wider than one double and the double and long species have the same lane
   * count (the lane kernels reinterpret one as the other).
   */
  static boolean usefulOnThisMachine() {
    return LANES >= 2 && LONGS.length() == LANES;
  }

  /**
   * e_exp.c, lane-wise for vectors whose lanes all have |x| < 708 (no overflow, no subnormal
   * result, k >= -1021), or fdlibm's overflow (x above o_threshold, +inf included: +inf) or
   * underflow (x below u_threshold, -inf included: +0); the scalar function for vectors with
   * another lane (NaN, or |x| near the thresholds). A vector whose lanes all have 2^-28 <= |x| <
   * 708, nearly every one in practice, skips the blends of the tiny, overflow and underflow lanes
   * (about a fifth of the work).
   */
  static void exp(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    for (int i = 0; i < vectorEnd; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      DoubleVector ax = x.abs();
      VectorMask<Double> lanewise = ax.compare(LT, EXP_SCALAR_FROM);
      // every lane with 2^-28 <= |x| < 708: no tiny, overflow or underflow lane to blend in
      boolean ordinary = lanewise.and(ax.compare(GE, EXP_TINY_BELOW)).allTrue();
      if (!ordinary
          && !lanewise
              .or(x.compare(GT, EXP_OVERFLOW_ABOVE))
              .or(x.compare(LT, EXP_UNDERFLOW_BELOW))
              .allTrue()) {
        ScalarLoops.exp(in, inOffset + i, out, outOffset + i, LANES);
        continue;
      }
      VectorMask<Double> reduce = ax.compare(GE, EXP_REDUCE_FROM);
      // k = (int) (invln2 * x + halF[xsb]); for 0.5 ln2 < |x| < 1.5 ln2 this is fdlibm's k = 1 - 2
      // xsb, and x - k * ln2HI, k * ln2LO are then its hi and lo with ln2HI[xsb], ln2LO[xsb].
      // |k| is floor(|x| * invln2 + 0.5): rounding is symmetric, so invln2 * x + halF[xsb] is
      // that sum with x's sign, and truncating it is flooring its magnitude.
      DoubleVector magnitude = ax.mul(INV_LN2).add(0.5);
      DoubleVector nearest = magnitude.add(MAGIC).sub(MAGIC);
      DoubleVector floor = nearest.sub(1.0).blend(nearest, nearest.compare(LE, magnitude));
      DoubleVector k = floor.blend(floor.neg(), x.compare(LT, 0.0)).blend(0.0, reduce.not());
      DoubleVector hi = x.sub(k.mul(LN2_HI));
      DoubleVector lo = k.mul(LN2_LO);
      DoubleVector r = hi.sub(lo);
      DoubleVector t = r.mul(r);
      DoubleVector c = r.sub(t.mul(t.mul(t.mul(t.mul(t.mul(P5).add(P4)).add(P3)).add(P2)).add(P1)));
      // y = one - ((lo - (x * c) / (2.0 - c)) - hi), then y * 2^k. For k == 0 fdlibm computes
      // one - ((x * c) / (c - 2.0) - x); these lanes have k = +0, so lo = +0, hi = r = x, and
      // (x * c) / (c - 2.0) is -((x * c) / (2.0 - c)) bit for bit (rounding is symmetric, c - 2.0
      // is not zero): the same operations on the same values, so one form serves both (x = ±0,
      // where 0 - q and -q differ in sign, is the tiny case below).
      DoubleVector q = r.mul(c).div(DoubleVector.broadcast(DOUBLES, 2.0).sub(c));
      DoubleVector y = DoubleVector.broadcast(DOUBLES, 1.0).sub(lo.sub(q).sub(hi));
      LongVector kBits = k.add(MAGIC).reinterpretAsLongs().sub(MAGIC_BITS).lanewise(LSHL, 52);
      DoubleVector scaled = y.reinterpretAsLongs().add(kBits).reinterpretAsDoubles();
      if (!ordinary) {
        // |x| < 2^-28: one + x
        scaled =
            scaled
                .blend(x.add(1.0), ax.compare(LT, EXP_TINY_BELOW))
                .blend(Double.POSITIVE_INFINITY, x.compare(GT, EXP_OVERFLOW_ABOVE))
                .blend(0.0, x.compare(LT, EXP_UNDERFLOW_BELOW));
      }
      scaled.intoArray(out, outOffset + i);
    }
    ScalarLoops.exp(in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd);
  }

  /**
   * e_log.c, lane-wise for vectors whose lanes are all positive normal finite numbers, the scalar
   * function for the others. fdlibm's {@code k == 0} forms and its {@code f == 0} case give the
   * same bits as the general forms used here (k = 0 makes {@code dk * ln2_hi} and {@code dk *
   * ln2_lo} zero, and f = 0 makes R zero); its |f| < 2^-20 form is computed only for a vector with
   * such a lane. The last {@code count % LANES} elements are computed as one padded vector ({@link
   * #lastVector}).
   */
  static void log(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    logVectors(in, inOffset, out, outOffset, vectorEnd);
    lastVector(
        LaneMath::logVectors,
        in,
        inOffset + vectorEnd,
        out,
        outOffset + vectorEnd,
        count - vectorEnd);
  }

  /** {@link #log} of {@code count} elements, a multiple of the lanes. */
  private static void logVectors(
      double[] in, int inOffset, double[] out, int outOffset, int count) {
    for (int i = 0; i < count; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      if (!x.compare(GE, Double.MIN_NORMAL)
          .and(x.compare(LT, Double.POSITIVE_INFINITY))
          .allTrue()) {
        ScalarLoops.log(in, inOffset + i, out, outOffset + i, LANES);
        continue;
      }
      LongVector bits = x.reinterpretAsLongs();
      LongVector high = bits.lanewise(LSHR, 32);
      LongVector fraction = high.and(0xfffffL);
      // i = (hx + 0x95f64) & 0x100000: whether to normalise x into [sqrt(2)/2, sqrt(2)) as x or x/2
      LongVector half = fraction.add(0x95f64L).and(0x100000L);
      LongVector normalHigh = fraction.or(half.lanewise(XOR, 0x3ff00000L));
      DoubleVector normal =
          normalHigh.lanewise(LSHL, 32).or(bits.and(0xffffffffL)).reinterpretAsDoubles();
      LongVector k = high.lanewise(ASHR, 20).sub(1023L).add(half.lanewise(LSHR, 20));
      DoubleVector dk = k.add(MAGIC_BITS).reinterpretAsDoubles().sub(MAGIC);
      DoubleVector f = normal.sub(1.0);
      DoubleVector kHi = dk.mul(LN2_HI);
      DoubleVector kLo = dk.mul(LN2_LO);
      DoubleVector s = f.div(f.add(2.0));
      DoubleVector z = s.mul(s);
      DoubleVector w = z.mul(z);
      DoubleVector t1 = w.mul(w.mul(w.mul(LG6).add(LG4)).add(LG2));
      DoubleVector t2 = z.mul(w.mul(w.mul(w.mul(LG7).add(LG5)).add(LG3)).add(LG1));
      DoubleVector r = t2.add(t1);
      // (hx - 0x6147a) | (0x6b851 - hx) > 0
      DoubleVector hfsq = f.mul(0.5).mul(f);
      DoubleVector withSquare = kHi.sub(hfsq.sub(s.mul(hfsq.add(r)).add(kLo)).sub(f));
      DoubleVector plain = kHi.sub(s.mul(f.sub(r)).sub(kLo).sub(f));
      VectorMask<Long> squareRange =
          fraction
              .sub(0x6147aL)
              .or(LongVector.broadcast(LONGS, 0x6b851L).sub(fraction))
              .compare(GT, 0L);
      // blended as bit patterns: the masks are on longs, and reinterpreting costs nothing
      LongVector result =
          plain.reinterpretAsLongs().blend(withSquare.reinterpretAsLongs(), squareRange);
      VectorMask<Long> fNearZero = fraction.add(2L).and(0xfffffL).compare(LT, 3L);
      if (fNearZero.anyTrue()) {
        // |f| < 2^-20: R = f * f * (0.5 - 0.33333333333333333 * f); dk * ln2_hi - ((R - dk *
        // ln2_lo) - f)
        DoubleVector nearOne =
            kHi.sub(
                f.mul(f)
                    .mul(DoubleVector.broadcast(DOUBLES, 0.5).sub(f.mul(0.33333333333333333)))
                    .sub(kLo)
                    .sub(f));
        result = result.blend(nearOne.reinterpretAsLongs(), fNearZero);
      }
      result.reinterpretAsDoubles().intoArray(out, outOffset + i);
    }
  }

  /**
   * e_pow.c as the JDK's {@code FdLibm.Pow} computes it, for blocks of {@value #STAGE_BLOCK}
   * elements in three stages through scratch arrays (one lane kernel would be too large to compile
   * well): log2|x| in two parts, then y * log2|x| reduced to n + (p_h + p_l), then 2^(p_h + p_l)
   * scaled by 2^n with fdlibm's special values of y blended in. A vector step whose lanes are not
   * all positive normal finite x with finite |y| <= 2^31, or whose result would overflow, underflow
   * or be subnormal, is computed by the scalar function.
   */
  static void pow(
      double[] x, int xOffset, double[] y, int yOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    double[] high = new double[Math.min(STAGE_BLOCK, vectorEnd)];
    double[] low = new double[Math.min(STAGE_BLOCK, vectorEnd)];
    long[] scale = new long[Math.min(STAGE_BLOCK, vectorEnd)];
    for (int start = 0; start < vectorEnd; start += STAGE_BLOCK) {
      int block = Math.min(STAGE_BLOCK, vectorEnd - start);
      powLog2(x, xOffset + start, high, low, block);
      powReduce(y, yOffset + start, high, low, scale, block);
      powExp2(
          x, xOffset + start, y, yOffset + start, high, low, scale, out, outOffset + start, block);
    }
    ScalarLoops.pow(
        x,
        xOffset + vectorEnd,
        y,
        yOffset + vectorEnd,
        out,
        outOffset + vectorEnd,
        count - vectorEnd);
  }

  /**
   * log2|x| = t1 + t2 (fdlibm's "|y| is not huge" branch for normal x), into {@code t1s} and {@code
   * t2s}.
   */
  private static void powLog2(double[] x, int xOffset, double[] t1s, double[] t2s, int count) {
    for (int i = 0; i < count; i += LANES) {
      LongVector bits = DoubleVector.fromArray(DOUBLES, x, xOffset + i).abs().reinterpretAsLongs();
      LongVector ix = bits.lanewise(LSHR, 32);
      LongVector j = ix.and(0xfffffL);
      // k = 1 for sqrt(3/2) < |x| < sqrt(3) (normalised), else 0; above sqrt(3) one more power of
      // two
      VectorMask<Long> k1 = j.compare(GT, 0x3988EL).and(j.compare(LT, 0xBB67AL));
      VectorMask<Long> above = j.compare(GE, 0xBB67AL);
      LongVector zero = LongVector.zero(LONGS);
      LongVector n = ix.lanewise(ASHR, 20).sub(0x3ffL).add(zero.blend(1L, above));
      LongVector normalHigh = j.or(0x3ff00000L).sub(zero.blend(0x00100000L, above));
      DoubleVector xAbs =
          normalHigh.lanewise(LSHL, 32).or(bits.and(0xffffffffL)).reinterpretAsDoubles();
      DoubleVector bp = pick(1.0, 1.5, k1);
      DoubleVector dpH = pick(0.0, DP_H1, k1);
      DoubleVector dpL = pick(0.0, DP_L1, k1);
      DoubleVector u = xAbs.sub(bp);
      DoubleVector v = DoubleVector.broadcast(DOUBLES, 1.0).div(xAbs.add(bp));
      DoubleVector ss = u.mul(v);
      DoubleVector sH = lowWordZero(ss);
      DoubleVector tH =
          normalHigh
              .lanewise(ASHR, 1)
              .or(0x20000000L)
              .add(0x00080000L)
              .add(zero.blend(1L << 18, k1))
              .lanewise(LSHL, 32)
              .reinterpretAsDoubles();
      DoubleVector tL = xAbs.sub(tH.sub(bp));
      DoubleVector sL = v.mul(u.sub(sH.mul(tH)).sub(sH.mul(tL)));
      DoubleVector s2 = ss.mul(ss);
      DoubleVector r =
          s2.mul(s2)
              .mul(
                  s2.mul(s2.mul(s2.mul(s2.mul(s2.mul(L6).add(L5)).add(L4)).add(L3)).add(L2))
                      .add(L1))
              .add(sL.mul(sH.add(ss)));
      s2 = sH.mul(sH);
      tH = lowWordZero(s2.add(3.0).add(r));
      tL = r.sub(tH.sub(3.0).sub(s2));
      u = sH.mul(tH);
      v = sL.mul(tH).add(tL.mul(ss));
      DoubleVector pH = lowWordZero(u.add(v));
      DoubleVector pL = v.sub(pH.sub(u));
      DoubleVector zH = pH.mul(CP_H);
      DoubleVector zL = pH.mul(CP_L).add(pL.mul(CP)).add(dpL);
      DoubleVector t = n.add(MAGIC_BITS).reinterpretAsDoubles().sub(MAGIC);
      DoubleVector t1 = lowWordZero(zH.add(zL).add(dpH).add(t));
      t1.intoArray(t1s, i);
      zL.sub(t1.sub(t).sub(dpH).sub(zH)).intoArray(t2s, i);
    }
  }

  /**
   * y * (t1 + t2) = p_h + p_l, then n = [p_h + p_l + 0.5] taken out of p_h where |p_h + p_l| > 0.5:
   * p_h and p_l replace t1 and t2, n goes to {@code ns}. A lane whose product is out of the range
   * of normal results gets a NaN p_l (a finite x and y give no NaN), so the last stage hands it to
   * the scalar function.
   */
  private static void powReduce(
      double[] y, int yOffset, double[] hs, double[] ls, long[] ns, int count) {
    for (int i = 0; i < count; i += LANES) {
      DoubleVector yv = DoubleVector.fromArray(DOUBLES, y, yOffset + i);
      DoubleVector t1 = DoubleVector.fromArray(DOUBLES, hs, i);
      DoubleVector t2 = DoubleVector.fromArray(DOUBLES, ls, i);
      DoubleVector y1 = lowWordZero(yv);
      DoubleVector pL = yv.sub(y1).mul(t1).add(yv.mul(t2));
      DoubleVector pH = y1.mul(t1);
      LongVector j = pL.add(pH).reinterpretAsLongs().lanewise(ASHR, 32);
      LongVector i31 = j.and(0x7fffffffL);
      // |z| >= 1022 (or more): overflow, underflow and subnormal results are the scalar function's
      VectorMask<Long> outOfRange = i31.compare(GE, 0x408ff000L);
      LongVector k = i31.lanewise(ASHR, 20).sub(0x3ffL);
      LongVector n = j.add(LongVector.broadcast(LONGS, 0x00100000L).lanewise(ASHR, k.add(1L)));
      LongVector k2 = n.and(0x7fffffffL).lanewise(ASHR, 20).sub(0x3ffL);
      DoubleVector t =
          n.and(LongVector.broadcast(LONGS, 0x000fffffL).lanewise(ASHR, k2).not())
              .and(0xffffffffL)
              .lanewise(LSHL, 32)
              .reinterpretAsDoubles();
      LongVector magnitude =
          n.and(0x000fffffL)
              .or(0x00100000L)
              .lanewise(ASHR, LongVector.broadcast(LONGS, 20L).sub(k2));
      VectorMask<Long> reduce = i31.compare(GT, 0x3fe00000L);
      LongVector zero = LongVector.zero(LONGS);
      LongVector signed = magnitude.blend(magnitude.neg(), j.compare(LT, 0L));
      zero.blend(signed, reduce).intoArray(ns, i);
      pH.reinterpretAsLongs()
          .blend(pH.sub(t).reinterpretAsLongs(), reduce)
          .reinterpretAsDoubles()
          .intoArray(hs, i);
      pL.reinterpretAsLongs()
          .blend(Double.doubleToRawLongBits(Double.NaN), outOfRange)
          .reinterpretAsDoubles()
          .intoArray(ls, i);
    }
  }

  /**
   * 2^(p_h + p_l) * 2^n, fdlibm's special values of y and x = 1 blended in; scalar where a lane
   * needs it.
   */
  private static void powExp2(
      double[] x,
      int xOffset,
      double[] y,
      int yOffset,
      double[] hs,
      double[] ls,
      long[] ns,
      double[] out,
      int outOffset,
      int count) {
    for (int i = 0; i < count; i += LANES) {
      DoubleVector xv = DoubleVector.fromArray(DOUBLES, x, xOffset + i);
      DoubleVector yv = DoubleVector.fromArray(DOUBLES, y, yOffset + i);
      DoubleVector pH = DoubleVector.fromArray(DOUBLES, hs, i);
      DoubleVector pL = DoubleVector.fromArray(DOUBLES, ls, i);
      LongVector n = LongVector.fromArray(LONGS, ns, i);
      DoubleVector t = lowWordZero(pL.add(pH));
      DoubleVector u = t.mul(POW_LN2_H);
      DoubleVector v = pL.sub(t.sub(pH)).mul(POW_LN2).add(t.mul(POW_LN2_L));
      DoubleVector z = u.add(v);
      DoubleVector w = v.sub(z.sub(u));
      t = z.mul(z);
      DoubleVector t1 =
          z.sub(t.mul(t.mul(t.mul(t.mul(t.mul(P5).add(P4)).add(P3)).add(P2)).add(P1)));
      DoubleVector r = z.mul(t1).div(t1.sub(2.0)).sub(w.add(z.mul(w)));
      z = DoubleVector.broadcast(DOUBLES, 1.0).sub(r.sub(z));
      // a NaN z marks a product out of range; scaling could turn its bits into a number, so test z
      DoubleVector result = z.reinterpretAsLongs().add(n.lanewise(LSHL, 52)).reinterpretAsDoubles();
      VectorMask<Double> ordinary =
          xv.compare(GE, Double.MIN_NORMAL)
              .and(xv.compare(LT, Double.POSITIVE_INFINITY))
              .and(yv.abs().compare(LE, POW_HUGE_Y))
              .and(z.compare(EQ, z))
              .and(result.compare(GE, Double.MIN_NORMAL));
      if (!ordinary.allTrue()) {
        ScalarLoops.pow(x, xOffset + i, y, yOffset + i, out, outOffset + i, LANES);
        continue;
      }
      DoubleVector one = DoubleVector.broadcast(DOUBLES, 1.0);
      result
          .blend(one, xv.compare(EQ, 1.0))
          .blend(one.div(xv), yv.compare(EQ, -1.0))
          .blend(xv, yv.compare(EQ, 1.0))
          .blend(xv.lanewise(SQRT), yv.compare(EQ, 0.5))
          .blend(xv.mul(xv), yv.compare(EQ, 2.0))
          .blend(one, yv.compare(EQ, 0.0))
          .intoArray(out, outOffset + i);
    }
  }

  /**
   * {@code whenFalse} in the lanes where {@code choice} is unset, {@code whenTrue} where it is set.
   */
  private static DoubleVector pick(double whenFalse, double whenTrue, VectorMask<Long> choice) {
    return LongVector.broadcast(LONGS, Double.doubleToRawLongBits(whenFalse))
        .blend(Double.doubleToRawLongBits(whenTrue), choice)
        .reinterpretAsDoubles();
  }

  /** fdlibm's {@code SET_LOW_WORD(v, 0)}. */
  private static DoubleVector lowWordZero(DoubleVector v) {
    return v.reinterpretAsLongs().and(HIGH_WORD).reinterpretAsDoubles();
  }

  /** sin: {@link #trig} in quadrant n. */
  static void sin(double[] in, int inOffset, double[] out, int outOffset, int count) {
    trig(in, inOffset, out, outOffset, count, 0);
  }

  /** cos: {@link #trig} in quadrant n + 1 (cos x = sin(x + pi/2)). */
  static void cos(double[] in, int inOffset, double[] out, int outOffset, int count) {
    trig(in, inOffset, out, outOffset, count, 1);
  }

  /**
   * s_sin.c and s_cos.c for blocks of {@value #STAGE_BLOCK} elements in two stages: x reduced to y0
   * + y1 and n (x = n pi/2 + y0 + y1) as e_rem_pio2.c does for |x| up to about 2^19 pi/2 with one
   * round of pi/2 (its further rounds, needed where the result cancels more than 16 bits, are the
   * scalar function's), then k_sin.c and k_cos.c on every lane and the one of quadrant (n + {@code
   * quadrantShift}) & 3 chosen with its sign. A vector step with a lane that is not reduced so is
   * computed by the scalar function.
   */
  private static void trig(
      double[] in, int inOffset, double[] out, int outOffset, int count, int quadrantShift) {
    int vectorEnd = count - count % LANES;
    double[] y0s = new double[Math.min(STAGE_BLOCK, vectorEnd)];
    double[] y1s = new double[Math.min(STAGE_BLOCK, vectorEnd)];
    long[] ns = new long[Math.min(STAGE_BLOCK, vectorEnd)];
    for (int start = 0; start < vectorEnd; start += STAGE_BLOCK) {
      int block = Math.min(STAGE_BLOCK, vectorEnd - start);
      trigReduce(in, inOffset + start, y0s, y1s, ns, block);
      trigKernels(in, inOffset + start, y0s, y1s, ns, out, outOffset + start, block, quadrantShift);
    }
    trigScalar(
        in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd, quadrantShift);
  }

  private static void trigScalar(
      double[] in, int inOffset, double[] out, int outOffset, int count, int quadrantShift) {
    if (quadrantShift == 0) {
      ScalarLoops.sin(in, inOffset, out, outOffset, count);
    } else {
      ScalarLoops.cos(in, inOffset, out, outOffset, count);
    }
  }

  /**
   * y0, y1 and n of e_rem_pio2.c: x itself and n = 0 below pi/4, else its medium-size case's first
   * round (which is also what its n = +-1 case computes). y0 is NaN where the scalar function must
   * do it: NaN or infinite x, |x| beyond the medium size, the first round cancelling more than 16
   * bits, or the high word 0x3ff921fb.
   */
  private static void trigReduce(
      double[] in, int inOffset, double[] y0s, double[] y1s, long[] ns, int count) {
    for (int i = 0; i < count; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      DoubleVector t = x.abs();
      DoubleVector v = t.mul(INVPIO2).add(0.5);
      DoubleVector nearest = v.add(MAGIC).sub(MAGIC);
      DoubleVector fn = nearest.sub(1.0).blend(nearest, nearest.compare(GT, v).not());
      DoubleVector r = t.sub(fn.mul(PIO2_1));
      DoubleVector w = fn.mul(PIO2_1T);
      DoubleVector y0 = r.sub(w);
      DoubleVector y1 = r.sub(y0).sub(w);
      LongVector ix = t.reinterpretAsLongs().lanewise(LSHR, 32);
      LongVector cancelled =
          ix.lanewise(LSHR, 20).sub(y0.reinterpretAsLongs().lanewise(LSHR, 52).and(0x7ffL));
      VectorMask<Double> negative = x.compare(LT, 0.0);
      VectorMask<Double> small = t.compare(LT, TRIG_SMALL_BELOW);
      LongVector n = fn.add(MAGIC).reinterpretAsLongs().sub(MAGIC_BITS);
      n.blend(n.neg(), negative.cast(LONGS)).blend(0L, small.cast(LONGS)).intoArray(ns, i);
      VectorMask<Double> scalar =
          t.compare(LT, TRIG_REDUCE_BELOW)
              .not()
              .or(
                  cancelled
                      .compare(GT, 16L)
                      .or(ix.compare(EQ, NEAR_HALF_PI_HIGH))
                      .cast(DOUBLES)
                      .andNot(small));
      y0.blend(y0.neg(), negative).blend(x, small).blend(Double.NaN, scalar).intoArray(y0s, i);
      y1.blend(y1.neg(), negative).blend(0.0, small).intoArray(y1s, i);
    }
  }

  /**
   * k_sin.c (iy = 0 where n = 0, that is below pi/4) and k_cos.c on y0 + y1, the quadrant's one
   * chosen.
   */
  private static void trigKernels(
      double[] in,
      int inOffset,
      double[] y0s,
      double[] y1s,
      long[] ns,
      double[] out,
      int outOffset,
      int count,
      int quadrantShift) {
    for (int i = 0; i < count; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, y0s, i);
      if (!x.compare(EQ, x).allTrue()) {
        trigScalar(in, inOffset + i, out, outOffset + i, LANES, quadrantShift);
        continue;
      }
      DoubleVector y = DoubleVector.fromArray(DOUBLES, y1s, i);
      LongVector n = LongVector.fromArray(LONGS, ns, i);
      DoubleVector ax = x.abs();
      VectorMask<Double> tiny = ax.compare(LT, TRIG_TINY_BELOW);
      DoubleVector z = x.mul(x);
      // k_sin.c
      DoubleVector v = z.mul(x);
      DoubleVector r = z.mul(z.mul(z.mul(z.mul(S6).add(S5)).add(S4)).add(S3)).add(S2);
      DoubleVector sinUnreduced = x.add(v.mul(z.mul(r).add(S1)));
      DoubleVector sinReduced = x.sub(z.mul(y.mul(0.5).sub(v.mul(r))).sub(y).sub(v.mul(S1)));
      DoubleVector sin =
          sinReduced.blend(sinUnreduced, n.compare(EQ, 0L).cast(DOUBLES)).blend(x, tiny);
      // k_cos.c
      DoubleVector rc =
          z.mul(z.mul(z.mul(z.mul(z.mul(z.mul(C6).add(C5)).add(C4)).add(C3)).add(C2)).add(C1));
      DoubleVector zrxy = z.mul(rc).sub(x.mul(y));
      DoubleVector one = DoubleVector.broadcast(DOUBLES, 1.0);
      DoubleVector cosNearZero = one.sub(z.mul(0.5).sub(zrxy));
      LongVector ix = ax.reinterpretAsLongs().lanewise(LSHR, 32);
      DoubleVector qx =
          ix.sub(0x00200000L)
              .lanewise(LSHL, 32)
              .reinterpretAsDoubles()
              .blend(0.28125, ix.compare(GT, 0x3fe90000L).cast(DOUBLES));
      DoubleVector cosFar = one.sub(qx).sub(z.mul(0.5).sub(qx).sub(zrxy));
      DoubleVector cos =
          cosFar.blend(cosNearZero, ax.compare(LT, COS_NEAR_ZERO_BELOW)).blend(1.0, tiny);
      LongVector quadrant = n.add((long) quadrantShift).and(3L);
      DoubleVector result = sin.blend(cos, quadrant.and(1L).compare(NE, 0L).cast(DOUBLES));
      result
          .blend(result.neg(), quadrant.compare(GE, 2L).cast(DOUBLES))
          .intoArray(out, outOffset + i);
    }
  }

  /**
   * s_erf.c as {@link dev.l0.math.L0Math#erf} computes it, for blocks of {@value #STAGE_BLOCK}
   * elements in three stages: the arguments of erfc's two exponentials (1.25 <= |x| < 6), those
   * exponentials by {@link #exp}, then every interval's formula with the lane's one chosen. Each
   * formula is computed only for the vectors with a lane in its interval (a lane's value does not
   * depend on the others'), and the exponentials only for the vectors with an erfc lane, whose
   * arguments the first stage packs one vector after another ({@link #erfExponents}). A vector step
   * with a NaN, infinite or tiny (|x| < 2^-1015) lane is computed by the scalar function; the last
   * {@code count % LANES} elements as one padded vector ({@link #lastVector}). The scratch arrays
   * are the calling thread's, reused.
   */
  static void erf(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    erfVectors(in, inOffset, out, outOffset, vectorEnd);
    lastVector(
        LaneMath::erfVectors,
        in,
        inOffset + vectorEnd,
        out,
        outOffset + vectorEnd,
        count - vectorEnd);
  }

  /** {@link #erf} of {@code count} elements, a multiple of the lanes. */
  private static void erfVectors(
      double[] in, int inOffset, double[] out, int outOffset, int count) {
    double[][] scratch = ERF_SCRATCH.get();
    for (int start = 0; start < count; start += STAGE_BLOCK) {
      erfBlock(
          in,
          inOffset + start,
          out,
          outOffset + start,
          Math.min(STAGE_BLOCK, count - start),
          scratch);
    }
  }

  /**
   * The last {@code count} elements of a range, fewer than the lanes, computed by the lane-wise
   * {@code vectors} as one vector: copied into the calling thread's padded vector, whose other
   * lanes are copies of the first of them (so that no lane takes another interval or a scalar path
   * the elements do not), and back.
   */
  private static void lastVector(
      ArrayFunction vectors, double[] in, int inOffset, double[] out, int outOffset, int count) {
    if (count == 0) {
      return;
    }
    double[] padded = PADDED.get();
    Arrays.fill(padded, in[inOffset]);
    System.arraycopy(in, inOffset, padded, 0, count);
    vectors.apply(padded, 0, padded, 0, LANES);
    System.arraycopy(padded, 0, out, outOffset, count);
  }

  /** {@link #erf} of a block of at most {@value #STAGE_BLOCK} elements, a multiple of the lanes. */
  private static void erfBlock(
      double[] in, int inOffset, double[] out, int outOffset, int block, double[][] scratch) {
    double[] first = scratch[0];
    double[] second = scratch[1];
    int packed = erfExponents(in, inOffset, first, second, block);
    exp(first, 0, first, 0, packed);
    exp(second, 0, second, 0, packed);
    erfCombine(in, inOffset, first, second, out, outOffset, block);
  }

  /**
   * The lanes of erfc's interval 1.25 <= |ax| < 6 (none for NaN), where erf needs the two
   * exponentials.
   */
  private static VectorMask<Double> erfcLanes(DoubleVector ax) {
    return ax.compare(GE, ERF_MIDDLE_BELOW).and(ax.compare(LT, ERF_ONE_FROM));
  }

  /**
   * For each vector with an erfc lane ({@link #erfcLanes}), in order, packed one vector after the
   * other: -z * z - 0.5625 and (z - |x|) * (z + |x|) + R / S of erfc's intervals, 0 in the vector's
   * other lanes (R / S from the interval's rational function, each computed only where a lane needs
   * it). Returns how many elements it wrote.
   */
  private static int erfExponents(
      double[] in, int inOffset, double[] firsts, double[] seconds, int count) {
    int packed = 0;
    for (int i = 0; i < count; i += LANES) {
      DoubleVector ax = DoubleVector.fromArray(DOUBLES, in, inOffset + i).abs();
      VectorMask<Double> erfc = erfcLanes(ax);
      if (!erfc.anyTrue()) {
        continue;
      }
      VectorMask<Double> nearer = ax.compare(LT, ERF_ERFC_A_BELOW);
      DoubleVector s = DoubleVector.broadcast(DOUBLES, 1.0).div(ax.mul(ax));
      DoubleVector ratio = DoubleVector.zero(DOUBLES);
      if (erfc.andNot(nearer).anyTrue()) {
        DoubleVector rb =
            s.mul(
                    s.mul(s.mul(s.mul(s.mul(s.mul(RB6).add(RB5)).add(RB4)).add(RB3)).add(RB2))
                        .add(RB1))
                .add(RB0);
        DoubleVector sb =
            s.mul(
                    s.mul(
                            s.mul(
                                    s.mul(s.mul(s.mul(s.mul(SB7).add(SB6)).add(SB5)).add(SB4))
                                        .add(SB3))
                                .add(SB2))
                        .add(SB1))
                .add(1.0);
        ratio = rb.div(sb);
      }
      if (erfc.and(nearer).anyTrue()) {
        DoubleVector ra =
            s.mul(
                    s.mul(
                            s.mul(
                                    s.mul(s.mul(s.mul(s.mul(RA7).add(RA6)).add(RA5)).add(RA4))
                                        .add(RA3))
                                .add(RA2))
                        .add(RA1))
                .add(RA0);
        DoubleVector sa =
            s.mul(
                    s.mul(
                            s.mul(
                                    s.mul(
                                            s.mul(
                                                    s.mul(s.mul(s.mul(SA8).add(SA7)).add(SA6))
                                                        .add(SA5))
                                                .add(SA4))
                                        .add(SA3))
                                .add(SA2))
                        .add(SA1))
                .add(1.0);
        ratio = ratio.blend(ra.div(sa), nearer);
      }
      DoubleVector z = lowWordZero(ax);
      DoubleVector zero = DoubleVector.zero(DOUBLES);
      zero.blend(z.neg().mul(z).sub(0.5625), erfc).intoArray(firsts, packed);
      zero.blend(z.sub(ax).mul(z.add(ax)).add(ratio), erfc).intoArray(seconds, packed);
      packed += LANES;
    }
    return packed;
  }

  /**
   * Each interval's formula on |x|, computed where a lane of the vector is in its interval, the
   * lane's one chosen, the sign of x applied (s_erf.c's forms are odd); the exponentials of the
   * vectors with an erfc lane come packed, in order, as {@link #erfExponents} wrote them.
   */
  private static void erfCombine(
      double[] in,
      int inOffset,
      double[] firsts,
      double[] seconds,
      double[] out,
      int outOffset,
      int count) {
    int packed = 0;
    for (int i = 0; i < count; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      DoubleVector ax = x.abs();
      VectorMask<Double> erfc = erfcLanes(ax);
      int exponentials = packed;
      if (erfc.anyTrue()) {
        packed += LANES;
      }
      if (!ax.compare(GE, ERF_LANES_FROM).and(ax.compare(LT, Double.POSITIVE_INFINITY)).allTrue()) {
        ScalarLoops.erf(in, inOffset + i, out, outOffset + i, LANES);
        continue;
      }
      // from 6 on 1 - tiny
      DoubleVector magnitude = DoubleVector.broadcast(DOUBLES, 1.0 - TINY);
      // 1.25 <= |x| < 6: 1 - exp(first) * exp(second) / |x|
      if (erfc.anyTrue()) {
        DoubleVector e =
            DoubleVector.fromArray(DOUBLES, firsts, exponentials)
                .mul(DoubleVector.fromArray(DOUBLES, seconds, exponentials));
        magnitude = magnitude.blend(DoubleVector.broadcast(DOUBLES, 1.0).sub(e.div(ax)), erfc);
      }
      VectorMask<Double> middle = ax.compare(LT, ERF_MIDDLE_BELOW);
      VectorMask<Double> small = ax.compare(LT, ERF_SMALL_BELOW);
      // 0.84375 <= |x| < 1.25: erx + p / q
      if (middle.andNot(small).anyTrue()) {
        DoubleVector d = ax.sub(1.0);
        DoubleVector p =
            d.mul(
                    d.mul(d.mul(d.mul(d.mul(d.mul(PA6).add(PA5)).add(PA4)).add(PA3)).add(PA2))
                        .add(PA1))
                .add(PA0);
        DoubleVector q =
            d.mul(
                    d.mul(d.mul(d.mul(d.mul(d.mul(QA6).add(QA5)).add(QA4)).add(QA3)).add(QA2))
                        .add(QA1))
                .add(1.0);
        magnitude = magnitude.blend(p.div(q).add(ERX), middle);
      }
      // |x| < 0.84375: x + x * (r / s); below 2^-28 x + efx * x
      if (small.anyTrue()) {
        DoubleVector z = ax.mul(ax);
        DoubleVector r = z.mul(z.mul(z.mul(z.mul(PP4).add(PP3)).add(PP2)).add(PP1)).add(PP0);
        DoubleVector s =
            z.mul(z.mul(z.mul(z.mul(z.mul(QQ5).add(QQ4)).add(QQ3)).add(QQ2)).add(QQ1)).add(1.0);
        magnitude =
            magnitude.blend(
                ax.add(ax.mul(r.div(s))).blend(ax.add(ax.mul(EFX)), ax.compare(LT, ERF_TINY_BELOW)),
                small);
      }
      magnitude.blend(magnitude.neg(), x.compare(LT, 0.0)).intoArray(out, outOffset + i);
    }
  }

  static void sqrt(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    for (int i = 0; i < vectorEnd; i += LANES) {
      DoubleVector.fromArray(DOUBLES, in, inOffset + i)
          .lanewise(SQRT)
          .intoArray(out, outOffset + i);
    }
    ScalarLoops.sqrt(in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd);
  }
}
