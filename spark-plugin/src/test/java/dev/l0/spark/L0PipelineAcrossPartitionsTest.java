package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.pipeline.PipelinePlanningException;
import dev.l0.spark.plan.L0PipelineExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * REDUCE and SCAN pipelines across partitions, and the fusion of adjacent pipelines, on a real
 * local[2] session.
 */
class L0PipelineAcrossPartitionsTest {
  private static final StructType LONGS = new StructType().add("x", DataTypes.LongType, false);
  private static final StructType POSITIONS =
      new StructType()
          .add("quantity", DataTypes.DoubleType, false)
          .add("price", DataTypes.DoubleType, false);
  private static final String VALUES = "fun [f64] main([f64] q, [f64] p) = map(op *, zip(q, p))";
  private static final String LONG_VALUES_TOTAL =
      "fun f64 main([f64] v) = reduce(op +, 0.0, filter(fn bool (f64 x) => 0.0 < x, v))";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineAcrossPartitionsTest.class, Map.of(L0Settings.BATCH_ROWS, "1000"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void reduceCombinesAllPartitionsIntoOneRow() {
    List<Row> rows = longs(10_007, new Random(3));
    Dataset<Row> total =
        SparkTestSupport.frame(spark, rows, LONGS, 3)
            .transform(
                L0.pipeline("fun i64 main([i64] x) = reduce(op +, 0i64, x)").on("x").as("total"));

    long expected = rows.stream().mapToLong(row -> row.getLong(0)).sum();
    assertEquals(List.of(RowFactory.create(expected)), total.collectAsList());
  }

  @Test
  void reduceOfNoRowsIsTheNeutralElement() {
    Dataset<Row> product =
        SparkTestSupport.frame(spark, List.of(), LONGS, 3)
            .transform(L0.pipeline("fun i64 main([i64] x) = reduce(op *, 1i64, x)").on("x"));

    assertEquals(List.of(RowFactory.create(1L)), product.collectAsList());
  }

  @Test
  void redomapMatchesSparkSqlAndIsBitIdenticalAcrossRuns() {
    Dataset<Row> frame =
        SparkTestSupport.frame(spark, positions(20_000, new Random(11)), POSITIONS, 3);
    Dataset<Row> total =
        frame.transform(
            L0.pipeline(SparkTestSupport.resource("/programs/portfolio.l0"))
                .on("quantity", "price")
                .as("total"));

    double first = total.collectAsList().get(0).getDouble(0);
    double second = total.collectAsList().get(0).getDouble(0);
    Column value = col("quantity").multiply(col("price"));
    double sparkSql =
        frame
            .agg(sum(when(value.gt(0.0), value).otherwise(0.0)))
            .collectAsList()
            .get(0)
            .getDouble(0);
    assertEquals(Double.doubleToRawLongBits(first), Double.doubleToRawLongBits(second));
    assertEquals(sparkSql, first, Math.abs(sparkSql) * 1e-10);
  }

  @Test
  void scanFollowsThePhysicalRowOrderAcrossPartitions() {
    List<Row> rows = longs(4_321, new Random(5));
    Dataset<Row> scanned =
        SparkTestSupport.frame(spark, rows, LONGS, 3)
            .transform(
                L0.pipeline("fun [i64] main([i64] x) = scan(op +, 0i64, x)").on("x").as("running"));

    List<Row> expected = new ArrayList<>();
    long running = 0;
    for (Row row : rows) {
      running += row.getLong(0);
      expected.add(RowFactory.create(running));
    }
    assertEquals(expected, scanned.collectAsList());
    Map<String, Long> metrics =
        L0PipelineRowsTest.metricValues(SparkTestSupport.pipelineExecs(scanned).get(0));
    assertEquals(rows.size(), metrics.get("numInputRows"));
    assertEquals(rows.size(), metrics.get("numOutputRows"));
  }

  /**
   * A scan computes its input twice; over a UDF declared non-deterministic the two passes could see
   * different rows (the running values jumped back at partition boundaries), so it is a planning
   * error naming the call site and the UDF, before any task runs. Persisted, the same input scans;
   * a partition-seeded {@code rand(7)} repeats and scans as it is.
   */
  @Test
  void aScanOverANonDeterministicInputMustBePersistedFirst() {
    UserDefinedFunction noisy =
        udf((UDF1<Long, Long>) id -> ThreadLocalRandom.current().nextLong(100), DataTypes.LongType)
            .asNondeterministic();
    L0Pipeline running =
        L0.pipeline("fun [i64] main([i64] x) = scan(op +, 0i64, x)").on("x").as("running");
    Dataset<Row> input = spark.range(0, 20_000, 1, 4).select(noisy.apply(col("id")).as("x"));
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class, () -> input.transform(running).collectAsList());
    assertTrue(
        error.getMessage().contains("L0PipelineAcrossPartitionsTest.java:")
            && error.getMessage().contains("UDF(id)")
            && error.getMessage().contains("persist() or checkpoint() the input before the scan"),
        error.getMessage());

    Dataset<Row> persisted = input.persist();
    try {
      long[] values = persisted.collectAsList().stream().mapToLong(row -> row.getLong(0)).toArray();
      List<Row> scanned = persisted.transform(running).collectAsList();
      long total = 0;
      for (int k = 0; k < values.length; k++) {
        total += values[k];
        assertEquals(total, scanned.get(k).getLong(0), "running value " + k);
      }
    } finally {
      persisted.unpersist();
    }

    Dataset<Row> seeded =
        spark.range(0, 20_000, 1, 4).selectExpr("cast(rand(7) * 100 as bigint) as x");
    long[] seededValues =
        seeded.collectAsList().stream().mapToLong(row -> row.getLong(0)).toArray();
    List<Row> seededScan = seeded.transform(running).collectAsList();
    assertEquals(
        java.util.stream.LongStream.of(seededValues).sum(),
        seededScan.get(seededScan.size() - 1).getLong(0));
  }

