package dev.l0.jobs.risk;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.datediff;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sqrt;

import dev.l0.cli.FinparBenchmark;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.math3.random.SobolSequenceGenerator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The path-dependent contracts of the risk batch: FinPar OptionPricing's three contracts, priced by
 * Monte-Carlo with the OptionPricing program (Sobol numbers by path index, AS241 inverse normal,
 * Brownian bridge, correlated Black-Scholes paths, FinPar's payoffs) and revalued under the
 * scenario grid with common random numbers, as one L0 pipeline per contract kind ({@code
 * risk_paths.l0}, entry {@code pathContracts}, run after OptionPricing.l0's text), and their greeks
 * by bump-and-reprice on the same paths (entry {@code pathGreeks}: central differences for delta,
 * gamma, vega and rho, one day forward for theta). Each position's paths are all summed inside one
 * row of the pipeline, so its price, greeks and P&L do not depend on the partitioning. The Sobol
 * direction numbers are Joe and Kuo's (new-joe-kuo-6.1000, as Apache Commons Math ships them; the
 * first three dimensions are FinPar's), the bridge is FinPar's (recursive bisection), both bound to
 * the pipeline as driver-side values.
 */
final class PathContracts {
  static final String PROGRAM_RESOURCE = "/programs/risk_paths.l0";
  static final int SOBOL_BITS = 30;
  static final int MAX_SOBOL_DIMENSIONS = 1000;

  /**
   * A daily-barrier contract's last date: dates 0 (today) to this many days, three underlyings
   * each, in 1000 dimensions.
   */
  static final int MAX_DAILY_DAYS = MAX_SOBOL_DIMENSIONS / 3 - 1;

  static final String[] RESULT = {"id", "price", "pnl"};
  static final String[] GREEKS_RESULT = {"id", "delta", "gamma", "vega", "theta", "rho"};

  /** The pipelines' columns of a position (see {@link #inputs}). */
  private static final String[] COLUMNS = {
    "id",
    "quantity",
    "call",
    "first_date",
    "last_date",
    "step",
    "scale",
    "rate",
    "spot",
    "spot2",
    "spot3",
    "volatility",
    "volatility2",
    "volatility3",
    "strike",
    "strike2",
    "strike3",
    "correlation12",
    "correlation13",
    "correlation23"
  };

  /** The greeks pipeline's further columns: the position's grid one day later. */
  private static final String[] DAY_LATER_COLUMNS = {"last_day", "day_step", "day_scale"};

  /** FinPar OptionPricing's contracts, by the portfolio's {@code instrument}. */
  enum Kind {
    /** Contract 1: a European call or put on one underlying, one date (maturity). */
    EUROPEAN("european", 1, 1),
    /** Contract 2: a note on three underlyings observed on five dates spread evenly to maturity. */
    DISCRETE_BARRIER("discrete-barrier", 2, 3),
    /** Contract 3: a note on three underlyings with a barrier monitored daily to maturity. */
    DAILY_BARRIER("daily-barrier", 3, 3);

    final String instrument;
    final int contract;
    final int underlyings;

    Kind(String instrument, int contract, int underlyings) {
      this.instrument = instrument;
      this.contract = contract;
      this.underlyings = underlyings;
    }
  }

  /**
   * A Brownian bridge as OptionPricing takes it: index rows bi, li, ri (1-based, 0 none) and rows
   * sd, lw, rw.
   */
  record Bridge(int[][] indices, double[][] data) {}

  private PathContracts() {}

  /** OptionPricing.l0 followed by risk_paths.l0: one program. */
  static String program() {
    return resource(FinparBenchmark.OPTION_PRICING.programResource())
        + "\n"
        + resource(PROGRAM_RESOURCE);
  }

  private static String resource(String name) {
    try (InputStream in = PathContracts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  /**
   * The Sobol direction numbers of the first {@code dimensions} dimensions, {@value #SOBOL_BITS}
   * bits each, v_0 (the most significant) first: row d is OptionPricing's {@code dirVs[d]}.
   */
  static int[][] directionNumbers(int dimensions) {
    SobolSequenceGenerator sobol = new SobolSequenceGenerator(dimensions);
    int[][] directions = new int[dimensions][SOBOL_BITS];
    for (int k = 0; k < SOBOL_BITS; k++) {
      // point 2^(k+1) - 1 has the Gray code 2^k: it is v_k itself
      double[] point = sobol.skipTo((1 << (k + 1)) - 1);
      for (int d = 0; d < dimensions; d++) {
        directions[d][k] = (int) (point[d] * (1L << SOBOL_BITS));
      }
    }
    return directions;
  }

  /**
   * FinPar's Brownian bridge over increasing {@code times}: the last date first, then by recursive
   * bisection, depth first and left first: the middle date m = l + (r - l) / 2 of each gap (l, r)
   * of 1-based dates (0 is time 0, where the path starts), from its neighbours l and r.
   */
  static Bridge bridge(double[] times) {
    int n = times.length;
    int[][] indices = new int[3][n];
    double[][] data = new double[3][n];
    indices[0][0] = n;
    data[0][0] = Math.sqrt(times[n - 1]);
    bisect(times, 0, n, 1, indices, data);
    return new Bridge(indices, data);
  }

  /**
   * Fills the bridge's entries from {@code next} on for the dates strictly between l and r; returns
   * the next free entry.
   */
  private static int bisect(
      double[] times, int l, int r, int next, int[][] indices, double[][] data) {
    if (r - l < 2) {
      return next;
    }
    int m = l + (r - l) / 2;
    double tl = l == 0 ? 0.0 : times[l - 1];
    double tm = times[m - 1];
    double tr = times[r - 1];
    indices[0][next] = m;
    indices[1][next] = l;
    indices[2][next] = r;
    data[0][next] = Math.sqrt((tm - tl) * (tr - tm) / (tr - tl));
    data[1][next] = (tr - tm) / (tr - tl);
    data[2][next] = (tm - tl) / (tr - tl);
    return bisect(times, m, r, bisect(times, l, m, next + 1, indices, data), indices, data);
  }

  /**
   * The dates of a kind's grid, given its positions' longest time to maturity in days: one for the
   * European call, five for the discrete barrier, days 0..days for the daily barrier.
   */
  static int dates(Kind kind, int maxDaysToMaturity) {
    return switch (kind) {
      case EUROPEAN -> 1;
      case DISCRETE_BARRIER -> 5;
      case DAILY_BARRIER -> maxDaysToMaturity + 1;
    };
  }

  /**
   * The bridge's times for a grid of {@code dates}: a unit horizon (t + 1) / dates for the first
   * two kinds (the pipeline scales each volatility by sqrt(maturity)), days t / 365 for the daily
   * barrier.
   */
  static double[] bridgeTimes(Kind kind, int dates) {
    double[] times = new double[dates];
    for (int t = 0; t < dates; t++) {
      times[t] = kind == Kind.DAILY_BARRIER ? t / 365.0 : (t + 1) / (double) dates;
    }
    return times;
  }

  /** The pipeline of one kind's positions for a grid of {@code dates}: {@code id, price, pnl}. */
  static L0Pipeline pipeline(Kind kind, int dates, RiskSettings settings) {
    return paths("pathContracts", kind, dates, settings)
        .with("spotShocks", settings.spotShocks())
        .with("volShocks", settings.volShocks())
        .on(COLUMNS)
        .as(RESULT);
  }

  /**
   * The greeks pipeline of one kind's positions for a grid of {@code dates}: {@code id, delta,
   * gamma, vega, theta, rho}, with the settings' bump sizes.
   */
  static L0Pipeline greeksPipeline(Kind kind, int dates, RiskSettings settings) {
    String[] columns = Arrays.copyOf(COLUMNS, COLUMNS.length + DAY_LATER_COLUMNS.length);
    System.arraycopy(DAY_LATER_COLUMNS, 0, columns, COLUMNS.length, DAY_LATER_COLUMNS.length);
    return paths("pathGreeks", kind, dates, settings)
        .with("spotBump", settings.greekSpotBump())
        .with("volBump", settings.greekVolBump())
        .with("rateBump", settings.greekRateBump())
        .on(columns)
        .as(GREEKS_RESULT);
  }

  /** An entry of the program with the paths of one kind's grid of {@code dates} bound. */
  private static L0Pipeline paths(String entry, Kind kind, int dates, RiskSettings settings) {
    Bridge bridge = bridge(bridgeTimes(kind, dates));
    return L0.pipeline(program())
        .entry(entry)
        .with("contract", kind.contract)
        .with("numDates", dates)
        .with("numUnd", kind.underlyings)
        .with("numPaths", settings.monteCarloPaths())
        .with("sobolBits", SOBOL_BITS)
        .with("dirVs", directionNumbers(dates * kind.underlyings))
        .with("bbInds", bridge.indices())
        .with("bbData", bridge.data());
  }

  /**
   * The price, P&L vector and greeks of each path-dependent position of {@code positions} (the
   * validated positions with the market data of their first underlying, as {@link RiskComputation}
   * joins them): {@code id, price, pnl, delta, gamma, vega, theta, rho}, two pipelines per kind
   * present; empty when there are none.
   */
  static Optional<Dataset<Row>> priced(
      Dataset<Row> positions, Dataset<Row> market, RiskSettings settings) {
    LocalDate date = settings.valuationDate();
    Dataset<Row> withMarket = positions;
    for (String n : new String[] {"2", "3"}) {
      Dataset<Row> other =
          broadcast(
              market.select(
                  col("underlying").as("underlying_" + n),
                  col("spot").as("spot" + n),
                  col("volatility").as("volatility" + n)));
      withMarket =
          withMarket
              .join(
                  other,
                  withMarket.col("underlying" + n).equalTo(other.col("underlying_" + n)),
                  "left")
              .drop("underlying_" + n);
    }
    Dataset<Row> rows =
        withMarket.withColumn("days", datediff(col("maturity"), lit(java.sql.Date.valueOf(date))));
    Map<String, Integer> maxDays = new HashMap<>();
    for (Row extent : rows.groupBy("instrument").agg(max("days")).collectAsList()) {
      maxDays.put(extent.getString(0), extent.getInt(1));
    }
    Dataset<Row> result = null;
    for (Kind kind : Kind.values()) {
      if (maxDays.containsKey(kind.instrument)) {
        int dates = dates(kind, maxDays.get(kind.instrument));
        Dataset<Row> ofKind = inputs(rows.where(col("instrument").equalTo(kind.instrument)), kind);
        Dataset<Row> priced =
            ofKind
                .transform(pipeline(kind, dates, settings))
                .join(ofKind.transform(greeksPipeline(kind, dates, settings)), "id");
        result = result == null ? priced : result.union(priced);
      }
    }
    return Optional.ofNullable(result);
  }

  /**
   * The pipelines' columns of one kind's positions: a position's own dates first_date..last_date of
   * the grid and the time per date (step) and the volatility scale of the bridge's times, and the
   * same one day later (last_day, day_step, day_scale: a day less to maturity); a European call's
   * unused second and third underlyings repeat its first.
   */
  private static Dataset<Row> inputs(Dataset<Row> ofKind, Kind kind) {
    Column[] today = grid(kind, col("days"));
    Column[] dayLater = grid(kind, col("days").minus(1));
    return ofKind.select(
        col("id"),
        col("quantity"),
        coalesce(col("call"), lit(true)).as("call"),
        lit(kind == Kind.DAILY_BARRIER ? 1 : 0).as("first_date"),
        today[0].as("last_date"),
        today[1].as("step"),
        today[2].as("scale"),
        col("rate"),
        col("spot"),
        coalesce(col("spot2"), col("spot")).as("spot2"),
        coalesce(col("spot3"), col("spot")).as("spot3"),
        col("volatility"),
        coalesce(col("volatility2"), col("volatility")).as("volatility2"),
        coalesce(col("volatility3"), col("volatility")).as("volatility3"),
        col("strike"),
        coalesce(col("strike2"), col("strike")).as("strike2"),
        coalesce(col("strike3"), col("strike")).as("strike3"),
        coalesce(col("correlation12"), lit(0.0)).as("correlation12"),
        coalesce(col("correlation13"), lit(0.0)).as("correlation13"),
        coalesce(col("correlation23"), lit(0.0)).as("correlation23"),
        dayLater[0].as("last_day"),
        dayLater[1].as("day_step"),
        dayLater[2].as("day_scale"));
  }

  /**
   * A kind's last date, time per date and volatility scale for a position {@code days} days from
   * maturity.
   */
  private static Column[] grid(Kind kind, Column days) {
    Column years = days.cast("double").divide(365.0);
    return new Column[] {
      kind == Kind.DAILY_BARRIER ? days.cast("int") : lit(kind == Kind.EUROPEAN ? 0 : 4),
      kind == Kind.DAILY_BARRIER ? lit(1 / 365.0) : years.divide(kind == Kind.EUROPEAN ? 1.0 : 5.0),
      kind == Kind.DAILY_BARRIER ? lit(1.0) : sqrt(years)
    };
  }
}
