package dev.l0.jobs.risk;

/**
 * Binds the scenario grid into the scenario program: an entry {@value #ENTRY} that takes only the
 * positions and calls {@code position_pnl} with the grid's spot and volatility shocks as array
 * literals (each double written so that it reads back bit for bit).
 */
final class ScenarioGrid {
  static final String ENTRY = "scenarios_on_grid";
  private static final String POSITION = "{i64, real, bool, real, real, real, real, real}";

  private ScenarioGrid() {}

  static String programOn(String program, double[] spotShocks, double[] volShocks) {
    return program + "\nfun [{i64, [real]}] " + ENTRY + " ([" + POSITION + "] positions) =\n"
        + "  let spot_shocks = " + literal(spotShocks) + " in\n"
        + "  let vol_shocks = " + literal(volShocks) + " in\n"
        + "  map(fn {i64, [real]} (" + POSITION + " p) => position_pnl(spot_shocks, vol_shocks, p), positions)\n";
  }

  private static String literal(double[] values) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      String exact = new java.math.BigDecimal(values[i]).toPlainString();
      out.append(i == 0 ? "" : ", ").append(exact).append(exact.contains(".") ? "" : ".0");
    }
    return out.append(']').toString();
  }
}
