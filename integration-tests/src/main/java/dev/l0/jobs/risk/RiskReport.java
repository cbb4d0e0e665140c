package dev.l0.jobs.risk;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.l0.jobs.risk.RiskComputation.Aggregate;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.statistics.HistogramDataset;

/**
 * What a person reads: {@code summary.json} (every figure of the portfolio and each book) and
 * {@code report.html} with a table of the figures and, per book and for the portfolio, a histogram
 * of the scenario P&L with the VaR and expected shortfall marked, drawn by JFreeChart into PNG
 * files next to the page.
 */
final class RiskReport {
  static final int CHART_WIDTH = 760;
  static final int CHART_HEIGHT = 300;

  /** The most characters of an aggregate's name that its chart file's name keeps. */
  static final int CHART_NAME_CHARS = 100;

  private RiskReport() {}

  static void write(
      Path folder, RiskSettings settings, RiskComputation.Results results, String inputs)
      throws IOException {
    Files.createDirectories(folder);
    List<Aggregate> all = new ArrayList<>(results.books());
    all.add(results.portfolio());
    Files.writeString(
        folder.resolve("summary.json"),
        summary(settings, all, results.instruments(), inputs),
        StandardCharsets.UTF_8);
    StringBuilder charts = new StringBuilder();
    Set<String> taken = new HashSet<>();
    // The whole portfolio's chart keeps its name: a book whose name clashes with it gets a suffix.
    String portfolioChart = chartFile(results.portfolio().name(), taken);
    for (Aggregate aggregate : all) {
      String file =
          aggregate == results.portfolio() ? portfolioChart : chartFile(aggregate.name(), taken);
      ChartUtils.saveChartAsPNG(
          folder.resolve(file).toFile(), chart(aggregate, settings), CHART_WIDTH, CHART_HEIGHT);
      charts
          .append("<figure><img src=\"")
          .append(file)
          .append("\" width=\"")
          .append(CHART_WIDTH)
          .append("\" height=\"")
          .append(CHART_HEIGHT)
          .append("\" alt=\"P&amp;L distribution of ")
          .append(html(aggregate.name()))
          .append("\"></figure>\n");
    }
    Files.writeString(
        folder.resolve("report.html"),
        page(settings, results, charts.toString(), inputs),
        StandardCharsets.UTF_8);
  }

  /**
   * The chart file of the aggregate {@code name}: {@code pnl-NAME.png} with every character but
   * letters, digits, {@code _} and {@code -} made {@code _}, cut to its first {@value
   * #CHART_NAME_CHARS} characters (a file name has at most 255 bytes), and {@code -2}, {@code -3},
   * ... added where that name (compared ignoring case, as macOS's and Windows' file systems do) is
   * {@code taken} already: books {@code A/B} and {@code A_B}, or {@code Rates} and {@code rates},
   * get a chart each.
   */
  static String chartFile(String name, Set<String> taken) {
    String safe = name.replaceAll("[^A-Za-z0-9_-]", "_");
    String base = "pnl-" + safe.substring(0, Math.min(safe.length(), CHART_NAME_CHARS));
    String file = base + ".png";
    for (int k = 2; !taken.add(file.toLowerCase(Locale.ROOT)); k++) {
      file = base + "-" + k + ".png";
    }
    return file;
  }

  static String summary(
      RiskSettings settings, List<Aggregate> aggregates, List<Aggregate> instruments, String inputs)
      throws IOException {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("valuation_date", settings.valuationDate().toString());
    root.put("inputs", inputs);
    root.put("scenarios", settings.scenarioCount());
    root.put("var_confidence", settings.varConfidence());
    root.put("es_confidence", settings.esConfidence());
    root.put(
        "quantile_convention",
        "losses L = -P&L sorted ascending over n equally likely scenarios; j = ceil(n * confidence);"
            + " VaR = L(j); ES = mean of L(j..n)");
    root.put("aggregation", "exact sums (correctly rounded, independent of partitioning)");
    root.put("monte_carlo_paths", settings.monteCarloPaths());
    ObjectNode bumps = root.putObject("monte_carlo_greek_bumps");
    bumps.put("spot_relative", settings.greekSpotBump());
    bumps.put("volatility", settings.greekVolBump());
    bumps.put("rate", settings.greekRateBump());
    bumps.put("theta_days", 1);
    ArrayNode byInstrument = root.putArray("instruments");
    for (Aggregate instrument : instruments) {
      ObjectNode node = byInstrument.addObject();
      node.put("instrument", instrument.name());
      node.put("positions", instrument.positions());
      node.put("pv", instrument.figures()[0]);
      node.put("var", instrument.var());
      node.put("expected_shortfall", instrument.expectedShortfall());
    }
    ArrayNode books = root.putArray("books");
    for (Aggregate aggregate : aggregates) {
      ObjectNode node =
          aggregate.name().equals(RiskComputation.PORTFOLIO)
              ? root.putObject("portfolio")
              : books.addObject();
      node.put("name", aggregate.name());
      node.put("positions", aggregate.positions());
      for (int i = 0; i < RiskComputation.FIGURES.length; i++) {
        node.put(RiskComputation.FIGURES[i], aggregate.figures()[i]);
      }
      node.put("var", aggregate.var());
      node.put("expected_shortfall", aggregate.expectedShortfall());
    }
    return mapper.writeValueAsString(root) + "\n";
  }

