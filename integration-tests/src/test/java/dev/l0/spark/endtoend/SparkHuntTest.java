package dev.l0.spark.endtoend;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
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
    System.out.println("PLANNING: " + message);
    return message;
  }

  private static String runError(Dataset<Row> input, L0Pipeline pipeline) {
    Throwable failure =
        assertThrows(Throwable.class, () -> input.transform(pipeline).collectAsList());
    System.out.println("RUN: " + failure);
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
  @Test
  void moreHunt() throws Exception {
    String looped =
        """
        fun [f64] main([f64] grid, i32 n, [i32] cells) =
          loop (g = grid) = for i < n do map(fn f64 (f64 v) => v * 2.0, g) in
          map(fn f64 (i32 c) => g[c], cells)
        """;
    assertEquals(
        "[[8.0], [16.0], [24.0], [32.0]]",
        cells(2).limit(4).transform(L0.pipeline(looped).with("grid", new double[] {1, 2, 3, 4}).with("n", 3).on("cell")).collectAsList().toString());
    for (int partitions : new int[] {1, 2, 7}) {
      Dataset<Row> zeros = spark.range(0, 10, 1, partitions).selectExpr("-0.0D AS z", "id");
      String sum = "fun f64 main([f64] xs) = reduce(op +, 0.0, xs)";
      assertEquals(
          Double.doubleToRawLongBits(0.0),
          Double.doubleToRawLongBits(zeros.transform(L0.pipeline(sum).on("z")).collectAsList().get(0).getDouble(0)),
          "plain " + partitions);
      assertEquals(
          Double.doubleToRawLongBits(0.0),
          Double.doubleToRawLongBits(zeros.transform(L0.pipeline(sum).on("z").exactFloatSums()).collectAsList().get(0).getDouble(0)),
          "exact " + partitions);
      String negSum = "fun f64 main([f64] xs) = reduce(op +, -0.0, xs)";
      assertEquals(
          Double.doubleToRawLongBits(-0.0),
          Double.doubleToRawLongBits(zeros.transform(L0.pipeline(negSum).on("z")).collectAsList().get(0).getDouble(0)),
          "neg " + partitions);
      Dataset<Row> longs = spark.range(0, 30, 1, partitions).selectExpr("id", "id * 1000000007L * (id % 3 - 1) AS l");
      List<Row> window =
          longs.selectExpr("sum(l) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s").collectAsList();
      List<Row> scanned = longs.transform(L0.pipeline("fun [i64] main([i64] ls) = scan(op +, 0i64, ls)").on("l").as("s")).collectAsList();
      assertEquals(window, scanned, "scan vs window " + partitions);
      String tupleScan =
          "fun [{i64, f64}] main([i64] ls) = scan(fn {i64, f64} (i64 a, f64 b, i64 c, f64 d) => {a + c, b + d}, {0i64, 0.0}, map(fn {i64, f64} (i64 l) => {l, f64(l) * 0.5}, ls))";
      List<Row> tuples = longs.transform(L0.pipeline(tupleScan).on("id")).collectAsList();
      assertEquals(435L, tuples.get(29).getLong(0), "tuple scan " + partitions);
      assertEquals(217.5, tuples.get(29).getDouble(1), "tuple scan " + partitions);
    }
    Dataset<Row> odd = spark.range(0, 3).selectExpr("CAST(id AS BYTE) AS b", "CAST(id AS SHORT) AS s", "CAST(id AS TIMESTAMP) AS t", "map(id, id) AS m");
    for (String column : List.of("b", "s", "t", "m")) {
      String message = planningError(odd, L0.pipeline("fun [i32] main([i32] xs) = map(fn i32 (i32 x) => x + 1, xs)").on(column));
      assertTrue(message.contains("'" + column + "'"), message);
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Row>>> futures = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        long offset = t;
        futures.add(
            pool.submit(
                () -> {
                  List<Row> all = new ArrayList<>();
                  for (int i = 0; i < 4; i++) {
                    all.addAll(
                        spark.range(0, 40, 1, 3).selectExpr("id + " + offset + " AS l")
                            .transform(L0.pipeline("fun [i64] main([i64] ls) = scan(op +, 0i64, ls)").on("l"))
                            .collectAsList());
                  }
                  return all;
                }));
      }
      for (int t = 0; t < 2; t++) {
        List<Row> got = futures.get(t).get();
        for (int i = 0; i < 4; i++) {
          assertEquals(40 * 39 / 2 + 40L * t, got.get(i * 40 + 39).getLong(0), "thread " + t);
        }
      }
    } finally {
      pool.shutdown();
    }
  }
  @Test
  void boundValuesChangedAfterPlanningDoNotReachTheJob() {
    String lookup = "fun [f64] main([f64] grid, [i32] cells) = map(fn f64 (i32 c) => grid[c], cells)";
    double[] data = {1, 2, 3, 4};
    FlatArray flat = new FlatArray(ScalarType.F64, data, new int[] {4});
    double[] plain = {1, 2, 3, 4};
    Dataset<Row> fromFlat = cells(2).limit(4).transform(L0.pipeline(lookup).with("grid", flat).on("cell"));
    Dataset<Row> fromArray = cells(2).limit(4).transform(L0.pipeline(lookup).with("grid", plain).on("cell"));
    data[0] = 100;
    plain[0] = 100;
    assertEquals("[[1.0], [2.0], [3.0], [4.0]]", fromArray.collectAsList().toString());
    assertEquals("[[1.0], [2.0], [3.0], [4.0]]", fromFlat.collectAsList().toString());
    String sizes = "fun [i32] main([[[f64]]] grid, [i32] cells) = map(fn i32 (i32 c) => size(1, grid) + size(2, grid) + c, cells)";
    assertEquals(
        "[[4], [5], [6], [7]]",
        cells(2).limit(4).transform(L0.pipeline(sizes).with("grid", new double[3][4][0]).on("cell")).collectAsList().toString());
  }
}
