package dev.l0.spark.endtoend;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import dev.l0.spark.pipeline.PipelinePlanningException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hunt. */
class SparkHuntTest {
  private static final String CALL_SITE = SparkHuntTest.class.getSimpleName() + ".java:";
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.builder(SparkHuntTest.class, 2)
            .config("spark.kryo.registrationRequired", "true")
            .config("spark.l0.batchRows", "3")
            .config("spark.l0.jvm.batchRows", "3")
            .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static String planningError(Dataset<Row> input, L0Pipeline pipeline) {
    String message =
        assertThrows(PipelinePlanningException.class, () -> input.transform(pipeline)).getMessage();
    assertTrue(message.startsWith("L0 pipeline at " + CALL_SITE), message);
    return message;
  }

  private static String runError(Dataset<Row> input, L0Pipeline pipeline) {
    Throwable failure =
        assertThrows(Throwable.class, () -> input.transform(pipeline).collectAsList());
    return failure.toString() + " / " + failure.getMessage();
  }

  private static Dataset<Row> cells(int partitions) {
    return spark.range(0, 20, 1, partitions).selectExpr("CAST(id % 4 AS INT) AS cell");
  }

  @Test
  void aUniqueBoundArrayUpdatedInPlaceIsTheSameInEveryBatch() {
    String bump =
        """
        fun [f64] main(*[f64] grid, [i32] cells) =
          let g = grid with [0] <- grid[0] + 1.0 in
          map(fn f64 (i32 c) => g[0] + g[c], cells)
        """;
    double[] grid = {0.0, 10.0, 20.0, 30.0};
    List<Row> rows =
        cells(2).transform(L0.pipeline(bump).with("grid", grid).on("cell")).collectAsList();
    double[] got = rows.stream().mapToDouble(r -> r.getDouble(0)).toArray();
    double[] expected = new double[20];
    for (int i = 0; i < 20; i++) {
      int c = i % 4;
      expected[i] = 1.0 + (c == 0 ? 1.0 : grid[c]);
    }
    assertArrayEquals(expected, got, Arrays.toString(got));
    assertEquals(0.0, grid[0]);
  }

  @Test
  void hugeAndNullBoundValuesNameTheParameter() {
    double[] row = new double[1 << 16];
    double[][] huge = new double[1 << 16][];
    Arrays.fill(huge, row);
    String lookup = "fun [f64] main([[f64]] grid, [i32] cells) = map(fn f64 (i32 c) => grid[c, c], cells)";
    String message = planningError(cells(2), L0.pipeline(lookup).with("grid", huge).on("cell"));
    assertTrue(message.contains("\"grid\""), message);
    message = planningError(cells(2), L0.pipeline(lookup).with("grid", null).on("cell"));
    assertTrue(message.contains("\"grid\""), message);
    String scaled = "fun [f64] main(f64 k, [i32] cells) = map(fn f64 (i32 c) => k * f64(c), cells)";
    message = planningError(cells(2), L0.pipeline(scaled).with("k", null).on("cell"));
    assertTrue(message.contains("\"k\""), message);
    message = planningError(cells(2), L0.pipeline(scaled).with("k", 1.0).with("cells", new int[] {1}).on());
    assertTrue(message.contains("every parameter"), message);
    String tuple =
        "fun [f64] main([{f64, f64}] ps, [i32] cells) = map(fn f64 (i32 c) => let {a, b} = ps[c] in a + b, cells)";
    message = planningError(cells(2), L0.pipeline(tuple).with("ps", new double[] {1}).on("cell"));
    assertTrue(message.contains("\"ps\""), message);
    message = planningError(cells(2), L0.pipeline(lookup).on("cell"));
    assertTrue(message.contains("grid"), message);
  }

  @Test
  void wrongArrayColumnsAndNullElementsNameTheColumn() {
    Dataset<Row> ints = spark.range(0, 4, 1, 2).selectExpr("array(CAST(id AS INT), 1) AS v");
    String rowSums =
        "fun [f64] main([[f64]] vs) = map(fn f64 ([f64] v) => reduce(op +, 0.0, v), vs)";
    String message = planningError(ints, L0.pipeline(rowSums).on("v"));
    assertTrue(message.contains("'v'"), message);
    Dataset<Row> nullElement =
        spark.range(0, 4, 1, 2).selectExpr("array(IF(id = 3, NULL, id * 1.0D), 1.0D) AS v");
    message = runError(nullElement, L0.pipeline(rowSums).on("v"));
    assertTrue(message.contains("'v'") || message.contains("column v"), message);
    assertTrue(message.contains("L0 pipeline at " + CALL_SITE), message);
    Dataset<Row> nullArray =
        spark.range(0, 4, 1, 2).selectExpr("IF(id = 2, NULL, array(id * 1.0D, 1.0D)) AS v");
    message = runError(nullArray, L0.pipeline(rowSums).on("v"));
    assertTrue(message.contains("'v'") || message.contains("column v"), message);
    assertTrue(message.contains("L0 pipeline at " + CALL_SITE), message);
    Dataset<Row> empties = spark.range(0, 4, 1, 2).selectExpr("CAST(array() AS array<double>) AS v");
    assertEquals(
        "[[0.0], [0.0], [0.0], [0.0]]",
        empties.transform(L0.pipeline(rowSums).on("v")).collectAsList().toString());
  }

