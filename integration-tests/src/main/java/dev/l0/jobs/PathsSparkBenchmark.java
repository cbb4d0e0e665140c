package dev.l0.jobs;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import dev.l0.kernels.jvm.PathBenchmark;
import dev.l0.kernels.report.JsonLine;
import dev.l0.spark.L0;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * A benchmark, not a test: a Monte-Carlo-like pipeline whose every row builds a 256-step path in a
 * per-row array with a loop and in-place updates, then reduces it ({@code /programs/mc_paths.l0}),
 * over N rows (default 200,000) cached in memory on {@code local[2]}, as an L0 pipeline and as the
 * same computation in a plain Java {@code Dataset.map} ({@link PathBenchmark#handWrittenRow}), in
 * one run: {@value #WARMUPS} untimed and {@value #RUNS} timed queries each, alternating, each
 * aggregating {@code sum(value), count(*)}. Every value is compared bit for bit. Prints one JSON
 * line per timed query, then a summary with the machine, the best times and their ratio. Usage:
 * {@code PathsSparkBenchmark [ROWS]}.
 */
public final class PathsSparkBenchmark {
  static final long DEFAULT_ROWS = 200_000L;
  static final int WARMUPS = 2;
  static final int RUNS = 5;
  static final String BENCHMARK = "spark_mc_paths";

  private PathsSparkBenchmark() {}

  public static void main(String[] args) throws IOException {
    long n = 0;
    try {
      n = JobArguments.count(args, "ROWS", DEFAULT_ROWS, Integer.MAX_VALUE);
    } catch (JobArguments.UsageException e) {
      System.err.println("PathsSparkBenchmark: " + e.getMessage());
      System.err.println("usage: PathsSparkBenchmark [ROWS]");
      System.exit(BlackScholesSparkJob.EXIT_USAGE);
    }
    SparkSession spark = JobSessions.start("L0 Monte-Carlo paths benchmark", Optional.empty());
    try {
      run(spark, n);
    } finally {
      spark.stop();
    }
  }

  private static void run(SparkSession spark, long n) throws IOException {
    double loadAtStart = Machine.loadAverage();
    Dataset<Row> rows =
        spark
            .range(0, n, 1, 4)
            .select(
                xxhash64(col("id")).as("seed"),
                lit(10.0).plus(rand(1).multiply(190.0)).as("spot"),
                lit(0.05).plus(rand(2).multiply(0.6)).as("vol"));
    rows.persist(StorageLevel.MEMORY_ONLY());
    rows.count();
    Dataset<Row> l0 =
        rows.transform(L0.pipeline(programText()).on("seed", "spot", "vol").as("value"));
    Dataset<Row> javaMap =
        rows.map(
                (MapFunction<Row, Double>)
                    row ->
                        PathBenchmark.handWrittenRow(
                            row.getLong(0),
                            row.getDouble(1),
                            row.getDouble(2),
                            new double[PathBenchmark.STEPS]),
                Encoders.DOUBLE())
            .toDF("value");
    for (int i = 0; i < WARMUPS; i++) {
      timed(l0, n);
      timed(javaMap, n);
    }
    double[] l0Seconds = new double[RUNS];
    double[] mapSeconds = new double[RUNS];
    for (int run = 0; run < RUNS; run++) {
      double[] a = timed(l0, n);
      double[] b = timed(javaMap, n);
      l0Seconds[run] = a[0];
      mapSeconds[run] = b[0];
      System.out.println(
          new JsonLine()
              .add("benchmark", BENCHMARK)
              .add("run", run + 1)
              .add("l0_pipeline_s", a[0])
              .add("java_dataset_map_s", b[0])
              .add("l0_sum", a[1])
              .add("map_sum", b[1])
              .text());
    }
    double[] l0Values = l0.collectAsList().stream().mapToDouble(r -> r.getDouble(0)).toArray();
    double[] mapValues =
        javaMap.collectAsList().stream().mapToDouble(r -> r.getDouble(0)).toArray();
    double l0Best = Arrays.stream(l0Seconds).min().orElseThrow();
    double mapBest = Arrays.stream(mapSeconds).min().orElseThrow();
    System.out.println(
        new JsonLine()
            .add("benchmark", BENCHMARK)
            .add("rows", n)
            .add("steps", PathBenchmark.STEPS)
            .add("master", spark.sparkContext().master())
            .add("partitions", l0.rdd().getNumPartitions())
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("load_average_start", loadAtStart)
            .add("load_average_end", Machine.loadAverage())
            .add("java", System.getProperty("java.version"))
            .add("spark", spark.version())
            .add("l0_plan", PipelinePlans.pipelineNode(l0))
            .add("runs", RUNS)
            .add("l0_pipeline_best_s", l0Best)
            .add("java_dataset_map_best_s", mapBest)
            .add("ratio_l0_vs_java_map", l0Best / mapBest)
            .add("bit_identical", Arrays.equals(l0Values, mapValues))
            .text());
  }

  /** Seconds and {@code sum(value)} of one aggregate over {@code values}. */
  private static double[] timed(Dataset<Row> values, long n) {
    long start = System.nanoTime();
    Row result = values.agg(sum("value"), count(lit(1))).first();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (result.getLong(1) != n) {
      throw new IllegalStateException("computed " + result.getLong(1) + " rows, expected " + n);
    }
    return new double[] {seconds, result.getDouble(0)};
  }

  static String programText() throws IOException {
    try (InputStream in = PathsSparkBenchmark.class.getResourceAsStream(PathBenchmark.PROGRAM)) {
      if (in == null) {
        throw new IOException(PathBenchmark.PROGRAM + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
