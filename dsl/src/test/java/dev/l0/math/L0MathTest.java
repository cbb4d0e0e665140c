package dev.l0.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class L0MathTest {
  private static final MathContext PRECISION = new MathContext(90, RoundingMode.HALF_EVEN);
  private static final BigDecimal PI =
      new BigDecimal(
          "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651");

  /**
   * erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)), summed with 90 digits until the
   * terms vanish.
   */
  private static double seriesErf(double x) {
    BigDecimal bx = new BigDecimal(x);
    BigDecimal x2 = bx.multiply(bx, PRECISION);
    BigDecimal power = bx; // (-1)^n x^(2n+1) / n!
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal negligible = new BigDecimal("1e-40");
    for (int n = 0; n < 2000; n++) {
      BigDecimal term = power.divide(BigDecimal.valueOf(2L * n + 1), PRECISION);
      sum = sum.add(term, PRECISION);
      if (n > 10 && term.abs().compareTo(negligible) < 0) {
        break;
      }
      power = power.multiply(x2, PRECISION).divide(BigDecimal.valueOf(-(n + 1L)), PRECISION);
    }
    BigDecimal twoOverSqrtPi = BigDecimal.valueOf(2).divide(PI.sqrt(PRECISION), PRECISION);
    return sum.multiply(twoOverSqrtPi, PRECISION).doubleValue();
  }

  @Test
  void erfMatchesPublishedValues() {
    assertEquals(0.5204998778130465, L0Math.erf(0.5));
    assertEquals(0.8427007929497149, L0Math.erf(1.0));
    assertEquals(-0.9953222650189527, L0Math.erf(-2.0));
    assertEquals(1.1283791670955126e-10, L0Math.erf(1e-10));
    assertEquals(1.0, L0Math.erf(6.0));
    assertEquals(0.0, L0Math.erf(0.0));
    assertEquals(Double.doubleToLongBits(-0.0), Double.doubleToLongBits(L0Math.erf(-0.0)));
  }

  @Test
  void erfOfNonFiniteArguments() {
    assertEquals(1.0, L0Math.erf(Double.POSITIVE_INFINITY));
    assertEquals(-1.0, L0Math.erf(Double.NEGATIVE_INFINITY));
    assertTrue(Double.isNaN(L0Math.erf(Double.NaN)));
    assertEquals(Double.MIN_VALUE, L0Math.erf(Double.MIN_VALUE)); // the subnormal branch
  }

  @Test
  void erfIsWithinOneUlpOfAHighPrecisionSeriesOnMinusSixToSix() {
    Random random = new Random(20261122L);
    for (int i = 0; i <= 2400; i++) {
      // a grid that crosses every interval boundary of the algorithm, plus random points
      double gridPoint = -6.0 + i * 0.005;
      double randomPoint = -6.0 + 12.0 * random.nextDouble();
      for (double x : new double[] {gridPoint, randomPoint}) {
        double expected = seriesErf(x);
        double actual = L0Math.erf(x);
        assertTrue(
            Math.abs(actual - expected) <= Math.ulp(expected),
            "erf(" + x + ") = " + actual + ", series gives " + expected);
      }
    }
  }

  @Property
  void erfIsOdd(@ForAll @DoubleRange(min = -30, max = 30) double x) {
    assertEquals(-L0Math.erf(x), L0Math.erf(-x));
  }

  @Property
  void erfIsMonotoneAndBounded(@ForAll @DoubleRange(min = -8, max = 8) double x) {
    double next = Math.nextUp(x);
    assertTrue(L0Math.erf(x) <= L0Math.erf(next));
    assertTrue(Math.abs(L0Math.erf(x)) <= 1.0);
  }

  @Test
  void singlePrecisionVersionsRoundTheDoubleResultOnce() {
    float x = 0.7f;
    assertEquals((float) StrictMath.exp(0.7f), L0Math.expf(x));
    assertEquals((float) StrictMath.log(0.7f), L0Math.logf(x));
    assertEquals((float) StrictMath.sin(0.7f), L0Math.sinf(x));
    assertEquals((float) StrictMath.cos(0.7f), L0Math.cosf(x));
    assertEquals((float) StrictMath.sqrt(0.7f), L0Math.sqrtf(x));
    assertEquals((float) L0Math.erf(0.7f), L0Math.erff(x));
    assertEquals((float) StrictMath.pow(0.7f, 3.3f), L0Math.powf(x, 3.3f));
    assertEquals(-1.0f, L0Math.floorf(-0.5f));
  }

  @Test
  void erfOfSinglePrecisionArgumentsAgreesWithTheDoubleSeries() {
    for (float x = -4.0f; x <= 4.0f; x += 0.0625f) {
      assertEquals(
          (float) seriesErf(x), L0Math.erff(x), Math.ulp((float) seriesErf(x)), "erff(" + x + ")");
    }
  }

  /** L0Math.log against StrictMath.log (native fdlibm on JDK 17): the same bits, or both NaN. */
  private static void assertLogAsStrictMath(double x) {
    double expected = StrictMath.log(x);
    double actual = L0Math.log(x);
    if (Double.isNaN(expected)) {
      assertTrue(Double.isNaN(actual), "log(" + x + ") = " + actual + ", StrictMath gives NaN");
    } else {
      assertEquals(
          Double.doubleToRawLongBits(expected),
          Double.doubleToRawLongBits(actual),
          () -> "log(" + x + ") = " + actual + ", StrictMath gives " + expected);
    }
  }

  @Test
  void logGivesStrictMathsBitsOnSpecialAndBoundaryArguments() {
    double[] special = {
      0.0,
      -0.0,
      1.0,
      -1.0,
      2.0,
      0.5,
      Math.E,
      Double.MIN_VALUE,
      -Double.MIN_VALUE,
      Double.MIN_NORMAL,
      Math.nextDown(Double.MIN_NORMAL),
      Double.MAX_VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.NaN,
      Math.sqrt(2.0),
      Math.sqrt(0.5),
      0.925,
      1.075
    };
    for (double x : special) {
      assertLogAsStrictMath(x);
    }
    // around 1 (|f| < 2^-20 and the f = 0 case), around sqrt(2) and its half (the normalisation
    // switch), around powers of two, and the ends of the range where hfsq is used
    for (double centre : new double[] {1.0, Math.sqrt(2.0), Math.sqrt(0.5), 2.0, 4.0, 0.25}) {
      double x = centre;
      double y = centre;
      for (int i = 0; i < 5000; i++) {
        assertLogAsStrictMath(x);
        assertLogAsStrictMath(y);
        x = Math.nextUp(x);
        y = Math.nextDown(y);
      }
    }
    for (int exponent = -1074; exponent <= 1023; exponent++) {
      assertLogAsStrictMath(Math.scalb(1.0, exponent));
      assertLogAsStrictMath(Math.scalb(1.5, exponent));
    }
  }

  @Test
  void logGivesStrictMathsBitsOnRandomArguments() {
    Random random = new Random(20261126L);
    for (int i = 0; i < 1_000_000; i++) {
      assertLogAsStrictMath(Double.longBitsToDouble(random.nextLong())); // every exponent, sign
      assertLogAsStrictMath(random.nextDouble()); // (0, 1): the inverse normal's arguments
      assertLogAsStrictMath(Double.longBitsToDouble(random.nextLong() >>> 12)); // subnormal
      assertLogAsStrictMath(0.5 + 1.5 * random.nextDouble()); // near 1: k = 0 and k = 1
    }
  }

  @Test
  void expEqualsStrictMathBitForBit() {
    Random random = new Random(20261126L);
    double[] edges = {
      0.0,
      -0.0,
      1e-300,
      0x1p-28,
      -0x1p-28,
      0.34657359027997264,
      0.3465735902799727,
      -0.35,
      1.0397207708399179,
      -1.0397207708399179,
      709.782712893384,
      709.78,
      -708.39,
      -745.13,
      -745.2,
      -720.0,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    for (double x : edges) {
      assertEquals(
          Double.doubleToRawLongBits(StrictMath.exp(x)),
          Double.doubleToRawLongBits(L0Math.exp(x)),
          "exp(" + x + ")");
    }
    double[] scales = {1e-8, 0.4, 1.1, 5.0, 40.0, 750.0};
    for (int i = 0; i < 3_000_000; i++) {
      double x = (2.0 * random.nextDouble() - 1.0) * scales[i % scales.length];
      assertEquals(
          Double.doubleToRawLongBits(StrictMath.exp(x)),
          Double.doubleToRawLongBits(L0Math.exp(x)),
          "exp(" + x + ")");
    }
  }
}
