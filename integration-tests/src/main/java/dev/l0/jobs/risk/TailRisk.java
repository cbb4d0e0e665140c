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

  /**
   * The mean of the losses from the quantile on: their exact sum, rounded once, divided by their
   * count; where that sum passes the largest double (losses near 1e308, each finite), the losses
   * are scaled down by a power of two at least their count before the sum and the quotient scaled
   * back (a mean is never larger than the largest loss), which gives the same quotient unless a
   * loss is so small that scaling makes it subnormal, instead of the exact sum's overflow error.
   */
  static double expectedShortfall(double[] pnl, double confidence) {
    double[] losses = sortedLosses(pnl);
    int from = quantileIndex(losses.length, confidence);
    int count = losses.length - from;
    try {
      return scaledSum(losses, from, 1.0) / count;
    } catch (ArithmeticException overflow) {
      double scale = Math.scalb(1.0, -(Integer.SIZE - Integer.numberOfLeadingZeros(count)));
      return scaledSum(losses, from, scale) / count / scale;
    }
  }

  private static double scaledSum(double[] losses, int from, double scale) {
    dev.l0.kernels.exact.ExactSum tail = new dev.l0.kernels.exact.ExactSum();
    for (int i = from; i < losses.length; i++) {
      tail.add(losses[i] * scale);
    }
    return tail.value();
  }

  private static double[] sortedLosses(double[] pnl) {
    if (pnl.length == 0) {
      throw new IllegalArgumentException("VaR of an empty P&L vector");
    }
    double[] losses = new double[pnl.length];
    for (int i = 0; i < pnl.length; i++) {
      losses[i] = 0.0 - pnl[i]; // a P&L of 0.0 is a loss of 0.0, not -0.0 (a VaR printed -0.00)
    }
    Arrays.sort(losses);
    return losses;
  }
}
