package dev.l0.jobs.risk;

import static dev.l0.spark.ExactSums.exactSum;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static org.apache.spark.sql.functions.abs;
import static org.apache.spark.sql.functions.array_max;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.when;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * The risk numbers of one valuation date, computed on Spark: per vanilla option the Black-Scholes
 * price and greeks (the L0 map {@code greeks}) and the P&L under every scenario (the L0 map {@code
 * scenarios}, an inner map over the grid: one {@code array<double>} per position, never a position
 * x scenario row); per path-dependent contract its Monte-Carlo price, P&L vector and greeks by
 * bump-and-reprice on the same paths ({@link PathContracts}); per book, per instrument and for the
 * portfolio the exact sums of PV, greeks and P&L vectors ({@link dev.l0.spark.ExactSums}), so every
 * aggregate is the same whatever the partitioning, and VaR and expected shortfall from those
 * vectors ({@link TailRisk}).
 */
final class RiskComputation {
  static final String PROGRAM_RESOURCE = "/programs/risk_vanilla.l0";

  /** The name of the whole portfolio's aggregate in the outputs, which no book may take. */
  static final String PORTFOLIO = "PORTFOLIO";

  static final String[] GREEKS = {"price", "delta", "gamma", "vega", "theta", "rho"};
  static final String[] FIGURES = {"pv", "delta", "gamma", "vega", "theta", "rho"};

  /** A book's (or the portfolio's) figures: the exact sums, the P&L per scenario, VaR and ES. */
  record Aggregate(
      String name,
      long positions,
      double[] figures,
      double[] pnl,
      double var,
      double expectedShortfall) {}

  /**
   * Every output of the run. {@code positions} is lazy (a Spark plan); the aggregates (per book,
   * per instrument present and the portfolio) are computed.
   */
  record Results(
      Dataset<Row> positions,
      List<Aggregate> books,
      List<Aggregate> instruments,
      Aggregate portfolio) {}

  private RiskComputation() {}

  /**
   * Where a valuation is not finite, what is: the first position by id with a figure the sums add
   * (PV, a greek times the quantity, the P&L of a scenario) that is infinite or NaN (inputs that
   * pass their checks can still overflow, e.g. a quantity of 1e308 times a price), named with that
   * figure; empty where the portfolio's figures and P&L are finite (exact sums, so then no summand
   * is infinite or NaN, and no book's or instrument's).
   */
  static Optional<String> notFinite(Results results, RiskSettings settings) {
    Aggregate portfolio = results.portfolio();
    if (Arrays.stream(portfolio.figures()).allMatch(Double::isFinite)
        && Arrays.stream(portfolio.pnl()).allMatch(Double::isFinite)) {
      return Optional.empty();
    }
    return Optional.of(largestValue(results.positions(), settings).text());
  }

