package dev.l0.jobs.risk;

import dev.l0.jobs.Folders;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.log;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import dev.l0.jobs.JobSessions;
import dev.l0.kernels.report.JsonLine;
import dev.l0.math.L0Math;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * (default 100,000 positions x 100 scenarios) on {@code local[2]}, as the L0 pipeline (one P&L array
 * per position, summed per book) against plain Spark SQL (positions cross-joined with the scenarios,
 * the same formula as expressions, {@code groupBy(book, scenario)}). Spark SQL has no {@code erf}:
 * the SQL variant calls {@code L0Math.erf} (the function L0's {@code erf} computes) as a Java UDF.
 * The positions are read from Parquet written once; each variant runs once untimed, then
 * {@value #RUNS} timed runs alternate. Prints one JSON line per timed run and a summary with the
 * best times, their ratio and the largest relative difference between the two variants' book P&L.
 * Usage: {@code RiskBenchmark [POSITIONS]}.
 */
public final class RiskBenchmark {
  static final int RUNS = 2;
  static final String BENCHMARK = "spark_risk_scenarios";

  private RiskBenchmark() {}

  public static void main(String[] args) throws Exception {
    String positions = args.length > 0 ? args[0] : "100000";
    RiskSettings settings = RiskSettings.parse(new String[] {"--date", "2026-11-25"});
    settings = new RiskSettings(settings.valuationDate(), Optional.empty(), Optional.empty(), settings.out(), "local[2]",
        Integer.parseInt(positions), settings.syntheticUnderlyings(), settings.syntheticBooks(), settings.syntheticSeed(),
        settings.spotShocks(), settings.volShocks(), settings.varConfidence(), settings.esConfidence(), 2);
    Path folder = Files.createTempDirectory("l0-risk-benchmark");
    SparkSession spark = JobSessions.start("L0 risk benchmark", Optional.of("local[2]"));
    try {
      run(spark, settings, folder.resolve("positions.parquet").toString());
    } finally {
      spark.stop();
      Folders.deleteRecursively(folder);
    }
  }

  private static void run(SparkSession spark, RiskSettings settings, String parquet) throws Exception {
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
    Dataset<Row> scenarios = spark.createDataFrame(scenarioRows, new StructType().add("scenario", DataTypes.IntegerType, false)
        .add("ds", DataTypes.DoubleType, false).add("dv", DataTypes.DoubleType, false));
    UserDefinedFunction erf = udf((UDF1<Double, Double>) L0Math::erf, DataTypes.DoubleType).asNonNullable();
    Column today = price(erf, col("call"), col("spot"), col("strike"), col("years"), col("rate"), col("volatility"));
    Column shocked = price(erf, col("call"), col("spot").multiply(lit(1.0).plus(col("ds"))), col("strike"), col("years"),
        col("rate"), col("volatility").plus(col("dv")));

    double[] l0Seconds = new double[RUNS + 1];
    double[] sqlSeconds = new double[RUNS + 1];
    List<Row> l0Rows = null;
    List<Row> sqlRows = null;
    for (int run = 0; run <= RUNS; run++) {
      long start = System.nanoTime();
      // A new Dataset per run: collecting the same one again would reuse its shuffle's map output.
      l0Rows = positions.transform(RiskComputation.scenarioPipeline(settings)).join(positions.select("id", "book"), "id")
          .groupBy("book").agg(exactSumElementWise(col("pnl")).as("pnl")).collectAsList();
      l0Seconds[run] = (System.nanoTime() - start) / 1e9;
      start = System.nanoTime();
      sqlRows = positions.crossJoin(org.apache.spark.sql.functions.broadcast(scenarios))
          .select(col("book"), col("scenario"), col("quantity").multiply(shocked.minus(today)).as("pnl"))
          .groupBy("book", "scenario").agg(sum("pnl").as("pnl")).collectAsList();
      sqlSeconds[run] = (System.nanoTime() - start) / 1e9;
      if (run > 0) {
        System.out.println(new JsonLine().add("benchmark", BENCHMARK).add("run", run).add("l0_pipeline_s", l0Seconds[run])
            .add("spark_sql_s", sqlSeconds[run]).text());
      }
    }
    Map<String, Double> sqlPnl = new HashMap<>();
    for (Row row : sqlRows) {
      sqlPnl.put(row.getString(0) + "/" + row.getInt(1), row.getDouble(2));
    }
    double maxRelative = 0;
    int compared = 0;
    for (Row row : l0Rows) {
      List<Double> pnl = row.getList(1);
      for (int s = 0; s < pnl.size(); s++) {
        double other = sqlPnl.get(row.getString(0) + "/" + s);
        maxRelative = Math.max(maxRelative, Math.abs(pnl.get(s) - other) / Math.max(1.0, Math.abs(other)));
        compared++;
      }
    }
    if (compared != sqlRows.size()) {
      throw new IllegalStateException("compared " + compared + " book P&L values, Spark SQL gave " + sqlRows.size());
    }
    double l0Best = Math.min(l0Seconds[1], l0Seconds[RUNS]);
    double sqlBest = Math.min(sqlSeconds[1], sqlSeconds[RUNS]);
    System.out.println(new JsonLine()
        .add("benchmark", BENCHMARK)
        .add("positions", n)
        .add("scenarios", settings.scenarioCount())
        .add("master", spark.sparkContext().master())
        .add("cores", Runtime.getRuntime().availableProcessors())
        .add("load_average_end", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
        .add("java", System.getProperty("java.version"))
        .add("spark", spark.version())
        .add("spark_sql_erf", "Java UDF calling L0Math.erf (Spark SQL has no erf)")
        .add("runs", RUNS)
        .add("l0_pipeline_best_s", l0Best)
        .add("spark_sql_best_s", sqlBest)
        .add("speedup_l0_vs_sql", sqlBest / l0Best)
        .add("book_pnl_values_compared", compared)
        .add("max_relative_diff", maxRelative)
        .text());
  }

  /** The risk program's Black-Scholes price as Spark SQL expressions, the same operations in the same order. */
  private static Column price(UserDefinedFunction erf, Column call, Column s, Column k, Column t, Column r, Column v) {
    Column d1 = log(s.divide(k)).plus(r.plus(lit(0.5).multiply(v).multiply(v)).multiply(t)).divide(v.multiply(sqrt(t)));
    Column d2 = d1.minus(v.multiply(sqrt(t)));
    Column discounted = k.multiply(exp(r.unary_$minus().multiply(t)));
    return when(call, s.multiply(ncdf(erf, d1)).minus(discounted.multiply(ncdf(erf, d2))))
        .otherwise(discounted.multiply(ncdf(erf, d2.unary_$minus())).minus(s.multiply(ncdf(erf, d1.unary_$minus()))));
  }

  private static Column ncdf(UserDefinedFunction erf, Column x) {
    return lit(0.5).multiply(lit(1.0).plus(erf.apply(x.multiply(0.7071067811865476))));
  }
}
