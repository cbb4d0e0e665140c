package dev.l0.jobs.risk;

import java.util.Arrays;

/**
 * Value-at-Risk and expected shortfall of a P&L vector (one P&L per equally likely scenario), as
 * positive losses. Losses are {@code -pnl} sorted ascending, L(1) <= ... <= L(n). At confidence a,
 * j = ceil(n a): VaR is L(j), the empirical a-quantile of the loss (the smallest loss l with at
 * least a fraction a of the scenarios losing at most l), and expected shortfall is the mean of
 * L(j..n), the losses at or beyond that quantile. With 100 scenarios, VaR 99% is the second-worst
 * loss and ES 97.5% the mean of the three worst.
 */
final class TailRisk {
  private TailRisk() {}

  /** The index j - 1 (0-based) of the a-quantile: ceil(n a), computed without rounding n a up. */
  static int quantileIndex(int n, double confidence) {
    int j = (int) Math.ceil(n * confidence - 1e-9);
    return Math.min(Math.max(j, 1), n) - 1;
  }

  static double valueAtRisk(double[] pnl, double confidence) {
    double[] losses = sortedLosses(pnl);
    return losses[quantileIndex(losses.length, confidence)];
  }

  static double expectedShortfall(double[] pnl, double confidence) {
    double[] losses = sortedLosses(pnl);
    int from = quantileIndex(losses.length, confidence);
    dev.l0.kernels.exact.ExactSum tail = new dev.l0.kernels.exact.ExactSum();
    for (int i = from; i < losses.length; i++) {
      tail.add(losses[i]);
    }
    return tail.value() / (losses.length - from);
  }

  private static double[] sortedLosses(double[] pnl) {
    if (pnl.length == 0) {
      throw new IllegalArgumentException("VaR of an empty P&L vector");
    }
    double[] losses = new double[pnl.length];
    for (int i = 0; i < pnl.length; i++) {
      losses[i] = -pnl[i];
    }
    Arrays.sort(losses);
    return losses;
  }
}