  @Test
  void reduceAndScanOfRowArraysCarryArrayPartialsAcrossPartitions() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      rows.add(RowFactory.create((Object) new double[] {i % 7, -(i % 5)}));
    }
    Dataset<Row> frame =
        SparkTestSupport.frame(
            spark,
            rows,
            new StructType()
                .add("v", DataTypes.createArrayType(DataTypes.DoubleType, false), false),
            3);
    String add = "fn [f64] ([f64] a, [f64] b) => map(op +, zip(a, b))";

    List<Row> total =
        frame
            .transform(
                L0.pipeline("fun [f64] main([[f64]] v) = reduce(" + add + ", replicate(2, 0.0), v)")
                    .on("v"))
            .collectAsList();
    List<Row> running =
        frame
            .transform(
                L0.pipeline("fun [[f64]] main([[f64]] v) = scan(" + add + ", replicate(2, 0.0), v)")
                    .on("v"))
            .collectAsList();

    double first = 0;
    double second = 0;
    for (int i = 0; i < rows.size(); i++) {
      first += i % 7;
      second += -(i % 5);
      assertEquals(List.of(first, second), running.get(i).getList(0), "row " + i);
    }
    assertEquals(List.of(first, second), total.get(0).getList(0));
  }

  @Test
  void adjacentPipelinesFuseIntoOneNodeWithOneKernel() {
    Dataset<Row> frame =
        SparkTestSupport.frame(spark, positions(5_000, new Random(13)), POSITIONS, 3);
    Dataset<Row> total =
        frame
            .transform(L0.pipeline(VALUES).on("quantity", "price").as("value"))
            .transform(L0.pipeline(LONG_VALUES_TOTAL).on("value").as("total"));
    Dataset<Row> direct =
        frame.transform(
            L0.pipeline(SparkTestSupport.resource("/programs/portfolio.l0"))
                .on("quantity", "price")
                .as("total"));

    List<L0PipelineExec> nodes = SparkTestSupport.pipelineExecs(total);
    assertEquals(1, nodes.size(), () -> "plan: " + nodes);
    assertEquals(1, nodes.get(0).spec().kernelCount());
    double expected = direct.collectAsList().get(0).getDouble(0);
    assertEquals(expected, total.collectAsList().get(0).getDouble(0), Math.abs(expected) * 1e-12);
  }

  @Test
  void pipelinesFuseThroughASelectionBetweenThem() {
    Dataset<Row> frame =
        SparkTestSupport.frame(spark, positions(1_000, new Random(17)), POSITIONS, 2);
    Dataset<Row> total =
        frame
            .transform(
                L0.pipeline(
                        "fun [{f64, f64}] main([f64] q, [f64] p) = map(fn {f64, f64} (f64 a, f64 b) => {a * b, a}, zip(q, p))")
                    .on("quantity", "price")
                    .as("value", "quantity"))
            .select("value")
            .transform(L0.pipeline(LONG_VALUES_TOTAL).on("value").as("total"));

    assertEquals(1, SparkTestSupport.pipelineExecs(total).size());
    double expected =
        frame.collectAsList().stream()
            .mapToDouble(row -> row.getDouble(0) * row.getDouble(1))
            .filter(v -> 0.0 < v)
            .sum();
    assertEquals(expected, total.collectAsList().get(0).getDouble(0), Math.abs(expected) * 1e-12);
  }

  @Test
  void pipelinesComposeAsScalaFunctions() {
    Dataset<Row> frame =
        SparkTestSupport.frame(spark, positions(100, new Random(19)), POSITIONS, 2);
    L0Pipeline values = L0.pipeline(VALUES).on("quantity", "price").as("value");
    L0Pipeline total = L0.pipeline(LONG_VALUES_TOTAL).on("value").as("total");

    List<Row> chained = frame.transform(values).transform(total).collectAsList();
    assertEquals(chained, frame.transform(values.andThen(total)).collectAsList());
    assertEquals(chained, frame.transform(total.compose(values)).collectAsList());
  }

  static List<Row> longs(int count, Random random) {
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(RowFactory.create((long) random.nextInt(2_000_001) - 1_000_000));
    }
    return rows;
  }

  static List<Row> positions(int count, Random random) {
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(RowFactory.create(random.nextGaussian() * 100, 1 + 99 * random.nextDouble()));
    }
    return rows;
  }
}
