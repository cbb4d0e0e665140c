package dev.l0.kernels.vector;

import static jdk.incubator.vector.VectorOperators.ASHR;
import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.SQRT;
import static jdk.incubator.vector.VectorOperators.XOR;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * fdlibm 5.3's {@code exp} (e_exp.c) and {@code log} (e_log.c), and the correctly rounded square
 * root, written with the Vector API over {@link DoubleVector#SPECIES_PREFERRED}: the same
 * floating-point operations in the same order as the C code, so each lane's result equals
 * {@link StrictMath}'s bit for bit. fdlibm's branches become blends of both sides; a vector step
 * with a lane outside the common range (for exp |x| >= 708 or NaN, for log anything but a positive
 * normal finite number) is computed by the scalar functions instead, so that rarely run vector code
 * never stays interpreted.
 *
 * <p>Conventions that keep it exact and fast on JDK 17: fdlibm's tests on the high word are
 * compares on the value; truncation and integer-to-double conversion use the 1.5·2^52
 * magic-number trick (JDK 17 has no fast lane conversion between double and long); 2^k is added to
 * the exponent field as fdlibm's {@code __HI(y) += k << 20} does. Methods are small so that C2
 * compiles each array loop with its lane kernel inside it; vectors never cross a call (a method
 * over 325 bytecodes is not inlined, and vectors that cross such a call are boxed).
 *
 * <p>Only {@link VectorMath} calls this class, and only when the module is loaded.
 */
final class LaneMath {
  private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
  private static final int LANES = DOUBLES.length();

  /** 1.5 * 2^52: adding it rounds a double of magnitude below 2^51 to an integer (ties to even). */
  private static final double MAGIC = 0x1.8p52;
  private static final long MAGIC_BITS = Double.doubleToRawLongBits(MAGIC);

  // e_exp.c
  private static final double EXP_SCALAR_FROM = 708.0;
  /** |x| above 0.5 ln2: fdlibm's {@code hx > 0x3fd62e42}. */
  private static final double EXP_REDUCE_FROM = Double.longBitsToDouble(0x3fd62e4300000000L);
  /** |x| below 2^-28: fdlibm's {@code hx < 0x3e300000}. */
  private static final double EXP_TINY_BELOW = Double.longBitsToDouble(0x3e30000000000000L);
  private static final double LN2_HI = 6.93147180369123816490e-01;
  private static final double LN2_LO = 1.90821492927058770002e-10;
  private static final double INVLN2 = 1.44269504088896338700e+00;
  private static final double P1 = 1.66666666666666019037e-01;
  private static final double P2 = -2.77777777770155933842e-03;
  private static final double P3 = 6.61375632143793436117e-05;
  private static final double P4 = -1.65339022054652515390e-06;
  private static final double P5 = 4.13813679705723846039e-08;

  // e_log.c
  private static final double LG1 = 6.666666666666735130e-01;
  private static final double LG2 = 3.999999999940941908e-01;
  private static final double LG3 = 2.857142874366239149e-01;
  private static final double LG4 = 2.222219843214978396e-01;
  private static final double LG5 = 1.818357216161805012e-01;
  private static final double LG6 = 1.531383769920937332e-01;
  private static final double LG7 = 1.479819860511658591e-01;

  private LaneMath() {}

  static int lanes() {
    return LANES;
  }

  /**
   * Whether vectors are wider than one double and the double and long species have the same
   * lane count (the lane kernels reinterpret one as the other).
   */
  static boolean usefulOnThisMachine() {
    return LANES >= 2 && LONGS.length() == LANES;
  }

  /**
   * e_exp.c, lane-wise for vectors whose lanes all have |x| < 708 (no overflow, no subnormal
   * result, k >= -1021), the scalar function for the others.
   */
  static void exp(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    for (int i = 0; i < vectorEnd; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      if (!x.abs().compare(LT, EXP_SCALAR_FROM).allTrue()) {
        ScalarLoops.exp(in, inOffset + i, out, outOffset + i, LANES);
        continue;
      }
      DoubleVector ax = x.abs();
      VectorMask<Double> reduce = ax.compare(GE, EXP_REDUCE_FROM);
      // k = (int) (invln2 * x + halF[xsb]); for 0.5 ln2 < |x| < 1.5 ln2 this is fdlibm's k = 1 - 2 xsb,
      // and x - k * ln2HI, k * ln2LO are then its hi and lo with ln2HI[xsb], ln2LO[xsb].
      DoubleVector half = DoubleVector.broadcast(DOUBLES, 0.5).blend(-0.5, x.compare(LT, 0.0));
      DoubleVector k = truncate(x.mul(INVLN2).add(half)).blend(0.0, reduce.not());
      DoubleVector hi = x.sub(k.mul(LN2_HI));
      DoubleVector lo = k.mul(LN2_LO);
      DoubleVector r = hi.sub(lo);
      DoubleVector t = r.mul(r);
      DoubleVector c = r.sub(t.mul(t.mul(t.mul(t.mul(t.mul(P5).add(P4)).add(P3)).add(P2)).add(P1)));
      // k == 0: one - ((x * c) / (c - 2.0) - x)
      DoubleVector one = DoubleVector.broadcast(DOUBLES, 1.0);
      DoubleVector unreduced = one.sub(r.mul(c).div(c.sub(2.0)).sub(r));
      // otherwise y = one - ((lo - (x * c) / (2.0 - c)) - hi), then y * 2^k
      DoubleVector y = one.sub(lo.sub(r.mul(c).div(DoubleVector.broadcast(DOUBLES, 2.0).sub(c))).sub(hi));
      LongVector kBits = k.add(MAGIC).reinterpretAsLongs().sub(MAGIC_BITS).lanewise(LSHL, 52);
      DoubleVector scaled = y.reinterpretAsLongs().add(kBits).reinterpretAsDoubles();
      // |x| < 2^-28: one + x
      unreduced.blend(scaled, reduce).blend(x.add(1.0), ax.compare(LT, EXP_TINY_BELOW)).intoArray(out, outOffset + i);
    }
    ScalarLoops.exp(in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd);
  }

  /** Rounds toward zero, for |v| < 2^51: the nearest integer, then one step back where it overshot. */
  private static DoubleVector truncate(DoubleVector v) {
    DoubleVector magnitude = v.abs();
    DoubleVector nearest = magnitude.add(MAGIC).sub(MAGIC);
    DoubleVector down = nearest.sub(1.0).blend(nearest, nearest.compare(GT, magnitude).not());
    return down.blend(down.neg(), v.compare(LT, 0.0));
  }

  /**
   * e_log.c, lane-wise for vectors whose lanes are all positive normal finite numbers, the scalar
   * function for the others. fdlibm's {@code k == 0} forms and its {@code f == 0}
   * case give the same bits as the general forms used here (k = 0 makes {@code dk * ln2_hi} and
   * {@code dk * ln2_lo} zero, and f = 0 makes R zero).
   */
  static void log(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    for (int i = 0; i < vectorEnd; i += LANES) {
      DoubleVector x = DoubleVector.fromArray(DOUBLES, in, inOffset + i);
      if (!x.compare(GE, Double.MIN_NORMAL).and(x.compare(LT, Double.POSITIVE_INFINITY)).allTrue()) {
        ScalarLoops.log(in, inOffset + i, out, outOffset + i, LANES);
        continue;
      }
      LongVector bits = x.reinterpretAsLongs();
      LongVector high = bits.lanewise(LSHR, 32);
      LongVector fraction = high.and(0xfffffL);
      // i = (hx + 0x95f64) & 0x100000: whether to normalise x into [sqrt(2)/2, sqrt(2)) as x or x/2
      LongVector half = fraction.add(0x95f64L).and(0x100000L);
      LongVector normalHigh = fraction.or(half.lanewise(XOR, 0x3ff00000L));
      DoubleVector normal = normalHigh.lanewise(LSHL, 32).or(bits.and(0xffffffffL)).reinterpretAsDoubles();
      LongVector k = high.lanewise(ASHR, 20).sub(1023L).add(half.lanewise(LSHR, 20));
      DoubleVector dk = k.add(MAGIC_BITS).reinterpretAsDoubles().sub(MAGIC);
      DoubleVector f = normal.sub(1.0);
      DoubleVector kHi = dk.mul(LN2_HI);
      DoubleVector kLo = dk.mul(LN2_LO);
      // |f| < 2^-20: R = f * f * (0.5 - 0.33333333333333333 * f); dk * ln2_hi - ((R - dk * ln2_lo) - f)
      DoubleVector nearOne = kHi.sub(
          f.mul(f).mul(DoubleVector.broadcast(DOUBLES, 0.5).sub(f.mul(0.33333333333333333))).sub(kLo).sub(f));
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
      VectorMask<Long> squareRange = fraction.sub(0x6147aL).or(LongVector.broadcast(LONGS, 0x6b851L).sub(fraction))
          .compare(GT, 0L);
      VectorMask<Long> fNearZero = fraction.add(2L).and(0xfffffL).compare(LT, 3L);
      // blended as bit patterns: the masks are on longs, and reinterpreting costs nothing
      plain.reinterpretAsLongs().blend(withSquare.reinterpretAsLongs(), squareRange)
          .blend(nearOne.reinterpretAsLongs(), fNearZero).reinterpretAsDoubles().intoArray(out, outOffset + i);
    }
    ScalarLoops.log(in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd);
  }

  static void sqrt(double[] in, int inOffset, double[] out, int outOffset, int count) {
    int vectorEnd = count - count % LANES;
    for (int i = 0; i < vectorEnd; i += LANES) {
      DoubleVector.fromArray(DOUBLES, in, inOffset + i).lanewise(SQRT).intoArray(out, outOffset + i);
    }
    ScalarLoops.sqrt(in, inOffset + vectorEnd, out, outOffset + vectorEnd, count - vectorEnd);
  }
}
