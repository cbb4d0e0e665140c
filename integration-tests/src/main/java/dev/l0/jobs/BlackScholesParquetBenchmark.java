package dev.l0.jobs;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.log;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import dev.l0.kernels.report.JsonLine;
import dev.l0.spark.L0Settings;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A benchmark, not a test: Black-Scholes over N generated options (default 10,000,000) read from
 * Parquet, priced by the thesis's P0 as an L0 pipeline and by the same formula written as Spark SQL
 * expressions, in one run on {@code local[2]}. The options are written to Parquet in a temporary
 * folder once; each variant then runs {@value #WARMUPS} untimed and {@value #RUNS} timed queries
 * (alternating: a round runs each variant once), each reading the Parquet files and aggregating
 * {@code sum(price), count(*)}, so neither the output nor a collect dominates; a third query in
 * each round reads the same columns without pricing ({@link #scanOnlyValue}, the floor of a
 * row-wise Spark SQL query), and two more only decode the scan's column batches ({@link
 * #timedDecode}), with Spark's Parquet reader and with L0's own (the floor of the L0 pipeline). Two
 * variants of the L0 query are A/Bs in the same JVM: with Spark's partial aggregate instead of the
 * fused one, and with Spark's Parquet reader instead of L0's ({@code
 * spark.l0.parquet.ownReader=false}). Spark has no {@code erf}, and P0 does not use one: its normal
 * CDF is the Abramowitz-Stegun polynomial, written here with the same operations in the same order,
 * and Spark's {@code exp}, {@code log} and {@code sqrt} are {@code StrictMath} like L0's, so the
 * two should agree bit for bit; every price is compared. Prints JSON lines: one per timed query,
 * then a summary with the machine (cores, Java, load average), the best times, their ratio, the
 * comparison and the plan the L0 query's aggregate ran with ({@code spark.l0.aggregate.fused}, as a
 * system property, switches the fused partial aggregate off). Usage: {@code
 * BlackScholesParquetBenchmark [OPTIONS]}.
 */
public final class BlackScholesParquetBenchmark {
  static final long DEFAULT_OPTIONS = 10_000_000L;

  /**
   * Untimed rounds first: in a series of 12 timed rounds after one untimed round, every variant
   * still got faster until about the eighth (the JIT compiler was still compiling Spark's own code
   * on the 2-core VM): the L0 query took 0.54 s in the first and 0.33-0.38 s from the eighth on,
   * Spark SQL 0.97 s and 0.74-0.92 s
   * (bench/results/2026-11-27-s16-parquet-12-round-series-2core.json). With fewer, the best times
   * measure the JIT compiler more than either way of pricing.
   */
  static final int WARMUPS = 4;

  static final int RUNS = 8;
  static final String BENCHMARK = "spark_blackscholes_parquet";

  private BlackScholesParquetBenchmark() {}

  public static void main(String[] args) throws IOException {
    long n = 0;
    try {
      n = JobArguments.count(args, "OPTIONS", DEFAULT_OPTIONS, Integer.MAX_VALUE);
    } catch (JobArguments.UsageException e) {
      System.err.println("BlackScholesParquetBenchmark: " + e.getMessage());
      System.err.println("usage: BlackScholesParquetBenchmark [OPTIONS]");
      System.exit(BlackScholesSparkJob.EXIT_USAGE);
    }
    Path folder = Files.createTempDirectory("l0-blackscholes-parquet");
    SparkSession spark = JobSessions.start("L0 Black-Scholes Parquet benchmark", Optional.empty());
    try {
      run(spark, n, folder.resolve("options.parquet").toString());
    } finally {
      spark.stop();
      Folders.deleteRecursively(folder);
    }
  }

  private static void run(SparkSession spark, long n, String parquet) throws IOException {
    double loadAtStart = Machine.loadAverage();
    long writeStart = System.nanoTime();
    generatedOptions(spark, n).write().parquet(parquet);
    double writeSeconds = (System.nanoTime() - writeStart) / 1e9;

    Dataset<Row> options = spark.read().parquet(parquet);
    Dataset<Row> l0Prices = options.transform(BlackScholesSparkJob.pricingPipeline());
    Dataset<Row> sqlPrices =
        options.select(
            price(
                    col("call"),
                    col("spot"),
                    col("strike"),
                    col("years"),
                    col("rate"),
                    col("volatility"))
                .as("price"));
    Dataset<Row> scanOnly = options.select(scanOnlyValue().as("price"));

    boolean fused =
        L0Settings.aggregateFused(key -> Optional.ofNullable(spark.conf().get(key, null)));
    boolean ownReader =
        L0Settings.parquetOwnReader(key -> Optional.ofNullable(spark.conf().get(key, null)));
    for (int i = 0; i < WARMUPS; i++) {
      timedAggregate(l0Prices, n);
      timedUnfused(spark, l0Prices, n, fused);
      timedWithSparksReader(spark, l0Prices, n);
      timedAggregate(sqlPrices, n);
      timedAggregate(scanOnly, n);
      timedDecode(options, n);
      timedDecode(l0Prices, n);
    }
    double[] l0Seconds = new double[RUNS];
    double[] l0Cpu = new double[RUNS];
    double[] unfusedSeconds = new double[RUNS];
    double[] unfusedCpu = new double[RUNS];
    double[] sparkReaderSeconds = new double[RUNS];
    double[] l0DecodeSeconds = new double[RUNS];
    double[] sqlSeconds = new double[RUNS];
    double[] scanSeconds = new double[RUNS];
    double[] decodeSeconds = new double[RUNS];
    double l0Sum = 0;
    double sqlSum = 0;
    for (int run = 0; run < RUNS; run++) {
      Timed l0 = timedAggregate(l0Prices, n);
      Timed unfused = timedUnfused(spark, l0Prices, n, fused);
      Timed sparkReader = timedWithSparksReader(spark, l0Prices, n);
      Timed sql = timedAggregate(sqlPrices, n);
      Timed scan = timedAggregate(scanOnly, n);
      l0Seconds[run] = l0.seconds();
      l0Cpu[run] = l0.cpuSeconds();
      unfusedSeconds[run] = unfused.seconds();
      unfusedCpu[run] = unfused.cpuSeconds();
      sparkReaderSeconds[run] = sparkReader.seconds();
      if (Double.doubleToLongBits(sparkReader.sum()) != Double.doubleToLongBits(l0.sum())) {
        throw new IllegalStateException(
            "the sum over Spark's Parquet reader " + sparkReader.sum() + " is not " + l0.sum());
      }
      if (Double.doubleToLongBits(unfused.sum()) != Double.doubleToLongBits(l0.sum())) {
        throw new IllegalStateException(
            "the fused aggregate's sum " + l0.sum() + " is not Spark's " + unfused.sum());
      }
      sqlSeconds[run] = sql.seconds();
      scanSeconds[run] = scan.seconds();
      decodeSeconds[run] = timedDecode(options, n);
      l0DecodeSeconds[run] = timedDecode(l0Prices, n);
      l0Sum = l0.sum();
      sqlSum = sql.sum();
      System.out.println(runLine("l0_pipeline", run + 1, l0));
      System.out.println(runLine("l0_pipeline_aggregate_unfused", run + 1, unfused));
      System.out.println(runLine("l0_pipeline_sparks_parquet_reader", run + 1, sparkReader));
      System.out.println(runLine("spark_sql", run + 1, sql));
      System.out.println(runLine("spark_scan_only", run + 1, scan));
      System.out.println(decodeLine("parquet_decode_only", run + 1, decodeSeconds[run]));
      System.out.println(
          decodeLine("parquet_decode_only_l0_reader", run + 1, l0DecodeSeconds[run]));
    }
    Dataset<Row> l0Aggregate = aggregate(l0Prices);
    l0Aggregate.collectAsList();
    Comparison comparison = compare(l0Prices, sqlPrices);
    if (comparison.rows != n) {
      throw new IllegalStateException("compared " + comparison.rows + " prices, expected " + n);
    }
    double l0Best = Arrays.stream(l0Seconds).min().orElseThrow();
    double unfusedBest = Arrays.stream(unfusedSeconds).min().orElseThrow();
    double sqlBest = Arrays.stream(sqlSeconds).min().orElseThrow();
    double scanBest = Arrays.stream(scanSeconds).min().orElseThrow();
    double decodeBest = Arrays.stream(decodeSeconds).min().orElseThrow();
    double sparkReaderBest = Arrays.stream(sparkReaderSeconds).min().orElseThrow();
    double l0DecodeBest = Arrays.stream(l0DecodeSeconds).min().orElseThrow();
    System.out.println(
        new JsonLine()
            .add("benchmark", BENCHMARK)
            .add("options", n)
            .add("master", spark.sparkContext().master())
            .add("partitions", l0Prices.rdd().getNumPartitions())
            .add("cpu", Machine.cpuModel())
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("load_average_start", loadAtStart)
            .add("load_average_end", Machine.loadAverage())
            .add("java", System.getProperty("java.version"))
            .add("spark", spark.version())
            .add("l0_plan", PipelinePlans.pipelineNode(l0Prices))
            .add("l0_physical_plan", l0Prices.queryExecution().executedPlan().treeString())
            .add("l0_aggregate_fused", fused)
            .add("l0_parquet_own_reader", ownReader)
            .add("l0_pipeline_sparks_parquet_reader_best_s", sparkReaderBest)
            .add("ratio_l0_sparks_parquet_reader_vs_sql", sparkReaderBest / sqlBest)
            .add("l0_aggregate_plan", l0Aggregate.queryExecution().executedPlan().treeString())
            .add("l0_aggregate_unfused_best_s", unfusedBest)
            .add("ratio_l0_aggregate_unfused_vs_sql", unfusedBest / sqlBest)
            .add("l0_pipeline_median_cpu_s", median(l0Cpu))
            .add("l0_aggregate_unfused_median_cpu_s", median(unfusedCpu))
            .add("parquet_write_s", writeSeconds)
            .add("warmup_rounds", WARMUPS)
            .add("runs", RUNS)
            .add("l0_pipeline_best_s", l0Best)
            .add("spark_sql_best_s", sqlBest)
            .add("ratio_l0_vs_sql", l0Best / sqlBest)
            .add("l0_pipeline_median_s", median(l0Seconds))
            .add("spark_sql_median_s", median(sqlSeconds))
            .add("ratio_of_medians_l0_vs_sql", median(l0Seconds) / median(sqlSeconds))
            .add("spark_scan_only_best_s", scanBest)
            .add("ratio_scan_only_vs_sql", scanBest / sqlBest)
            .add("parquet_decode_only_best_s", decodeBest)
            .add("ratio_decode_only_vs_sql", decodeBest / sqlBest)
            .add("parquet_decode_only_l0_reader_best_s", l0DecodeBest)
            .add("ratio_decode_only_l0_reader_vs_sql", l0DecodeBest / sqlBest)
            .add("l0_sum", l0Sum)
            .add("sql_sum", sqlSum)
            .add("max_abs_diff", comparison.maxAbsDiff)
            .add("rows_with_different_bits", comparison.differentBits)
            .add("bit_identical", comparison.differentBits == 0)
            .text());
  }

  /**
   * N options with the ranges of dev.l0.kernels.jvm.BlackScholesBenchmark, from seeded random
   * columns.
   */
  static Dataset<Row> generatedOptions(SparkSession spark, long n) {
    return spark
        .range(0, n, 1, 2)
        .select(
            rand(1).lt(0.5).as("call"),
            uniform(2, 10, 190).as("spot"),
            uniform(3, 10, 190).as("strike"),
            uniform(4, 0.05, 4).as("years"),
            uniform(5, 0.01, 0.09).as("rate"),
            uniform(6, 0.05, 0.6).as("volatility"));
  }

  private static Column uniform(long seed, double from, double width) {
    return lit(from).plus(rand(seed).multiply(width));
  }

  /**
   * What every variant pays before any pricing: the same Parquet scan of all six columns, Spark's
   * ColumnarToRow and the same aggregate, over a value that reads each column with one addition per
   * column instead of the formula. The time of a query over it bounds from below what either way of
   * pricing can take.
   */
  static Column scanOnlyValue() {
    return when(col("call"), lit(1.0))
        .otherwise(lit(0.0))
        .plus(col("spot"))
        .plus(col("strike"))
        .plus(col("years"))
        .plus(col("rate"))
        .plus(col("volatility"));
  }

  /** P0's price of an option, as Spark SQL expressions with P0's operations in P0's order. */
  static Column price(
      Column call, Column spot, Column strike, Column years, Column rate, Column volatility) {
    Column vSqrtT = volatility.multiply(sqrt(years));
    Column d1 =
        log(spot.divide(strike))
            .plus(rate.plus(lit(0.5).multiply(volatility).multiply(volatility)).multiply(years))
            .divide(vSqrtT);
    Column d2 = d1.minus(vSqrtT);
    Column cndD1 = cnd(d1);
    Column cndD2 = cnd(d2);
    Column xExpRT = strike.multiply(exp(rate.unary_$minus().multiply(years)));
    return when(call, spot.multiply(cndD1).minus(xExpRT.multiply(cndD2)))
        .otherwise(
            xExpRT.multiply(lit(1.0).minus(cndD2)).minus(spot.multiply(lit(1.0).minus(cndD1))));
  }

  /** P0's cnd: the Abramowitz-Stegun approximation of the standard normal CDF. */
  private static Column cnd(Column d) {
    Column k =
        lit(1.0)
            .divide(
                lit(1.0)
                    .plus(lit(0.2316419).multiply(when(d.lt(0.0), d.unary_$minus()).otherwise(d))));
    Column horner =
        k.multiply(
            lit(0.31938153)
                .plus(
                    k.multiply(
                        lit(-0.356563782)
                            .plus(
                                k.multiply(
                                    lit(1.781477937)
                                        .plus(
                                            k.multiply(
                                                lit(-1.821255978)
                                                    .plus(k.multiply(lit(1.330274429))))))))));
    Column c =
        lit(0.39894228040143267793994605993438)
            .multiply(exp(lit(-0.5).multiply(d).multiply(d)))
            .multiply(horner);
    return when(lit(0.0).lt(d), lit(1.0).minus(c)).otherwise(c);
  }

  /**
   * A query's wall seconds, the process's CPU seconds over it (local mode: the tasks too), its sum.
   */
  private record Timed(double seconds, double cpuSeconds, double sum) {}

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /**
   * The L0 query with {@code spark.l0.aggregate.fused=false} (Spark's ColumnarToRow and partial
   * aggregate over the pipeline), then the key back to {@code fused}: the A/B of the fused
   * aggregate in the same JVM, alternating with the L0 query.
   */
  private static Timed timedUnfused(
      SparkSession spark, Dataset<Row> l0Prices, long n, boolean fused) {
    return timedWith(
        spark,
        L0Settings.AGGREGATE_FUSED,
        "false",
        Boolean.toString(fused),
        () -> timedAggregate(l0Prices, n));
  }

  /**
   * The L0 query with {@code spark.l0.parquet.ownReader=false} (Spark's Parquet reader under the
   * pipeline), then the key unset: the A/B of L0's own reader in the same JVM.
   */
  private static Timed timedWithSparksReader(SparkSession spark, Dataset<Row> l0Prices, long n) {
    String before = spark.conf().get(L0Settings.PARQUET_OWN_READER, null);
    return timedWith(
        spark, L0Settings.PARQUET_OWN_READER, "false", before, () -> timedAggregate(l0Prices, n));
  }

  /**
   * {@code query} run with {@code key=value}, then the key back to {@code after} (unset where
   * null).
   */
  private static Timed timedWith(
      SparkSession spark, String key, String value, String after, Supplier<Timed> query) {
    spark.conf().set(key, value);
    try {
      return query.get();
    } finally {
      if (after == null) {
        spark.conf().unset(key);
      } else {
        spark.conf().set(key, after);
      }
    }
  }

  /** What every timed query computes: {@code sum(price), count(*)}. */
  private static Dataset<Row> aggregate(Dataset<Row> prices) {
    return prices.agg(sum("price"), count(lit(1)));
  }

  private static Timed timedAggregate(Dataset<Row> prices, long n) {
    double cpuStart = Machine.processCpuSeconds();
    long start = System.nanoTime();
    Row result = aggregate(prices).first();
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = Machine.processCpuSeconds() - cpuStart;
    if (result.getLong(1) != n) {
      throw new IllegalStateException("priced " + result.getLong(1) + " options, expected " + n);
    }
    return new Timed(seconds, cpuSeconds, result.getDouble(0));
  }

  /**
   * Seconds to decode every column batch of the Parquet scan of {@code query} (all six columns) and
   * count their rows, nothing else: what any query over the scan pays first. The scan of the
   * options alone reads with Spark's reader (the floor of a Spark SQL query); the scan under the L0
   * pipeline with L0's own reader, unless {@code spark.l0.parquet.ownReader} is false (the floor of
   * the L0 query).
   */
  private static double timedDecode(Dataset<Row> query, long n) {
    long start = System.nanoTime();
    SparkPlan scan = query.queryExecution().executedPlan().collectLeaves().head();
    JavaRDD<ColumnarBatch> batches = scan.executeColumnar().toJavaRDD();
    long rows =
        batches
            .mapPartitions(
                (Iterator<ColumnarBatch> partition) -> {
                  long count = 0;
                  while (partition.hasNext()) {
                    count += partition.next().numRows();
                  }
                  return List.of(count).iterator();
                })
            .reduce(Long::sum);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (rows != n) {
      throw new IllegalStateException("decoded " + rows + " options, expected " + n);
    }
    return seconds;
  }

  private static String decodeLine(String variant, int run, double seconds) {
    return new JsonLine()
        .add("benchmark", BENCHMARK)
        .add("variant", variant)
        .add("run", run)
        .add("seconds", seconds)
        .text();
  }

  private static String runLine(String variant, int run, Timed timed) {
    return new JsonLine()
        .add("benchmark", BENCHMARK)
        .add("variant", variant)
        .add("run", run)
        .add("seconds", timed.seconds())
        .add("cpu_seconds", timed.cpuSeconds())
        .add("sum", timed.sum())
        .text();
  }

  /**
   * Rows compared, the largest |difference| (NaN against a number counts as infinite), and the rows
   * whose bits differ. A class, not a record: task results go through Spark's Kryo 4, which cannot
   * build records.
   */
  private static final class Comparison implements Serializable {
    private final long rows;
    private final double maxAbsDiff;
    private final long differentBits;

    private Comparison(long rows, double maxAbsDiff, long differentBits) {
      this.rows = rows;
      this.maxAbsDiff = maxAbsDiff;
      this.differentBits = differentBits;
    }

    static Comparison of(double a, double b) {
      double diff = Double.isNaN(a) && Double.isNaN(b) ? 0 : Math.abs(a - b);
      return new Comparison(
          1,
          Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff,
          Double.doubleToLongBits(a) == Double.doubleToLongBits(b) ? 0 : 1);
    }

    Comparison plus(Comparison other) {
      return new Comparison(
          rows + other.rows,
          Math.max(maxAbsDiff, other.maxAbsDiff),
          differentBits + other.differentBits);
    }
  }

  /**
   * Compares the two price columns row by row: both keep the Parquet scan's partitions and row
   * order.
   */
  private static Comparison compare(Dataset<Row> l0Prices, Dataset<Row> sqlPrices) {
    return l0Prices
        .javaRDD()
        .zip(sqlPrices.javaRDD())
        .map(pair -> Comparison.of(pair._1().getDouble(0), pair._2().getDouble(0)))
        .reduce(Comparison::plus);
  }
}
