package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Comparisons of floating-point results that say where and by how much they differ. */
final class NumericAssertions {
  private NumericAssertions() {}

  /** Every element has the same bits (so -0.0 differs from 0.0 and NaNs must match exactly). */
  static void assertBitIdentical(double[] expected, double[] actual, String what) {
    assertEquals(expected.length, actual.length, what + ": number of rows");
    int differing = 0;
    int first = -1;
    for (int i = 0; i < expected.length; i++) {
      if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
        differing++;
        first = first < 0 ? i : first;
      }
    }
    if (differing > 0) {
      fail(
          what
              + ": "
              + differing
              + " of "
              + expected.length
              + " values differ in their bits; first at row "
              + first
              + ": expected "
              + expected[first]
              + ", got "
              + actual[first]);
    }
  }

  /** The same bits, for one value. */
  static void assertBitIdentical(double expected, double actual, String what) {
    assertBitIdentical(new double[] {expected}, new double[] {actual}, what);
  }

  /** {@code |actual - expected| <= tolerance * |expected|}. */
  static void assertRelativelyClose(double expected, double actual, double tolerance, String what) {
    assertRelativelyClose(new double[] {expected}, new double[] {actual}, tolerance, what);
  }

  /**
   * Element by element, {@code |actual - expected| <= tolerance * |expected|} (equal values always
   * pass).
   */
  static void assertRelativelyClose(
      double[] expected, double[] actual, double tolerance, String what) {
    assertEquals(expected.length, actual.length, what + ": number of rows");
    int failing = 0;
    int first = -1;
    for (int i = 0; i < expected.length; i++) {
      boolean close =
          actual[i] == expected[i]
              || Math.abs(actual[i] - expected[i]) <= tolerance * Math.abs(expected[i]);
      if (!close) {
        failing++;
        first = first < 0 ? i : first;
      }
    }
    if (failing > 0) {
      fail(
          what
              + ": "
              + failing
              + " of "
              + expected.length
              + " values differ by more than "
              + tolerance
              + " relative; first at row "
              + first
              + ": expected "
              + expected[first]
              + ", got "
              + actual[first]);
    }
  }
}
