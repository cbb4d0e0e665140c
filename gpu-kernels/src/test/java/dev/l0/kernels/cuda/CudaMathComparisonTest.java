package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The argument sets and the bit comparison behind the host and device checks. */
class CudaMathComparisonTest {
  private static final CudaMathRoutine EXP = new CudaMathRoutine(CudaMathFunction.EXP, false);
  private static final CudaMathRoutine POWF = new CudaMathRoutine(CudaMathFunction.POW, true);

  @Test
  void jvmResultsMatchAndAOneUlpDifferenceIsCounted() {
    CudaMathInputs inputs = CudaMathInputs.forRoutine(EXP, 1000);
    long[] results = new long[inputs.size()];
    for (int i = 0; i < results.length; i++) {
      results[i] =
          Double.doubleToRawLongBits(StrictMath.exp(Double.longBitsToDouble(inputs.first(i))));
    }
    assertEquals(0, CudaMathComparison.of(EXP, inputs, results).mismatches());

    int changed = 0;
    for (int i = 0; i < results.length; i += 100) {
      double value = Double.longBitsToDouble(results[i]);
      if (!Double.isNaN(value) && !Double.isInfinite(value)) {
        results[i] = Double.doubleToRawLongBits(Math.nextUp(value));
        changed++;
      }
    }
    CudaMathComparison comparison = CudaMathComparison.of(EXP, inputs, results);
    assertEquals(changed, comparison.mismatches());
    assertTrue(
        comparison.firstMismatch().orElseThrow().startsWith("l0_exp(0x"),
        comparison.firstMismatch().get());
    assertTrue(
        comparison
            .toJson("test")
            .endsWith(
                "\"mismatches\": "
                    + changed
                    + ", \"firstMismatch\": \""
                    + comparison.firstMismatch().get()
                    + "\"}"),
        comparison.toJson("test"));
  }

  @Test
  void anyNanEqualsAnyNanButSignedZerosDiffer() {
    assertTrue(CudaMathRoutine.sameResult(0x7ff8000000000000L, 0xfff8000000000001L));
    assertTrue(CudaMathRoutine.sameResult(0x7ff0000000000001L, 0x7fffffffffffffffL));
    assertTrue(!CudaMathRoutine.sameResult(0x0000000000000000L, 0x8000000000000000L));
    assertTrue(!CudaMathRoutine.sameResult(0x7ff0000000000000L, 0x7ff8000000000000L));
  }

  @Test
  void inputsAreDeterministicAndCoverTheSpecialValues() {
    CudaMathInputs once = CudaMathInputs.forRoutine(EXP, 5000);
    CudaMathInputs again = CudaMathInputs.forRoutine(EXP, 5000);
    assertTrue(Arrays.equals(once.firstBits(), again.firstBits()));
    Set<Long> values = new HashSet<>();
    for (long bits : once.firstBits()) {
      values.add(bits);
    }
    for (double special :
        new double[] {
          0.0,
          -0.0,
          Double.MIN_VALUE,
          Double.MAX_VALUE,
          Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY,
          Double.NaN
        }) {
      assertTrue(values.contains(Double.doubleToRawLongBits(special)), "missing " + special);
    }
    assertNotEquals(
        Arrays.hashCode(once.firstBits()),
        Arrays.hashCode(
            CudaMathInputs.forRoutine(new CudaMathRoutine(CudaMathFunction.LOG, false), 5000)
                .firstBits()));
  }

  @Test
  void singlePrecisionArgumentsAreFloats() {
    CudaMathInputs inputs = CudaMathInputs.forRoutine(POWF, 20_000);
    for (int i = 0; i < inputs.size(); i++) {
      for (long bits : new long[] {inputs.first(i), inputs.second(i)}) {
        double value = Double.longBitsToDouble(bits);
        assertTrue(Double.isNaN(value) || (double) (float) value == value, "not a float: " + value);
      }
    }
  }

  @Test
  void singlePrecisionReferenceRoundsTheDoubleResult() {
    float x = 1.7f;
    assertEquals((double) (float) StrictMath.exp(x), CudaMathFunction.EXP.reference(x, 0.0, true));
    assertEquals(
        (double) (float) StrictMath.pow(x, 2.5f), CudaMathFunction.POW.reference(x, 2.5, true));
  }
}
