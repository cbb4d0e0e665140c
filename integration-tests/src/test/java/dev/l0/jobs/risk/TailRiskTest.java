package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The documented quantile convention of VaR and expected shortfall on the default grid's 100
 * scenarios (the Spark tests' 20-scenario grid puts both at the worst loss): VaR 99% is the
 * second-worst loss and ES 97.5% the mean of the three worst, whatever the order of the P&L.
 */
class TailRiskTest {
  @Test
  void varAndExpectedShortfallOfOneHundredScenariosFollowTheDocumentedConvention() {
    // losses 1..100 in a shuffled order: P&L = -loss
    List<Double> pnl = new ArrayList<>();
    for (int loss = 1; loss <= 100; loss++) {
      pnl.add(-(double) loss);
    }
    Collections.shuffle(pnl, new Random(5));
    double[] values = pnl.stream().mapToDouble(Double::doubleValue).toArray();
    assertEquals(99.0, TailRisk.valueAtRisk(values, 0.99), 0.0, "the second-worst loss");
    assertEquals(
        (98.0 + 99.0 + 100.0) / 3, TailRisk.expectedShortfall(values, 0.975), 0.0, "three worst");
    assertEquals(95.0, TailRisk.valueAtRisk(values, 0.95), 0.0, "j = ceil(100 x 0.95) = 95");
  }

  @Test
  void theQuantileIndexIsCeilOfNTimesTheConfidenceWithoutRoundingUp() {
    // 100 x 0.55 is 55.00000000000001 in doubles: j is 55, not 56
    assertEquals(54, TailRisk.quantileIndex(100, 0.55));
    assertEquals(56, TailRisk.quantileIndex(100, 0.57));
    assertEquals(98, TailRisk.quantileIndex(100, 0.99));
    assertEquals(974, TailRisk.quantileIndex(1000, 0.975));
    assertEquals(0, TailRisk.quantileIndex(1, 0.99));
    assertEquals(19, TailRisk.quantileIndex(20, 0.99));
  }

  /**
   * A P&L of zero is a loss of +0.0: negated, it was -0.0, so a run of one scenario (or a book with
   * no P&L) printed and wrote its VaR and ES as -0.00 and -0.0.
   */
  @Test
  void aZeroPnlIsAZeroLossNotANegativeZero() {
    double[] zero = {0.0};
    assertEquals(0x0L, Double.doubleToRawLongBits(TailRisk.valueAtRisk(zero, 0.99)));
    assertEquals(0x0L, Double.doubleToRawLongBits(TailRisk.expectedShortfall(zero, 0.975)));
    double[] negativeZero = {-0.0, 0.0};
    assertEquals(0x0L, Double.doubleToRawLongBits(TailRisk.valueAtRisk(negativeZero, 0.99)));
  }

  /**
   * Losses near the largest double, each finite, have a finite mean: their exact sum overflowed,
   * and the expected shortfall failed the run with the exact sum's ArithmeticException.
   */
  @Test
  void theExpectedShortfallOfLossesNearTheLargestDoubleIsTheirMean() {
    double[] pnl = {-1.5e308, -1.7e308, -1.6e308, 1.0};
    double mean =
        new BigDecimal(1.5e308)
            .add(new BigDecimal(1.7e308))
            .add(new BigDecimal(1.6e308))
            .divide(BigDecimal.valueOf(3), MathContext.DECIMAL128)
            .doubleValue();
    assertEquals(mean, TailRisk.expectedShortfall(pnl, 0.5), 0.0, "the mean of the three worst");
    double[] largest = {-Double.MAX_VALUE, -Double.MAX_VALUE};
    assertEquals(Double.MAX_VALUE, TailRisk.expectedShortfall(largest, 0.5), 0.0);
    // below the overflow the mean is the exact sum divided, as before
    double[] small = {-1.0, -2.0, -4.0};
    assertEquals(3.0, TailRisk.expectedShortfall(small, 0.55), 0.0, "ceil(3 x 0.55) = 2: 2 and 4");
  }
}
