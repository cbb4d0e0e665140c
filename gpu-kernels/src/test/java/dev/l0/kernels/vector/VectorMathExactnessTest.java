package dev.l0.kernels.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every function of {@link VectorMath}, lane-wise and scalar fallback, against StrictMath raw bit
 * for raw bit: specials, each algorithm's interval boundaries with 2000 neighbours either side,
 * random bit patterns and domain values ({@link ExactnessCheck}). {@code VectorMathCheck} runs the
 * same comparison on 10^8 inputs per function.
 */
class VectorMathExactnessTest {
  private static final long LANE_INPUTS = 1_500_000;
  private static final long FALLBACK_INPUTS = 300_000;

  @Test
  void theLaneWiseCodeRunsWhereTheModuleIsLoaded() {
    assertTrue(
        ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
        "surefire loads the module");
    assumeTrue(LaneMath.usefulOnThisMachine(), "this machine's vectors hold one double");
    assertTrue(VectorMath.lanewise());
    assertTrue(VectorMath.lanes() >= 2, "lanes: " + VectorMath.lanes());
  }

  @ParameterizedTest
  @EnumSource(CheckedFunction.class)
  void laneWiseResultsEqualStrictMath(CheckedFunction function) {
    assumeTrue(LaneMath.usefulOnThisMachine());
    ExactnessCheck.Result result = ExactnessCheck.run(function, function.lanes(), LANE_INPUTS, 17);
    assertEquals(LANE_INPUTS, result.inputs());
    assertEquals(0, result.mismatches(), () -> function + " differs first at " + describe(result));
  }

  @ParameterizedTest
  @EnumSource(CheckedFunction.class)
  void fallbackResultsEqualStrictMath(CheckedFunction function) {
    ExactnessCheck.Result result =
        ExactnessCheck.run(function, function.fallback(), FALLBACK_INPUTS, 18);
    assertEquals(0, result.mismatches(), () -> function + " differs first at " + describe(result));
  }

  /**
   * Ranges of every length up to a few vectors, so that each ends in a partial vector (computed as
   * one padded vector where the function pads), at an odd offset and in place, over inputs that
   * change interval from one element to the next: boundaries, specials, tiny and erfc-range values.
   */
  @ParameterizedTest
  @EnumSource(CheckedFunction.class)
  void rangesOfAnyLengthEqualStrictMath(CheckedFunction function) {
    assumeTrue(LaneMath.usefulOnThisMachine());
    SplittableRandom random = new SplittableRandom(21);
    long[] boundaries = function.boundaries();
    double[] pool = new double[boundaries.length + 12];
    for (int i = 0; i < boundaries.length; i++) {
      pool[i] = Double.longBitsToDouble(boundaries[i]);
    }
    double[] extra = {
      Double.NaN,
      Double.POSITIVE_INFINITY,
      -0.0,
      1e-310,
      0.3,
      -0.9,
      1.1,
      2.5,
      -4.0,
      7.0,
      40.0,
      -0.01
    };
    System.arraycopy(extra, 0, pool, boundaries.length, extra.length);
    int lanes = LaneMath.lanes();
    for (int round = 0; round < 40; round++) {
      double[] in = new double[4 * lanes + 8];
      for (int i = 0; i < in.length; i++) {
        in[i] = pool[random.nextInt(pool.length)];
      }
      for (int count = 0; count <= 3 * lanes + 3; count++) {
        double[] out = new double[in.length];
        function.lanes().apply(in, 3, out, 1, count);
        double[] inPlace = in.clone();
        function.lanes().apply(inPlace, 3, inPlace, 3, count);
        for (int i = 0; i < count; i++) {
          long expected = Double.doubleToRawLongBits(function.reference(in[3 + i]));
          String where = function + " of " + in[3 + i] + ", count " + count + ", index " + i;
          assertEquals(expected, Double.doubleToRawLongBits(out[1 + i]), where);
          assertEquals(expected, Double.doubleToRawLongBits(inPlace[3 + i]), "in place, " + where);
        }
        assertEquals(0.0, out[1 + count], "nothing written past the range");
      }
    }
  }

