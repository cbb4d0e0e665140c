package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The staging rule kernels and the printer share ({@link JvmSupport#runsPlain}), at its bounds. */
class JvmSupportTest {
  private static final long MIN = InnerLoopStages.MIN_ITERATIONS;

  @Test
  void aRunIsStagedFromMinIterationsOn() {
    assertTrue(JvmSupport.runsPlain(5, 5 + MIN - 1, 1, 1, false));
    assertFalse(JvmSupport.runsPlain(5, 5 + MIN, 1, 1, false));
    // counted in iterations, not in the range's length
    assertTrue(JvmSupport.runsPlain(0, 3 * MIN - 1, 3, 1, false));
    assertFalse(JvmSupport.runsPlain(0, 3 * MIN, 3, 1, false));
  }

  @Test
  void tooManyEvaluationsPerIterationRunPlain() {
    long most = InnerLoopStages.MAX_EVALUATIONS_PER_ITERATION;
    assertFalse(JvmSupport.runsPlain(0, 1000, 1, most, false));
    assertTrue(JvmSupport.runsPlain(0, 1000, 1, most + 1, false));
  }

  @Test
  void aRegionNeedsRegionMinEvaluationsPerRun() {
    long needed = InnerLoopStages.REGION_MIN_EVALUATIONS;
    assertFalse(JvmSupport.runsPlain(0, needed / 4, 1, 4, true));
    assertTrue(JvmSupport.runsPlain(0, needed / 4 - 1, 1, 4, true));
    assertFalse(JvmSupport.runsPlain(0, needed / 4 - 1, 1, 4, false), "no region: long enough");
  }

  @Test
  void tripsRoundUpAndAreNeverNegative() {
    assertEquals(4, JvmSupport.trips(0, 10, 3));
    assertEquals(3, JvmSupport.trips(1, 10, 3));
    assertEquals(0, JvmSupport.trips(10, 10, 3));
    assertEquals(0, JvmSupport.trips(10, 2, 3));
  }
}
