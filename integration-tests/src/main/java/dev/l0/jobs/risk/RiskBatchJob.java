package dev.l0.jobs.risk;

import static org.apache.spark.sql.functions.col;

import dev.l0.jobs.JobSessions;
import dev.l0.jobs.risk.RiskComputation.Aggregate;
import dev.l0.syntax.SourceFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The end-of-day risk batch, {@code bin/l0-job risk-batch}: inputs, validation, L0 pricing and
 * scenario revaluation, exact aggregates, VaR and ES, then the outputs of the valuation date
 * written aside and swapped in ({@link RiskStore}). Exit codes: {@value #EXIT_OK} written, {@value
 * #EXIT_FAILED} the run failed (the date's previous outputs are unchanged), {@value #EXIT_USAGE}
 * bad command line or config, {@value #EXIT_BAD_INPUT} bad input (nothing written), {@value
 * #EXIT_LOCKED} another run of the same date is running (nothing written).
 */
public final class RiskBatchJob {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;
  public static final int EXIT_BAD_INPUT = 3;
  public static final int EXIT_LOCKED = 4;

  /** How long a shutdown waits for the run to say how it ended. */
  static final int LAST_WORD_SECONDS = 10;

  private RiskBatchJob() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the batch and returns its exit code; Spark's session is stopped at the end. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    RiskSettings settings;
    try {
      settings = RiskSettings.parse(args);
    } catch (RiskSettings.UsageException e) {
      err.println("risk-batch: " + e.getMessage());
      return EXIT_USAGE;
    }
    try {
      Files.createDirectories(settings.out());
    } catch (IOException e) {
      String why = SourceFiles.describe(e);
      err.println(
          "risk-batch: risk.out: cannot create the folder "
              + (why.startsWith(settings.out() + ": ") ? why : settings.out() + ": " + why));
      return EXIT_USAGE;
    }
    System.setProperty("java.awt.headless", "true");
    SparkSession spark =
        JobSessions.start(
            "L0 risk batch " + settings.valuationDate(), Optional.of(settings.master()));
    sessionDefaults(spark, settings);
    CountDownLatch over = new CountDownLatch(1);
    Thread lastWord = new Thread(() -> awaitTheRun(over), "risk-batch-last-word");
    Runtime.getRuntime().addShutdownHook(lastWord);
    try {
      return run(spark, settings, out, err);
    } finally {
      over.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(lastWord);
      } catch (IllegalStateException e) { // shutting down: the hook returns, the run being over
      }
      spark.stop();
    }
  }

  /**
   * Holds the JVM's shutdown (Ctrl-C, a kill) for at most {@value #LAST_WORD_SECONDS} s until the
   * run is {@code over}: Spark's own shutdown hook stops the session under the run, whose thread
   * then says it was interrupted; without this hook the JVM ended before it could.
   */
  private static void awaitTheRun(CountDownLatch over) {
    try {
      over.await(LAST_WORD_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The batch's Spark SQL settings, each unless the user's Spark configuration gives it:
   *
   * <ul>
   *   <li>{@code spark.sql.shuffle.partitions}: every shuffle of the batch (the joins, the
   *       aggregates) makes {@code risk.partitions} pieces, as the positions have, not Spark's 200:
   *       the priced positions are persisted as the joins leave them, so each later query over them
   *       ran 200 tasks, each deserialising the whole plan, pipelines included (on the 2-core VM,
   *       1,000 of the default run's 1,353 tasks, with 114 s of their 485 s of task time in
   *       deserialisation).
   *   <li>{@code spark.sql.icu.caseMappings.enabled=false}: the batch lower-cases only its inputs'
   *       ASCII keywords ({@code instrument}, {@code type}), and Spark's ICU case mapping builds a
   *       title-case table over all of Unicode in the first task of each JVM that uses it (5.3-6.0
   *       s of CPU on the 2-core VM; the JVM's mapping, 0.14 s).
   * </ul>
   */
  static void sessionDefaults(SparkSession spark, RiskSettings settings) {
    setUnlessGiven(spark, "spark.sql.shuffle.partitions", String.valueOf(settings.partitions()));
    setUnlessGiven(spark, "spark.sql.icu.caseMappings.enabled", "false");
  }

  private static void setUnlessGiven(SparkSession spark, String key, String value) {
    if (!spark.sparkContext().getConf().contains(key)) {
      spark.conf().set(key, value);
    }
  }

  static int run(SparkSession spark, RiskSettings settings, PrintStream out, PrintStream err) {
    StageLog log = new StageLog(spark.sparkContext(), out);
    log.line(
        "valuation date "
            + settings.valuationDate()
            + ", output "
            + settings.out().toAbsolutePath()
            + ", Spark "
            + spark.sparkContext().master()
            + ", "
            + settings.scenarioCount()
            + " scenarios");
    try (RiskStore store = RiskStore.open(settings.out(), settings.valuationDate())) {
      RiskInputs.Inputs inputs;
      try {
        inputs =
            log.stage(
                "read and validate inputs",
                () -> {
                  try {
                    return RiskInputs.load(spark, settings);
                  } catch (RiskInputs.InvalidInputException e) {
                    throw new BadInput(e);
                  }
                },
                loaded ->
                    loaded.portfolioName()
                        + ", "
                        + loaded.marketName()
                        + ", "
                        + loaded.correlationsName());
      } catch (BadInput e) {
        err.println("risk-batch: bad input: " + e.getCause().getMessage());
        err.println("risk-batch: nothing written");
        return EXIT_BAD_INPUT;
      }
      Dataset<Row> positions =
          RiskComputation.marketPositions(inputs, settings)
              .repartition(settings.partitions(), col("id"));
      Dataset<Row> priced = RiskComputation.priced(positions, inputs.market(), settings);
      RiskComputation.Results results;
      try {
        results = RiskComputation.compute(priced, settings, log);
      } catch (Exception e) { // Spark's SparkException, undeclared
        if (!RiskComputation.isSumOverflow(e)) {
          throw e;
        }
        return badInput(err, inputs.portfolioName(), RiskComputation.sumOverflow(priced, settings));
      }
      Optional<String> notFinite = RiskComputation.notFinite(results, settings);
      if (notFinite.isPresent()) {
        return badInput(err, inputs.portfolioName(), notFinite.get());
      }
      log.stage(
          "write positions",
          () -> {
            // risk.partitions files, each sorted by id, from the cached positions without a
            // shuffle (they come out of the joins in spark.sql.shuffle.partitions pieces): a
            // global orderBy added a range shuffle into that many pieces and then wrote everything
            // from one task. The P&L doubles are nearly all distinct, so they skip Parquet's
            // dictionary (built for every page and then thrown away otherwise).
            results
                .positions()
                .select(
                    "id",
                    "book",
                    "instrument",
                    "underlying",
                    "quantity",
                    "strike",
                    "maturity",
                    "call",
                    "spot",
                    "volatility",
                    "rate",
                    "years",
                    "underlying2",
                    "underlying3",
                    "strike2",
                    "strike3",
                    "correlation12",
                    "correlation13",
                    "correlation23",
                    "price",
                    "delta",
                    "gamma",
                    "vega",
                    "theta",
                    "rho",
                    "pv",
                    "pnl")
                .coalesce(settings.partitions())
                .sortWithinPartitions("id")
                .write()
                .mode(SaveMode.ErrorIfExists)
                .option("parquet.enable.dictionary#pnl.list.element", "false")
                .parquet(store.staged("positions").toString());
            return results.positions().count();
          },
          rows -> StageLog.count(rows, "position"));
      log.stage(
          "write aggregates",
          () -> {
            writeAggregates(spark, store, results, settings);
            return results.books().size();
          },
          books ->
              StageLog.count(books, "book")
                  + ", 1 portfolio, "
                  + StageLog.count(settings.scenarioCount(), "scenario")
                  + " each");
      log.stage(
          "write report",
          () -> {
            try {
              RiskReport.write(
                  store.staged("report"),
                  settings,
                  results,
                  inputs.portfolioName() + " / " + inputs.marketName());
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            return results.books().size() + 1;
          },
          charts -> StageLog.count(charts, "chart"));
      store.commit();
      Aggregate portfolio = results.portfolio();
      log.line(
          String.format(
              java.util.Locale.ROOT,
              "portfolio PV %.2f, VaR %s %.2f, ES %s %.2f over %d positions",
              portfolio.figures()[0],
              settings.varConfidence(),
              portfolio.var(),
              settings.esConfidence(),
              portfolio.expectedShortfall(),
              portfolio.positions()));
      log.line(
          String.format(
              java.util.Locale.ROOT,
              "wrote %s in %.1fs: report %s",
              settings.valuationDate(),
              log.elapsedSeconds(),
              store.live("report").resolve("report.html").toAbsolutePath()));
      return EXIT_OK;
    } catch (RiskStore.LockedException e) {
      err.println("risk-batch: " + e.getMessage() + "; nothing written");
      return EXIT_LOCKED;
    } catch (Exception e) { // Spark throws its checked SparkException undeclared
      if (shuttingDown()) { // Ctrl-C: Spark's own shutdown hook stopped the session under the run
        err.println(
            "risk-batch: interrupted; the outputs of "
                + settings.valuationDate()
                + " are unchanged");
        return EXIT_FAILED;
      }
      err.println(
          "risk-batch: failed: "
              + e
              + "; the outputs of "
              + settings.valuationDate()
              + " are unchanged");
      e.printStackTrace(err);
      return EXIT_FAILED;
    }
  }

  /** Says that the inputs are bad, where: {@code file: why}, and that nothing was written. */
  private static int badInput(PrintStream err, String file, String why) {
    err.println("risk-batch: bad input: " + file + ": " + why);
    err.println("risk-batch: nothing written");
    return EXIT_BAD_INPUT;
  }

  /** Whether the JVM is shutting down (a shutdown hook can no longer be added). */
  private static boolean shuttingDown() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /** Carries a checked bad-input error out of a stage. */
  private static final class BadInput extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInput(RiskInputs.InvalidInputException cause) {
      super(cause);
    }
  }

  private static void writeAggregates(
      SparkSession spark, RiskStore store, RiskComputation.Results results, RiskSettings settings) {
    StructType figures =
        new StructType()
            .add("name", DataTypes.StringType, false)
            .add("positions", DataTypes.LongType, false);
    for (String figure : RiskComputation.FIGURES) {
      figures = figures.add(figure, DataTypes.DoubleType, false);
    }
    figures =
        figures
            .add("var", DataTypes.DoubleType, false)
            .add("expected_shortfall", DataTypes.DoubleType, false);
    List<Row> books = new ArrayList<>();
    for (Aggregate book : results.books()) {
      books.add(figureRow(book));
    }
    spark
        .createDataFrame(books, figures)
        .coalesce(1)
        .write()
        .parquet(store.staged("books").toString());
    spark
        .createDataFrame(List.of(figureRow(results.portfolio())), figures)
        .coalesce(1)
        .write()
        .parquet(store.staged("portfolio").toString());

    StructType scenarioSchema =
        new StructType()
            .add("name", DataTypes.StringType, false)
            .add("scenario", DataTypes.IntegerType, false)
            .add("spot_shock", DataTypes.DoubleType, false)
            .add("vol_shock", DataTypes.DoubleType, false)
            .add("pnl", DataTypes.DoubleType, false);
    double[] spotShocks = settings.scenarioSpotShocks();
    double[] volShocks = settings.scenarioVolShocks();
    List<Row> scenarios = new ArrayList<>();
    List<Aggregate> all = new ArrayList<>(results.books());
    all.add(results.portfolio());
    for (Aggregate aggregate : all) {
      for (int s = 0; s < aggregate.pnl().length; s++) {
        scenarios.add(
            RowFactory.create(
                aggregate.name(), s, spotShocks[s], volShocks[s], aggregate.pnl()[s]));
      }
    }
    spark
        .createDataFrame(scenarios, scenarioSchema)
        .coalesce(1)
        .write()
        .parquet(store.staged("scenario_pnl").toString());
  }

  private static Row figureRow(Aggregate aggregate) {
    Object[] values = new Object[4 + aggregate.figures().length];
    values[0] = aggregate.name();
    values[1] = aggregate.positions();
    for (int i = 0; i < aggregate.figures().length; i++) {
      values[2 + i] = aggregate.figures()[i];
    }
    values[values.length - 2] = aggregate.var();
    values[values.length - 1] = aggregate.expectedShortfall();
    return RowFactory.create(values);
  }
}