  private static JFreeChart chart(Aggregate aggregate, RiskSettings settings) {
    HistogramDataset dataset = new HistogramDataset();
    dataset.addSeries(
        "scenario P&L", aggregate.pnl(), Math.max(10, Math.min(40, aggregate.pnl().length / 3)));
    JFreeChart chart =
        ChartFactory.createHistogram(
            aggregate.name() + ": P&L over " + aggregate.pnl().length + " scenarios",
            "P&L",
            "scenarios",
            dataset,
            PlotOrientation.VERTICAL,
            false,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.getRenderer().setSeriesPaint(0, new Color(0x3b6ea5));
    plot.addDomainMarker(
        marker(
            -aggregate.var(),
            String.format(Locale.ROOT, "VaR %s%%", percent(settings.varConfidence())),
            new Color(0xc0392b),
            RectangleAnchor.TOP_RIGHT));
    plot.addDomainMarker(
        marker(
            -aggregate.expectedShortfall(),
            String.format(Locale.ROOT, "ES %s%%", percent(settings.esConfidence())),
            new Color(0xe67e22),
            RectangleAnchor.BOTTOM_RIGHT));
    return chart;
  }

  private static ValueMarker marker(
      double at, String label, Color color, RectangleAnchor labelAnchor) {
    ValueMarker marker = new ValueMarker(at, color, new BasicStroke(2.5f));
    marker.setLabel(label);
    marker.setLabelAnchor(labelAnchor);
    marker.setLabelTextAnchor(
        labelAnchor == RectangleAnchor.TOP_RIGHT ? TextAnchor.TOP_LEFT : TextAnchor.BOTTOM_LEFT);
    marker.setLabelPaint(color);
    return marker;
  }

  private static String percent(double confidence) {
    return new java.math.BigDecimal(Double.toString(confidence * 100))
        .stripTrailingZeros()
        .toPlainString();
  }

  private static String page(
      RiskSettings settings, RiskComputation.Results results, String charts, String inputs) {
    StringBuilder rows = new StringBuilder();
    List<Aggregate> all = new ArrayList<>(results.books());
    all.add(results.portfolio());
    for (Aggregate aggregate : all) {
      boolean total = aggregate.name().equals(RiskComputation.PORTFOLIO);
      rows.append(total ? "<tr class=\"total\">" : "<tr>")
          .append("<td>")
          .append(html(aggregate.name()))
          .append("</td><td>")
          .append(aggregate.positions())
          .append("</td>");
      for (double figure : aggregate.figures()) {
        rows.append("<td>").append(number(figure)).append("</td>");
      }
      rows.append("<td>")
          .append(number(aggregate.var()))
          .append("</td><td>")
          .append(number(aggregate.expectedShortfall()))
          .append("</td></tr>\n");
    }
    StringBuilder instrumentRows = new StringBuilder();
    for (Aggregate instrument : results.instruments()) {
      boolean monteCarlo = !instrument.name().equals(RiskInputs.VANILLA);
      instrumentRows
          .append("<tr><td>")
          .append(html(instrument.name()))
          .append("</td><td>")
          .append(
              monteCarlo
                  ? "Monte-Carlo, " + settings.monteCarloPaths() + " paths"
                  : "Black-Scholes")
          .append("</td><td>")
          .append(instrument.positions())
          .append("</td><td>")
          .append(number(instrument.figures()[0]))
          .append("</td><td>")
          .append(number(instrument.var()))
          .append("</td><td>")
          .append(number(instrument.expectedShortfall()))
          .append("</td></tr>\n");
    }
    String var = percent(settings.varConfidence());
    String es = percent(settings.esConfidence());
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Risk report "
        + settings.valuationDate()
        + "</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse}"
        + "td,th{border:1px solid #bbb;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
        + "tr.total{font-weight:bold;background:#eef}figure{margin:12px 0}</style></head><body>\n"
        + "<h1>Risk report for "
        + settings.valuationDate()
        + "</h1>\n"
        + "<p>Inputs: "
        + html(inputs)
        + ". "
        + settings.scenarioCount()
        + " scenarios ("
        + settings.spotShocks().length
        + " relative spot shocks x "
        + settings.volShocks().length
        + " absolute volatility shocks).</p>\n"
        + "<table><tr><th>book</th><th>positions</th><th>PV</th><th>delta</th><th>gamma</th><th>vega</th><th>theta</th>"
        + "<th>rho</th><th>VaR "
        + var
        + "%</th><th>ES "
        + es
        + "%</th></tr>\n"
        + rows
        + "</table>\n"
        + "<p>Greeks are quantity-weighted sums: the vanilla options' Black-Scholes greeks and the path-dependent"
        + " contracts' by bump-and-reprice on their Monte-Carlo paths (delta and gamma summed over a contract's"
        + " underlyings; theta per year). Sums are exact:"
        + " correctly rounded, the same for any partitioning. Quantile convention: losses L = -P&amp;L sorted ascending"
        + " over the n equally likely scenarios, j = ceil(n &times; confidence); VaR = L(j), expected shortfall = the"
        + " mean of L(j), ..., L(n).</p>\n"
        + "<h2>P&amp;L distributions</h2>\n"
        + charts
        + "<h2>By instrument</h2>\n<table><tr><th>instrument</th><th>pricing</th><th>positions</th><th>PV</th><th>VaR "
        + var
        + "%</th><th>ES "
        + es
        + "%</th></tr>\n"
        + instrumentRows
        + "</table>\n"
        + "<p>The path-dependent contracts are FinPar OptionPricing's (european, discrete-barrier, daily-barrier), priced"
        + " by Monte-Carlo over Sobol paths with a Brownian bridge and correlated underlyings, every scenario on the same"
        + " paths; their greeks are central differences on the same paths (spot bump "
        + settings.greekSpotBump()
        + " relative, volatility bump "
        + settings.greekVolBump()
        + ", rate bump "
        + settings.greekRateBump()
        + "; theta one day forward).</p>\n</body></html>\n";
  }

  private static String number(double value) {
    return String.format(Locale.ROOT, "%,.2f", value);
  }

  private static String html(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
