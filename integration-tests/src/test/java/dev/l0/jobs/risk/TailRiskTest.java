package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