  @Test
  void integerSumsWrapTheSameOnEveryPartitioning() {
    List<Object> results = new ArrayList<>();
    int expectedInt = 0;
    long expectedLong = 0;
    for (long id = 0; id < 50; id++) {
      expectedInt += Integer.MAX_VALUE - (int) id;
      expectedLong += id % 3 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE - id;
    }
    for (int partitions : new int[] {1, 2, 7}) {
      Dataset<Row> frame =
          spark
              .range(0, 50, 1, partitions)
              .selectExpr(
                  "CAST(2147483647 - id AS INT) AS i",
                  "IF(id % 3 = 0, -9223372036854775807L - 1L, 9223372036854775807L - id) AS l");
      Row row =
          frame
              .transform(
                  L0.pipeline(
                          "fun {i32, i64} main([i32] is, [i64] ls) = {reduce(op +, 0, is), reduce(op +, 0i64, ls)}")
                      .on("i", "l"))
              .collectAsList()
              .get(0);
      assertEquals(expectedInt, row.getInt(0), "partitions " + partitions);
      assertEquals(expectedLong, row.getLong(1), "partitions " + partitions);
      long[] scanned =
          frame
              .transform(L0.pipeline("fun [i64] main([i64] ls) = scan(op +, 0i64, ls)").on("l"))
              .collectAsList()
              .stream()
              .mapToLong(r -> r.getLong(0))
              .toArray();
      long running = 0;
      for (int k = 0; k < 50; k++) {
        running += k % 3 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE - k;
        assertEquals(running, scanned[k], "scan row " + k + " partitions " + partitions);
      }
      results.add(row.toString());
    }
  }

  @Test
  void skewedPartitionsScanAndReduceLikeOnePartition() {
    Dataset<Row> one = spark.range(0, 40, 1, 1).selectExpr("id * 0.5D AS x", "id = 13 AS b");
    Dataset<Row> skewed =
        spark.range(0, 40, 1, 7).selectExpr("id * 0.5D AS x", "id = 13 AS b", "id").repartitionByRange(5, col("id")).where("id < 3 OR id > 30").sortWithinPartitions("id");
    String scan = "fun [f64] main([f64] xs) = scan(op +, 0.0, xs)";
    List<Row> a = one.where("x < 1.5 OR x > 15.0").transform(L0.pipeline(scan).on("x")).collectAsList();
    List<Row> b = skewed.transform(L0.pipeline(scan).on("x")).collectAsList();
    assertEquals(a, b);
    String arrays =
        "fun [[f64]] main([f64] xs) = scan(fn [f64] ([f64] p, [f64] q) => map(op +, zip(p, q)), replicate(2, 0.0), map(fn [f64] (f64 x) => [x, 1.0], xs))";
    assertEquals(
        one.where("x < 1.5 OR x > 15.0").transform(L0.pipeline(arrays).on("x")).collectAsList(),
        skewed.transform(L0.pipeline(arrays).on("x")).collectAsList());
    String all =
        "fun {bool, f32, f64} main([bool] bs, [f64] xs) = {reduce(fn bool (bool p, bool q) => p || q, false, bs), reduce(op +, 0.0f32, map(fn f32 (f64 x) => f32(x), xs)), reduce(op +, -0.0, map(fn f64 (f64 x) => -0.0 * x, xs))}";
    Row r1 = one.transform(L0.pipeline(all).on("b", "x")).collectAsList().get(0);
    Row r7 = spark.range(0, 40, 1, 7).selectExpr("id * 0.5D AS x", "id = 13 AS b").transform(L0.pipeline(all).on("b", "x")).collectAsList().get(0);
    assertEquals(r1.toString(), r7.toString());
    assertEquals("[true,390.0,-0.0]", r1.toString());
    Row empty = one.where("x < 0").transform(L0.pipeline(all).on("b", "x")).collectAsList().get(0);
    assertEquals("[false,0.0,-0.0]", empty.toString());
  }

  @Test
  void twoThreadsRunPipelinesConcurrently() throws Exception {
    String scaled =
        "fun f64 main(f64 k, [f64] grid, [i64] xs) = reduce(op +, 0.0, map(fn f64 (i64 x) => k * grid[i32(x % 4i64)], xs))";
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Double>>> futures = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        double k = t + 1;
        futures.add(
            pool.submit(
                () -> {
                  List<Double> got = new ArrayList<>();
                  for (int i = 0; i < 6; i++) {
                    got.add(
                        spark
                            .range(0, 100, 1, 3)
                            .selectExpr("id AS x")
                            .transform(
                                L0.pipeline(scaled)
                                    .with("k", k)
                                    .with("grid", new double[] {1, 2, 3, i})
                                    .on("x"))
                            .collectAsList()
                            .get(0)
                            .getDouble(0));
                  }
                  return got;
                }));
      }
      for (int t = 0; t < 2; t++) {
        List<Double> expected = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          expected.add((t + 1) * (25.0 * (1 + 2 + 3 + i)));
        }
        assertEquals(expected, futures.get(t).get());
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void nullsAndWrongColumnsNameTheColumn() {
    Dataset<Row> withNull = spark.range(0, 6, 1, 2).selectExpr("IF(id = 4, NULL, id * 1.0D) AS x");
    String message = runError(withNull, L0.pipeline("fun f64 main([f64] xs) = reduce(op +, 0.0, xs)").on("x"));
    assertTrue(message.contains("'x'"), message);
    assertTrue(message.contains("partition 1, row 1"), message);
    message = runError(withNull, L0.pipeline("fun [f64] main([f64] xs) = scan(op +, 0.0, xs)").on("x"));
    assertTrue(message.contains("'x'"), message);
    assertTrue(message.contains("partition 1, row 1"), message);
    assertEquals(
        "[[0.0], [1.0], [3.0], [6.0], [-4.0], [1.0]]",
        withNull
            .transform(L0.pipeline("fun [f64] main([f64] xs) = scan(op +, 0.0, xs)").on("x").nullAs("x", -10))
            .collectAsList()
            .toString());
  }
}
