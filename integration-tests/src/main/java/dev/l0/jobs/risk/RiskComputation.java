package dev.l0.jobs.risk;

import static dev.l0.spark.ExactSums.exactSum;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static org.apache.spark.sql.functions.abs;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.exists;
import static org.apache.spark.sql.functions.lit;

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
   * Where a valuation is not finite, what is: the first position by id whose price, greeks, PV or
   * P&L is infinite or NaN (inputs that pass their checks can still overflow, e.g. a quantity of
   * 1e308 times a price), else the portfolio's sums where only they overflow; empty where the
   * portfolio's figures and P&L are finite (exact sums, so no summand is infinite or NaN then).
   */
  static Optional<String> notFinite(Results results) {
    Aggregate portfolio = results.portfolio();
    if (Arrays.stream(portfolio.figures()).allMatch(Double::isFinite)
        && Arrays.stream(portfolio.pnl()).allMatch(Double::isFinite)) {
      return Optional.empty();
    }
    Column bad = exists(col("pnl"), RiskComputation::notFinite);
    for (String column : new String[] {"price", "delta", "gamma", "vega", "theta", "rho", "pv"}) {
      bad = bad.or(notFinite(col(column)));
    }
    List<Row> first =
        results
            .positions()
            .where(bad)
            .orderBy("id")
            .select("id", "quantity", "price", "pv")
            .limit(1)
            .collectAsList();
    if (first.isEmpty()) {
      return Optional.of(
          "the portfolio's sums are not finite (PV "
              + portfolio.figures()[0]
              + "): its positions' values add up past the largest double");
    }
    Row row = first.get(0);
    return Optional.of(
        "id "
            + row.get(0)
            + ": its valuation is not finite (quantity "
            + row.get(1)
            + ", price "
            + row.get(2)
            + ", PV "
            + row.get(3)
            + ")");
  }

  private static Column notFinite(Column value) {
    return value.isNaN().or(abs(value).equalTo(Double.POSITIVE_INFINITY));
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

  static Results compute(
      Dataset<Row> positions, Dataset<Row> market, RiskSettings settings, StageLog log) {
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
    Dataset<Row> priced = joined.persist();

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
                    + (pathPriced.isPresent()
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
