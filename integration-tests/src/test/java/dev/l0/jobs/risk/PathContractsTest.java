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
 * and the Sobol direction numbers of the first three dimensions against the medium dataset's; and
 * the Monte-Carlo greeks' conventions (entry {@code pathGreeks}, on the JVM backend without Spark)
 * against Black-Scholes for the European contract.
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

  /**
   * A one-year at-the-money European call and put (spot and strike 100, rate 3%, volatility 20%) at
   * 4096 paths: bump-and-reprice gives Black-Scholes's delta, gamma, vega, theta (per year) and rho
   * within 1%, so the signs, units and the day of theta are the vanilla options'.
   */
  @Test
  void theEuropeanContractsMonteCarloGreeksAreBlackScholesGreeks() {
    double spot = 100.0;
    double rate = 0.03;
    double volatility = 0.2;
    double[] one = {1.0};
    double[] spots = {spot};
    double[] volatilities = {volatility};
    double[] zero = {0.0};
    PathContracts.Bridge bridge =
        PathContracts.bridge(PathContracts.bridgeTimes(PathContracts.Kind.EUROPEAN, 1));
    try (dev.l0.kernels.api.CompiledProgram greeks =
        dev.l0.kernels.api.L0Runtime.compile(
            PathContracts.program(),
            "risk_paths.l0",
            "pathGreeks",
            dev.l0.kernels.runtime.DeviceKind.JVM)) {
      for (boolean call : new boolean[] {true, false}) {
        Object[] positions = {
          new long[] {1},
          one,
          new boolean[] {call},
          new int[] {0},
          new int[] {0},
          one,
          one,
          new double[] {rate},
          spots,
          spots,
          spots,
          volatilities,
          volatilities,
          volatilities,
          spots,
          spots,
          spots,
          zero,
          zero,
          zero,
          new int[] {0},
          new double[] {364 / 365.0},
          new double[] {Math.sqrt(364 / 365.0)}
        };
        Object[] result =
            (Object[])
                greeks.run(
                    1,
                    1,
                    1,
                    4096,
                    PathContracts.SOBOL_BITS,
                    PathContracts.directionNumbers(1),
                    bridge.indices(),
                    bridge.data(),
                    0.01,
                    0.01,
                    0.0001,
                    positions);
        double[] expected = RiskBatchJobTest.greeks(call, spot, spot, 1.0, rate, volatility);
        for (int g = 1; g < expected.length; g++) {
          double actual = ((double[]) result[g])[0];
          assertEquals(
              expected[g],
              actual,
              0.01 * Math.abs(expected[g]),
              RiskComputation.GREEKS[g] + (call ? " of the call" : " of the put"));
        }
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