  @Test
  void laneWisePowEqualsStrictMath() {
    assumeTrue(LaneMath.usefulOnThisMachine());
    ExactnessCheck.Result result = ExactnessCheck.runPow(LaneMath::pow, LANE_INPUTS, 19);
    assertEquals(
        0,
        result.mismatches(),
        () ->
            "pow differs first at y = "
                + Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchY()))
                + ", "
                + describe(result));
  }

  @Test
  void fallbackPowEqualsStrictMath() {
    ExactnessCheck.Result result = ExactnessCheck.runPow(ScalarLoops::pow, FALLBACK_INPUTS, 20);
    assertEquals(0, result.mismatches(), () -> "pow differs first at " + describe(result));
  }

  @Test
  void powOverRangesAtAnyOffsetAndInPlace() {
    SplittableRandom random = new SplittableRandom(6);
    double[] x = random.doubles(1100, 0.01, 300).toArray();
    double[] y = random.doubles(1100, -40, 40).toArray();
    x[17] = -2.0;
    y[17] = 3.0;
    y[40] = 0.5;
    for (int count : new int[] {0, 3, 8, 257, 1000}) {
      double[] out = new double[1100];
      VectorMath.pow(x, 5, y, 9, out, 2, count);
      double[] inPlace = x.clone();
      VectorMath.pow(inPlace, 0, y, 0, inPlace, 0, count);
      for (int i = 0; i < count; i++) {
        assertEquals(
            Double.doubleToRawLongBits(StrictMath.pow(x[5 + i], y[9 + i])),
            Double.doubleToRawLongBits(out[2 + i]),
            "count " + count + ", index " + i);
        assertEquals(
            Double.doubleToRawLongBits(StrictMath.pow(x[i], y[i])),
            Double.doubleToRawLongBits(inPlace[i]),
            "in place, count " + count + ", index " + i);
      }
    }
    IndexOutOfBoundsException exponent =
        assertThrows(
            IndexOutOfBoundsException.class,
            () -> VectorMath.pow(x, 0, new double[4], 0, new double[8], 0, 8));
    assertEquals(
        "exponent range [0, 0 + 8) is outside the exponent array of length 4",
        exponent.getMessage());
  }

  @Test
  void theCheckCountsAOneUlpDifferenceNearABoundary() {
    ArrayFunction offByOneUlpAboveTwoToMinus28 =
        (in, inOffset, out, outOffset, count) -> {
          VectorMath.exp(in, inOffset, out, outOffset, count);
          for (int i = 0; i < count; i++) {
            double x = in[inOffset + i];
            if (x > 0x1p-28 && x < 0x1.00000001p-28) {
              out[outOffset + i] = Math.nextUp(out[outOffset + i]);
            }
          }
        };
    ExactnessCheck.Result result =
        ExactnessCheck.run(CheckedFunction.EXP, offByOneUlpAboveTwoToMinus28, 100_000, 1);
    assertEquals(2000, result.mismatches(), "the 2000 neighbours above 2^-28");
    assertEquals(Math.nextUp(0x1p-28), result.firstMismatchInput());
  }

  @ParameterizedTest
  @EnumSource(CheckedFunction.class)
  void rangesAtAnyOffsetAndLengthAndInPlace(CheckedFunction function) {
    SplittableRandom random = new SplittableRandom(5);
    double[] values = new double[1500];
    for (int i = 0; i < values.length; i++) {
      values[i] = i % 97 == 0 ? Double.NaN : function.sampleDomain(random);
    }
    for (int count : new int[] {0, 1, 7, 9, 1021, 1400}) {
      double[] out = new double[values.length];
      function.product().apply(values, 3, out, 11, count);
      double[] inPlace = values.clone();
      function.product().apply(inPlace, 3, inPlace, 3, count);
      for (int i = 0; i < out.length; i++) {
        boolean written = i >= 11 && i < 11 + count;
        double expected = written ? function.reference(values[i - 11 + 3]) : 0.0;
        assertEquals(
            Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(out[i]),
            "count " + count + ", index " + i);
      }
      for (int i = 0; i < values.length; i++) {
        boolean written = i >= 3 && i < 3 + count;
        double expected = written ? function.reference(values[i]) : values[i];
        assertEquals(
            Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(inPlace[i]),
            "in place, index " + i);
      }
    }
  }

  @Test
  void rangesOutsideTheArraysAreRejectedWithTheRange() {
    double[] in = new double[10];
    double[] out = new double[10];
    IndexOutOfBoundsException input =
        assertThrows(IndexOutOfBoundsException.class, () -> VectorMath.exp(in, 4, out, 0, 7));
    assertEquals(
        "input range [4, 4 + 7) is outside the input array of length 10", input.getMessage());
    IndexOutOfBoundsException output =
        assertThrows(IndexOutOfBoundsException.class, () -> VectorMath.log(in, 0, out, -1, 2));
    assertEquals(
        "output range [-1, -1 + 2) is outside the output array of length 10", output.getMessage());
    assertThrows(IllegalArgumentException.class, () -> VectorMath.sqrt(in, 0, out, 0, -1));
  }

  @Test
  void withoutTheModuleTheScalarFallbackRunsWithTheSameResults() throws Exception {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                List.of(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    VectorMathCheck.class.getName(),
                    "--inputs",
                    "50000"))
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    List<String> functions = List.of("exp", "log", "sin", "cos", "erf", "sqrt", "pow");
    for (String function : functions) {
      assertTrue(
          output.contains("\"function\": \"" + function + "\", \"lanewise\": false, \"lanes\": 1"),
          output);
    }
    assertEquals(functions.size(), output.split("\"mismatches\": 0,", -1).length - 1, output);
    assertTrue(!output.contains("incubator"), "the child JVM ran without the module: " + output);
  }

  private static String describe(ExactnessCheck.Result result) {
    return "x = "
        + Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchInput()))
        + ": expected "
        + Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchExpected()))
        + ", got "
        + Long.toHexString(Double.doubleToRawLongBits(result.firstMismatchActual()))
        + " ("
        + result.mismatches()
        + " mismatches)";
  }
}
