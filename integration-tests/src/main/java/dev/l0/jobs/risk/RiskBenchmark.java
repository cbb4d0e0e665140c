package dev.l0.jobs.risk;

import static dev.l0.spark.ExactSums.exactSum;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.log;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import dev.l0.jobs.Folders;
import dev.l0.jobs.JobArguments;
import dev.l0.jobs.JobSessions;
import dev.l0.jobs.Machine;
import dev.l0.kernels.report.JsonLine;
import dev.l0.math.L0Math;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A benchmark, not a test: the risk batch's scenario revaluation of the synthetic portfolio
 * (default 100,000 positions x 100 scenarios) on {@code local[2]}, three ways over the same Parquet
 * positions, side by side in one run:
 *
 * <ul>
 *   <li>{@code l0_pipeline}: the L0 pipeline (one P&L array per position), carrying each position's
 *       book through ({@code carry("book")}, no join), summed per book with {@link
 *       dev.l0.spark.ExactSums#exactSumElementWise};
 *   <li>{@code spark_sql_exact}: plain Spark SQL, the positions (with what no shock moves computed
 *       per position, as the L0 program does: sqrt(t), the discounted strike, today's price)
 *       cross-joined with the scenarios, the same formula as expressions, {@code groupBy(book,
 *       scenario)} with {@link dev.l0.spark.ExactSums#exactSum}: the same numbers as L0, which is
 *       checked bit for bit;
 *   <li>{@code spark_sql_sum}: the same with Spark's own {@code sum}, whose last bits depend on the
 *       order (its largest relative difference from L0 is printed).
 * </ul>
 *
 * Spark SQL has no {@code erf}: the SQL variants call {@code L0Math.erf} (the function L0's {@code
 * erf} computes) as a Java UDF. Each variant runs {@value #WARMUPS} untimed, then {@value #RUNS}
 * timed queries (alternating, each a new query, so no shuffle output is reused). Prints one JSON
 * line per timed query (wall seconds, and the process's CPU seconds over the query: less sensitive
 * to other processes on a loaded machine) and a summary with the machine (cores, CPU, Java, load
 * average at the start and the end), the best times, their ratios, the least CPU seconds and the
 * comparisons; exits 1 after the summary if L0 and {@code spark_sql_exact} differ in any bit.
 * Usage: {@code RiskBenchmark [POSITIONS]}.
 */
public final class RiskBenchmark {
  static final int WARMUPS = 1;
  static final int RUNS = 5;
  static final String BENCHMARK = "spark_risk_scenarios";

  /**
   * Spark's object hash aggregate (which {@code exactSum} uses) falls back to sorting every row
   * once a task has more than 128 groups; the SQL variants have 800 (books x scenarios).
   */
  static final String OBJECT_HASH_FALLBACK =
      "spark.sql.objectHashAggregate.sortBased.fallbackThreshold";

  private RiskBenchmark() {}

  public static void main(String[] args) throws Exception {
    int positions = 0;
    try {
      positions = (int) JobArguments.count(args, "POSITIONS", 100_000, Integer.MAX_VALUE);
    } catch (JobArguments.UsageException e) {
      System.err.println("RiskBenchmark: " + e.getMessage());
      System.err.println("usage: RiskBenchmark [POSITIONS]");
      System.exit(RiskBatchJob.EXIT_USAGE);
    }
    RiskSettings settings = RiskSettings.parse(new String[] {"--date", "2026-11-25"});
    settings = settings.forVanillaBenchmark(positions, "local[2]", 2);
    Path folder = Files.createTempDirectory("l0-risk-benchmark");
    SparkSession spark = JobSessions.start("L0 risk benchmark", Optional.of("local[2]"));
    boolean identical;
    try {
      identical = run(spark, settings, folder.resolve("positions.parquet").toString());
    } finally {
      spark.stop();
      Folders.deleteRecursively(folder);
    }
    if (!identical) {
      System.err.println(
          "RiskBenchmark: the L0 book P&L and Spark SQL's exact sums differ (see bit_identical)");
      System.exit(1);
    }
  }

  private static boolean run(SparkSession spark, RiskSettings settings, String parquet)
      throws Exception {
    double loadAtStart = Machine.loadAverage();
    spark.conf().set(OBJECT_HASH_FALLBACK, "1024");
    RiskInputs.Inputs inputs = RiskInputs.load(spark, settings);
    RiskComputation.marketPositions(inputs, settings).repartition(2).write().parquet(parquet);
    Dataset<Row> positions = spark.read().parquet(parquet);
    long n = positions.count();

    List<Row> scenarioRows = new ArrayList<>();
    double[] spotShocks = settings.scenarioSpotShocks();
    double[] volShocks = settings.scenarioVolShocks();
    for (int s = 0; s < spotShocks.length; s++) {
      scenarioRows.add(RowFactory.create(s, spotShocks[s], volShocks[s]));
    }
    Dataset<Row> scenarios =
        spark.createDataFrame(
            scenarioRows,
            new StructType()
                .add("scenario", DataTypes.IntegerType, false)
                .add("ds", DataTypes.DoubleType, false)
                .add("dv", DataTypes.DoubleType, false));
    UserDefinedFunction erf =
        udf((UDF1<Double, Double>) L0Math::erf, DataTypes.DoubleType).asNonNullable();
    // As the L0 program does: sqrt(t), the discounted strike and today's price once per position.
    Dataset<Row> priced =
        positions
            .withColumn("sqrt_t", sqrt(col("years")))
            .withColumn(
                "discounted",
                col("strike").multiply(exp(col("rate").unary_$minus().multiply(col("years")))))
            .withColumn("today", priceGiven(erf, col("call"), col("spot"), col("volatility")));
    Column shocked =
        priceGiven(
            erf,
            col("call"),
            col("spot").multiply(lit(1.0).plus(col("ds"))),
            col("volatility").plus(col("dv")));
    Column pnl = col("quantity").multiply(shocked.minus(col("today")));

    // A new Dataset per query: collecting the same one again would reuse its shuffle's map output.
    Map<String, Supplier<List<Row>>> variants = new LinkedHashMap<>();
    variants.put(
        "l0_pipeline",
        () ->
            positions
                .transform(RiskComputation.scenarioPipeline(settings).carry("book"))
                .groupBy("book")
                .agg(exactSumElementWise(col("pnl")).as("pnl"))
                .collectAsList());
    variants.put(
        "spark_sql_exact",
        () ->
            priced
                .crossJoin(broadcast(scenarios))
                .select(col("book"), col("scenario"), pnl.as("pnl"))
                .groupBy("book", "scenario")
                .agg(exactSum(col("pnl")).as("pnl"))
                .collectAsList());
    variants.put(
        "spark_sql_sum",
        () ->
            priced
                .crossJoin(broadcast(scenarios))
                .select(col("book"), col("scenario"), pnl.as("pnl"))
                .groupBy("book", "scenario")
                .agg(sum(col("pnl")).as("pnl"))
                .collectAsList());

    Map<String, double[]> seconds = new LinkedHashMap<>();
    Map<String, double[]> cpuSeconds = new LinkedHashMap<>();
    Map<String, List<Row>> results = new HashMap<>();
    variants.keySet().forEach(name -> seconds.put(name, new double[RUNS]));
    variants.keySet().forEach(name -> cpuSeconds.put(name, new double[RUNS]));
    for (int run = -WARMUPS; run < RUNS; run++) {
      for (Map.Entry<String, Supplier<List<Row>>> variant : variants.entrySet()) {
        long start = System.nanoTime();
        double cpuStart = Machine.processCpuSeconds();
        results.put(variant.getKey(), variant.getValue().get());
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpu = Machine.processCpuSeconds() - cpuStart;
        if (run >= 0) {
          seconds.get(variant.getKey())[run] = elapsed;
          cpuSeconds.get(variant.getKey())[run] = cpu;
          System.out.println(
              new JsonLine()
                  .add("benchmark", BENCHMARK)
                  .add("variant", variant.getKey())
                  .add("run", run + 1)
                  .add("seconds", elapsed)
                  .add("process_cpu_seconds", cpu)
                  .text());
        }
      }
    }

    Map<String, Double> l0Pnl = new HashMap<>();
    for (Row row : results.get("l0_pipeline")) {
      List<Double> values = row.getList(1);
      for (int s = 0; s < values.size(); s++) {
        l0Pnl.put(row.getString(0) + "/" + s, values.get(s));
      }
    }
    long differentBits = 0;
    for (Row row : results.get("spark_sql_exact")) {
      Double mine = l0Pnl.get(row.getString(0) + "/" + row.getInt(1));
      if (mine == null
          || Double.doubleToRawLongBits(mine) != Double.doubleToRawLongBits(row.getDouble(2))) {
        differentBits++;
      }
    }
    double maxRelative = 0;
    for (Row row : results.get("spark_sql_sum")) {
      double theirs = row.getDouble(2);
      maxRelative =
          Math.max(
              maxRelative,
              Math.abs(l0Pnl.get(row.getString(0) + "/" + row.getInt(1)) - theirs)
                  / Math.max(1.0, Math.abs(theirs)));
    }
    for (String name : List.of("spark_sql_exact", "spark_sql_sum")) {
      if (results.get(name).size() != l0Pnl.size()) {
        throw new IllegalStateException(
            name
                + " gave "
                + results.get(name).size()
                + " book P&L values, L0 gave "
                + l0Pnl.size());
      }
    }
    double l0Best = best(seconds.get("l0_pipeline"));
    double exactBest = best(seconds.get("spark_sql_exact"));
    double sumBest = best(seconds.get("spark_sql_sum"));
    System.out.println(
        new JsonLine()
            .add("benchmark", BENCHMARK)
            .add("positions", n)
            .add("scenarios", settings.scenarioCount())
            .add("master", spark.sparkContext().master())
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("cpu", Machine.cpuModel())
            .add("load_average_start", loadAtStart)
            .add("load_average_end", Machine.loadAverage())
            .add("java", System.getProperty("java.version"))
            .add("spark", spark.version())
            .add("spark_sql_erf", "Java UDF calling L0Math.erf (Spark SQL has no erf)")
            .add(OBJECT_HASH_FALLBACK, spark.conf().get(OBJECT_HASH_FALLBACK))
            .add("warmups", WARMUPS)
            .add("runs", RUNS)
            .add("l0_pipeline_best_s", l0Best)
            .add("spark_sql_exact_best_s", exactBest)
            .add("spark_sql_sum_best_s", sumBest)
            .add("speedup_l0_vs_sql_exact", exactBest / l0Best)
            .add("speedup_l0_vs_sql_sum", sumBest / l0Best)
            .add("l0_pipeline_least_cpu_s", best(cpuSeconds.get("l0_pipeline")))
            .add("spark_sql_exact_least_cpu_s", best(cpuSeconds.get("spark_sql_exact")))
            .add("spark_sql_sum_least_cpu_s", best(cpuSeconds.get("spark_sql_sum")))
            .add("book_pnl_values_compared", l0Pnl.size())
            .add("values_with_different_bits_vs_sql_exact", differentBits)
            .add("bit_identical", differentBits == 0)
            .add("max_relative_diff_vs_sql_sum", maxRelative)
            .text());
    return differentBits == 0;
  }

  private static double best(double[] seconds) {
    return Arrays.stream(seconds).min().orElseThrow();
  }

  /**
   * The risk program's {@code price_given} as Spark SQL expressions, the same operations in the
   * same order, for the spot {@code s} and volatility {@code v}; the strike, years, rate and the
   * columns {@code sqrt_t} and {@code discounted} come from the position.
   */
  private static Column priceGiven(UserDefinedFunction erf, Column call, Column s, Column v) {
    Column k = col("strike");
    Column t = col("years");
    Column r = col("rate");
    Column sqrtT = col("sqrt_t");
    Column discounted = col("discounted");
    Column d1 =
        log(s.divide(k))
            .plus(r.plus(lit(0.5).multiply(v).multiply(v)).multiply(t))
            .divide(v.multiply(sqrtT));
    Column d2 = d1.minus(v.multiply(sqrtT));
    return when(call, s.multiply(ncdf(erf, d1)).minus(discounted.multiply(ncdf(erf, d2))))
        .otherwise(
            discounted
                .multiply(ncdf(erf, d2.unary_$minus()))
                .minus(s.multiply(ncdf(erf, d1.unary_$minus()))));
  }

  private static Column ncdf(UserDefinedFunction erf, Column x) {
    return lit(0.5).multiply(lit(1.0).plus(erf.apply(x.multiply(0.7071067811865476))));
  }
}
