package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.cli.FinparBenchmark;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The inputs the risk batch builds for OptionPricing against FinPar's own datasets: the Brownian
 * bridge of the daily grid against the large dataset's (FinPar's daily barrier over days 0..366),
 * and the Sobol direction numbers of the first three dimensions against the medium dataset's.
 */
class PathContractsTest {
  private static final Path DATA = Path.of("../../shared/data/finpar");
  private static final int DIR_VS = 6;
  private static final int BB_INDS = 13;
  private static final int BB_DATA = 14;

  static List<Value> input(String size) throws Exception {
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    return bench.readInput(bench.program(), bench.dataset(DATA, size));
  }

  static Value at(Value array, int i, int j) {
    return ((Value.Array) ((Value.Array) array).elements().get(i)).elements().get(j);
  }

  @Test
  void theDailyGridsBridgeIsFinParsOwn() throws Exception {
    List<Value> large = input("large");
    double[] times = new double[367];
    for (int t = 0; t < times.length; t++) {
      times[t] = t / 365.0;
    }
    PathContracts.Bridge bridge = PathContracts.bridge(times);
    for (int row = 0; row < 3; row++) {
      for (int t = 0; t < times.length; t++) {
        assertEquals(
            ((ScalarValue.Int) at(large.get(BB_INDS), row, t)).value(),
            bridge.indices()[row][t],
            "bb_inds[" + row + "][" + t + "]");
        double expected = ((ScalarValue.Float) at(large.get(BB_DATA), row, t)).value();
        assertEquals(
            expected,
            bridge.data()[row][t],
            1e-12 * Math.max(1.0, Math.abs(expected)),
            "bb_data[" + row + "][" + t + "]");
      }
    }
  }

  @Test
  void theFirstThreeSobolDimensionsAreFinParsOwn() throws Exception {
    List<Value> medium = input("medium");
    int[][] directions = PathContracts.directionNumbers(3);
    for (int d = 0; d < 3; d++) {
      for (int k = 0; k < PathContracts.SOBOL_BITS; k++) {
        assertEquals(
            ((ScalarValue.Int) at(medium.get(DIR_VS), d, k)).value(),
            directions[d][k],
            "dir_vs[" + d + "][" + k + "]");
      }
    }
  }
}