  /**
   * Whether {@code e} (a failed Spark job's error) is an exact sum's intermediate overflow: finite
   * values of positions whose sum, a book's or the portfolio's, passes the largest double.
   */
  static boolean isSumOverflow(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ArithmeticException
          && String.valueOf(cause.getMessage()).startsWith(SUM_OVERFLOW)) {
        return true;
      }
    }
    return false;
  }

  /** The start of the message of {@link dev.l0.kernels.exact.ExactSum}'s overflow. */
  private static final String SUM_OVERFLOW = "exact sum: intermediate overflow";

  /**
   * The error of an exact sum's overflow: the first position by id with a value that is not finite,
   * if any (the sums of finite values overflowed before its infinity was added); else the sums of
   * {@code priced}'s positions pass the largest double, and the position with the largest value is
   * named with that value.
   */
  static String sumOverflow(Dataset<Row> priced, RiskSettings settings) {
    Largest largest = largestValue(priced, settings);
    return largest.finite()
        ? "the exact sums of the positions' values pass the largest double ("
            + Double.MAX_VALUE
            + "); the largest: "
            + largest.text()
        : largest.text();
  }

  /** A position's largest value (or one not finite) as {@link #largestValue} names it. */
  private record Largest(String text, boolean finite) {}

  /** The columns of a priced position that the aggregates sum, but its P&L, and their names. */
  private static final String[][] SUMMED = {
    {"pv", "PV"},
    {"position_delta", "delta x quantity"},
    {"position_gamma", "gamma x quantity"},
    {"position_vega", "vega x quantity"},
    {"position_theta", "theta x quantity"},
    {"position_rho", "rho x quantity"}
  };

  /**
   * The first position by id with a summed figure that is infinite or NaN, else the one with the
   * largest such figure in magnitude: {@code id N: its valuation is not finite: FIGURE VALUE
   * (quantity Q, price P)}, or {@code id N: FIGURE VALUE (quantity Q, price P)}.
   */
  private static Largest largestValue(Dataset<Row> priced, RiskSettings settings) {
    Column largest = array_max(transform(col("pnl"), value -> abs(value)));
    for (String[] figure : SUMMED) {
      largest = greatest(largest, abs(col(figure[0])));
    }
    Column notFinite = largest.isNaN().or(largest.equalTo(Double.POSITIVE_INFINITY));
    List<String> columns = new ArrayList<>(List.of("id", "quantity", "price", "pnl"));
    Arrays.stream(SUMMED).forEach(figure -> columns.add(figure[0]));
    Row row =
        priced
            .orderBy(
                notFinite.desc(),
                when(notFinite, col("id")).asc_nulls_last(),
                largest.desc(),
                col("id").asc())
            .select(columns.stream().map(functions::col).toArray(Column[]::new))
            .first();
    String figure = null;
    double value = 0.0;
    for (int i = 0; i < SUMMED.length; i++) {
      double candidate = row.getDouble(4 + i);
      if (figure == null || isWorse(candidate, value)) {
        figure = SUMMED[i][1];
        value = candidate;
      }
    }
    List<Double> pnl = row.getList(3);
    double[] spotShocks = settings.scenarioSpotShocks();
    double[] volShocks = settings.scenarioVolShocks();
    for (int s = 0; s < pnl.size(); s++) {
      if (isWorse(pnl.get(s), value)) {
        figure =
            "P&L of scenario "
                + s
                + " (spot shock "
                + spotShocks[s]
                + ", volatility shock "
                + volShocks[s]
                + ")";
        value = pnl.get(s);
      }
    }
    return new Largest(
        "id "
            + row.get(0)
            + ": "
            + (Double.isFinite(value) ? "" : "its valuation is not finite: ")
            + figure
            + " "
            + value
            + " (quantity "
            + row.get(1)
            + ", price "
            + row.get(2)
            + ")",
        Double.isFinite(value));
  }

  /** Whether {@code candidate} is worse than {@code value}: not finite where it is, or larger. */
  private static boolean isWorse(double candidate, double value) {
    return Double.isFinite(value)
        && (!Double.isFinite(candidate) || Math.abs(candidate) > Math.abs(value));
  }

  static String program() {
    try (InputStream in = RiskComputation.class.getResourceAsStream(PROGRAM_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + PROGRAM_RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + PROGRAM_RESOURCE, e);
    }
  }

  /** Each validated position with its market data and its year fraction to maturity. */
  static Dataset<Row> marketPositions(RiskInputs.Inputs inputs, RiskSettings settings) {
    Dataset<Row> market =
        broadcast(inputs.market().withColumnRenamed("underlying", "market_underlying"));
    Dataset<Row> portfolio = inputs.portfolio();
    return portfolio
        .join(market, portfolio.col("underlying").equalTo(market.col("market_underlying")))
        .drop("market_underlying")
        .withColumn("years", RiskInputs.years(col("maturity"), settings.valuationDate()));
  }

  /**
   * The pipeline of the per-position P&L vectors: {@code id, pnl}; the settings' scenario grid is
   * bound to the program's {@code spot_shocks} and {@code vol_shocks} as driver-side values.
   */
  static L0Pipeline scenarioPipeline(RiskSettings settings) {
    return L0.pipeline(program())
        .entry("scenarios")
        .with("spot_shocks", settings.scenarioSpotShocks())
        .with("vol_shocks", settings.scenarioVolShocks())
        .on("id", "quantity", "call", "spot", "strike", "years", "rate", "volatility")
        .as("id", "pnl");
  }

  /**
   * Each position priced, with its greeks, P&L per scenario, PV and greeks times its quantity
   * ({@code position_delta}, ...): persisted, for the aggregates, the checks and the outputs.
   */
  static Dataset<Row> priced(Dataset<Row> positions, Dataset<Row> market, RiskSettings settings) {
    Dataset<Row> vanilla = positions.where(col("instrument").equalTo(RiskInputs.VANILLA));
    // Each pipeline carries the position's other columns through, so no join puts them back
    // together (two joins of 100,000 rows, one of them with the P&L arrays, were two shuffles).
    Dataset<Row> greeks =
        vanilla.transform(
            L0.pipeline(program())
                .entry("greeks")
                .on("id", "call", "spot", "strike", "years", "rate", "volatility")
                .as(concat("id", GREEKS))
                .carry(allBut(vanilla, "id")));
    Dataset<Row> valued = greeks.transform(scenarioPipeline(settings).carry(allBut(greeks, "id")));
    Dataset<Row> pathPositions = positions.where(col("instrument").notEqual(RiskInputs.VANILLA));
    Optional<Dataset<Row>> pathPriced = PathContracts.priced(pathPositions, market, settings);
    if (pathPriced.isPresent()) {
      valued = valued.unionByName(pathPositions.join(pathPriced.get(), "id"), true);
    }
    Dataset<Row> joined = valued.withColumn("pv", col("quantity").multiply(col("price")));
    for (String greek : Arrays.copyOfRange(GREEKS, 1, GREEKS.length)) {
      joined = joined.withColumn("position_" + greek, col("quantity").multiply(col(greek)));
    }
    return joined.persist();
  }

  /**
   * The aggregates of the {@link #priced} positions, per book, per instrument and for the
   * portfolio; a sum that passes the largest double fails the Spark job ({@link #isSumOverflow}).
   */
  static Results compute(Dataset<Row> priced, RiskSettings settings, StageLog log) {
    List<Column> sums = new ArrayList<>();
    sums.add(count(lit(1)).as("positions"));
    sums.add(exactSum(col("pv")).as("pv"));
    for (String greek : Arrays.copyOfRange(GREEKS, 1, GREEKS.length)) {
      sums.add(exactSum(col("position_" + greek)).as(greek));
    }
    sums.add(exactSumElementWise(col("pnl")).as("pnl"));
    Column[] columns = sums.toArray(Column[]::new);

    List<Aggregate> books = new ArrayList<>();
    List<Row> bookRows =
        log.stage(
            "book aggregates",
            () ->
                priced
                    .groupBy("book")
                    .agg(columns[0], Arrays.copyOfRange(columns, 1, columns.length))
                    .orderBy("book")
                    .collectAsList(),
            rows -> StageLog.count(rows.size(), "book"));
    for (Row row : bookRows) {
      books.add(aggregate(row.getString(0), row, 1, settings));
    }
    List<Aggregate> instruments = new ArrayList<>();
    List<Row> instrumentRows =
        log.stage(
            "instrument aggregates",
            () ->
                priced
                    .groupBy("instrument")
                    .agg(columns[0], Arrays.copyOfRange(columns, 1, columns.length))
                    .orderBy("instrument")
                    .collectAsList(),
            rows ->
                rows.stream()
                        .map(r -> r.getLong(1) + " " + r.getString(0))
                        .collect(Collectors.joining(", "))
                    + (rows.stream().anyMatch(r -> !r.getString(0).equals(RiskInputs.VANILLA))
                        ? " (" + settings.monteCarloPaths() + " Monte-Carlo paths each)"
                        : ""));
    for (Row row : instrumentRows) {
      instruments.add(aggregate(row.getString(0), row, 1, settings));
    }
    Row total =
        log.stage(
            "portfolio aggregate",
            () -> priced.agg(columns[0], Arrays.copyOfRange(columns, 1, columns.length)).first(),
            row -> StageLog.count(row.getLong(0), "position"));
    return new Results(priced, books, instruments, aggregate(PORTFOLIO, total, 0, settings));
  }

  private static Aggregate aggregate(String name, Row row, int first, RiskSettings settings) {
    double[] figures = new double[FIGURES.length];
    for (int i = 0; i < figures.length; i++) {
      figures[i] = row.getDouble(first + 1 + i);
    }
    List<Double> pnlList = row.getList(first + 1 + FIGURES.length);
    double[] pnl = pnlList.stream().mapToDouble(Double::doubleValue).toArray();
    return new Aggregate(
        name,
        row.getLong(first),
        figures,
        pnl,
        TailRisk.valueAtRisk(pnl, settings.varConfidence()),
        TailRisk.expectedShortfall(pnl, settings.esConfidence()));
  }

  /** The columns of {@code data} but {@code column}, quoted for {@code carry}. */
  private static String[] allBut(Dataset<Row> data, String column) {
    return Arrays.stream(data.columns())
        .filter(name -> !name.equals(column))
        .map(name -> "`" + name + "`")
        .toArray(String[]::new);
  }

  private static String[] concat(String first, String[] rest) {
    String[] out = new String[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }
}
