package dev.l0.spark.endtoend;

import static dev.l0.spark.endtoend.PipelineErrors.planningError;
import static dev.l0.spark.endtoend.PipelineErrors.runError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile {@code with(...)} values, columns and partitionings on {@code local[2]} under Kryo with
 * {@code spark.kryo.registrationRequired=true} and batches of 3 rows (so every partition has
 * several batches): bound values updated in place or changed after planning, values that do not
 * fit, null and mistyped columns, integer sums that wrap, signed zeros, scans against Spark SQL's
 * window sum, skewed and empty partitions, and queries from two threads at once. Results are
 * compared with what the L0 interpreter's semantics give (computed here in Java), errors with what
 * README says they name.
 */
class HostilePipelinesKryoTest {
  private static final String CALL_SITE = HostilePipelinesKryoTest.class.getSimpleName() + ".java:";
  private static final String LOOKUP =
      "fun [f64] main([f64] grid, [i32] cells) = map(fn f64 (i32 c) => grid[c], cells)";
  private static final String SUM = "fun f64 main([f64] xs) = reduce(op +, 0.0, xs)";
  private static final String RUNNING_I64 = "fun [i64] main([i64] ls) = scan(op +, 0i64, ls)";

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.builder(HostilePipelinesKryoTest.class, 2)
            .config("spark.kryo.registrationRequired", "true")
            .config("spark.l0.batchRows", "3")
            .config("spark.l0.jvm.batchRows", "3")
            .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /** 20 rows, cell = row % 4, in {@code partitions} partitions. */
  private static Dataset<Row> cells(int partitions) {
    return spark.range(0, 20, 1, partitions).selectExpr("CAST(id % 4 AS INT) AS cell");
  }

  private static List<String> collected(Dataset<Row> input, L0Pipeline pipeline) {
    return input.transform(pipeline).collectAsList().stream().map(Row::toString).toList();
  }

  private static long bits(Dataset<Row> input, L0Pipeline pipeline) {
    return Double.doubleToRawLongBits(
        input.transform(pipeline).collectAsList().get(0).getDouble(0));
  }

  @Test
  void boundValuesMayBeUpdatedInPlaceAndLoopedOverAtTheTopLevel() {
    // Each batch updates its own copy: every batch sees grid[0] + 1.0 = 1.0.
    String bumped =
        """
        fun [f64] main(*[f64] grid, [i32] cells) =
          let g = grid with [0] <- grid[0] + 1.0 in
          map(fn f64 (i32 c) => g[0] + g[c], cells)
        """;
    double[] grid = {0.0, 10.0, 20.0, 30.0};
    List<String> expected = new ArrayList<>();
    for (int row = 0; row < 20; row++) {
      int c = row % 4;
      expected.add("[" + (1.0 + (c == 0 ? 1.0 : grid[c])) + "]");
    }
    assertEquals(expected, collected(cells(2), L0.pipeline(bumped).with("grid", grid).on("cell")));
    assertEquals(0.0, grid[0], "the caller's array is not updated");

    String doubledThreeTimes =
        """
        fun [f64] main([f64] grid, i32 n, [i32] cells) =
          loop (g = grid) = for i < n do map(fn f64 (f64 v) => v * 2.0, g) in
          map(fn f64 (i32 c) => g[c], cells)
        """;
    assertEquals(
        List.of("[8.0]", "[16.0]", "[24.0]", "[32.0]"),
        collected(
            cells(2).limit(4),
            L0.pipeline(doubledThreeTimes)
                .with("grid", new double[] {1, 2, 3, 4})
                .with("n", 3)
                .on("cell")));

    // An in-place update of a column is still a planning error, naming the column.
    String updatesColumn =
        "fun [i32] main(*[i32] cells) = let c = cells with [0] <- 1 in map(fn i32 (i32 x) => x, c)";
    String message = planningError(CALL_SITE, cells(2), L0.pipeline(updatesColumn).on("cell"));
    assertTrue(
        message.contains(
            "an in-place update (let-with) at <inline L0 program>:1:32 works on whole columns"
                + " ('cells')"),
        message);
  }

  @Test
  void boundValuesChangedAfterPlanningDoNotReachTheJob() {
    double[] data = {1, 2, 3, 4};
    double[] plain = {1, 2, 3, 4};
    FlatArray flat = new FlatArray(ScalarType.F64, data, new int[] {4});
    Dataset<Row> fromFlat =
        cells(2).limit(4).transform(L0.pipeline(LOOKUP).with("grid", flat).on("cell"));
    Dataset<Row> fromArray =
        cells(2).limit(4).transform(L0.pipeline(LOOKUP).with("grid", plain).on("cell"));
    data[0] = 100;
    plain[0] = 100;
    List<String> original = List.of("[1.0]", "[2.0]", "[3.0]", "[4.0]");
    assertEquals(original, fromArray.collectAsList().stream().map(Row::toString).toList());
    assertEquals(original, fromFlat.collectAsList().stream().map(Row::toString).toList());

    String sizes =
        "fun [i32] main([[[f64]]] grid, [i32] cells) ="
            + " map(fn i32 (i32 c) => size(1, grid) + size(2, grid) + c, cells)";
    assertEquals(
        List.of("[4]", "[5]", "[6]", "[7]"),
        collected(
            cells(2).limit(4), L0.pipeline(sizes).with("grid", new double[3][4][0]).on("cell")));
  }

  @Test
  void boundValuesThatDoNotFitNameTheParameter() {
    // 2^32 elements in 512 KiB: every row is the same array.
    double[][] huge = new double[1 << 16][];
    Arrays.fill(huge, new double[1 << 16]);
    String table =
        "fun [f64] main([[f64]] grid, [i32] cells) = map(fn f64 (i32 c) => grid[c, c], cells)";
    assertTrue(
        planningError(CALL_SITE, cells(2), L0.pipeline(table).with("grid", huge).on("cell"))
            .endsWith(
                "with(\"grid\", ...): the value has shape [65536, 65536], more than 2147483639"
                    + " elements, the most one Java array holds"));
    assertTrue(
        planningError(CALL_SITE, cells(2), L0.pipeline(table).with("grid", null).on("cell"))
            .contains("with(\"grid\", ...): the parameter has L0 type [[f64]]"));
    String scaled = "fun [f64] main(f64 k, [i32] cells) = map(fn f64 (i32 c) => k * f64(c), cells)";
    assertTrue(
        planningError(CALL_SITE, cells(2), L0.pipeline(scaled).with("k", null).on("cell"))
            .endsWith(
                "with(\"k\", ...): the parameter has L0 type f64, which takes a java.lang.Double,"
                    + " but the value is null"));
    String pairs =
        "fun [f64] main([{f64, f64}] ps, [i32] cells) ="
            + " map(fn f64 (i32 c) => let {a, b} = ps[c] in a + b, cells)";
    assertTrue(
        planningError(
                CALL_SITE, cells(2), L0.pipeline(pairs).with("ps", new double[] {1}).on("cell"))
            .endsWith(
                "with(\"ps\", ...): the parameter has L0 type [{f64, f64}]; with(...) binds only"
                    + " scalars and arrays of scalars"));
    assertTrue(
        planningError(CALL_SITE, cells(2), L0.pipeline(table).on("cell"))
            .endsWith(
                "takes 2 input(s), one per leaf of its parameters (grid: [[f64]]; cells: [i32]);"
                    + " with the columns fed to the parameters' leaves in order, 'cells' is not"
                    + " fully fed: name more columns in on(...), or bind a parameter to a"
                    + " driver-side value with with(\"name\", value)"));
  }

  @Test
  void nullsAndColumnsOfOtherTypesNameTheColumn() {
    Dataset<Row> withNull = spark.range(0, 6, 1, 2).selectExpr("IF(id = 4, NULL, id * 1.0D) AS x");
    String scan = "fun [f64] main([f64] xs) = scan(op +, 0.0, xs)";
    for (String program : List.of(SUM, scan)) {
      assertTrue(
          runError(CALL_SITE, withNull, L0.pipeline(program).on("x"))
              .contains("column 'x' has a null in partition 1, row 1"));
    }
    assertEquals(
        List.of("[0.0]", "[1.0]", "[3.0]", "[6.0]", "[-4.0]", "[1.0]"),
        collected(withNull, L0.pipeline(scan).on("x").nullAs("x", -10)));

    String rowSums =
        "fun [f64] main([[f64]] vs) = map(fn f64 ([f64] v) => reduce(op +, 0.0, v), vs)";
    Dataset<Row> nullElement =
        spark.range(0, 4, 1, 2).selectExpr("array(IF(id = 3, NULL, id * 1.0D), 1.0D) AS v");
    assertTrue(
        runError(CALL_SITE, nullElement, L0.pipeline(rowSums).on("v"))
            .contains("column 'v' has a null at element [0] in partition 1, row 1"));
    Dataset<Row> nullArray =
        spark.range(0, 4, 1, 2).selectExpr("IF(id = 2, NULL, array(id * 1.0D, 1.0D)) AS v");
    assertTrue(
        runError(CALL_SITE, nullArray, L0.pipeline(rowSums).on("v"))
            .contains("column 'v' has a null array in partition 1, row 0"));
    Dataset<Row> empties =
        spark.range(0, 4, 1, 2).selectExpr("CAST(array() AS array<double>) AS v");
    assertEquals(
        List.of("[0.0]", "[0.0]", "[0.0]", "[0.0]"),
        collected(empties, L0.pipeline(rowSums).on("v")));

    Dataset<Row> odd =
        spark
            .range(0, 3)
            .selectExpr(
                "array(CAST(id AS INT)) AS ai",
                "CAST(id AS BYTE) AS b",
                "CAST(id AS SHORT) AS s",
                "CAST(id AS TIMESTAMP) AS t",
                "map(id, id) AS m");
    assertTrue(
        planningError(CALL_SITE, odd, L0.pipeline(rowSums).on("ai"))
            .contains("column 'ai' has Spark type array<int>, but parameter 'vs'"));
    String increment = "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => x + 1, xs)";
    for (String column : List.of("b", "s", "t", "m")) {
      assertTrue(
          planningError(CALL_SITE, odd, L0.pipeline(increment).on(column))
              .contains("column '" + column + "' has Spark type "));
    }
  }

  @Test
  void integerSumsAndScansWrapAlikeOnOneTwoAndSevenPartitions() {
    int expectedInt = 0;
    long expectedLong = 0;
    long[] running = new long[50];
    for (int id = 0; id < 50; id++) {
      expectedInt += Integer.MAX_VALUE - id;
      expectedLong += id % 3 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE - id;
      running[id] = expectedLong;
    }
    String sums =
        "fun {i32, i64} main([i32] is, [i64] ls) = {reduce(op +, 0, is), reduce(op +, 0i64, ls)}";
    for (int partitions : new int[] {1, 2, 7}) {
      Dataset<Row> frame =
          spark
              .range(0, 50, 1, partitions)
              .selectExpr(
                  "CAST(2147483647 - id AS INT) AS i",
                  "IF(id % 3 = 0, -9223372036854775807L - 1L, 9223372036854775807L - id) AS l");
      Row row = frame.transform(L0.pipeline(sums).on("i", "l")).collectAsList().get(0);
      assertEquals(expectedInt, row.getInt(0), partitions + " partitions");
      assertEquals(expectedLong, row.getLong(1), partitions + " partitions");
      long[] scanned =
          frame.transform(L0.pipeline(RUNNING_I64).on("l")).collectAsList().stream()
              .mapToLong(r -> r.getLong(0))
              .toArray();
      assertEquals(Arrays.toString(running), Arrays.toString(scanned), partitions + " partitions");
    }
  }

  @Test
  void signedZerosAndScansMatchTheInterpreterAndSparkSql() {
    String fromNegativeZero = "fun f64 main([f64] xs) = reduce(op +, -0.0, xs)";
    String tupleScan =
        "fun [{i64, f64}] main([i64] ls) ="
            + " scan(fn {i64, f64} (i64 a, f64 b, i64 c, f64 d) => {a + c, b + d}, {0i64, 0.0},"
            + " map(fn {i64, f64} (i64 l) => {l, f64(l) * 0.5}, ls))";
    for (int partitions : new int[] {1, 2, 7}) {
      String where = partitions + " partitions";
      Dataset<Row> zeros = spark.range(0, 10, 1, partitions).selectExpr("-0.0D AS z");
      // 0.0 + -0.0 is 0.0; -0.0 + -0.0 is -0.0 (IEEE 754, as the interpreter adds).
      assertEquals(Double.doubleToRawLongBits(0.0), bits(zeros, L0.pipeline(SUM).on("z")), where);
      assertEquals(
          Double.doubleToRawLongBits(0.0),
          bits(zeros, L0.pipeline(SUM).on("z").exactFloatSums()),
          where);
      assertEquals(
          Double.doubleToRawLongBits(-0.0),
          bits(zeros, L0.pipeline(fromNegativeZero).on("z")),
          where);

      Dataset<Row> longs =
          spark
              .range(0, 30, 1, partitions)
              .selectExpr("id", "id * 1000000007L * (id % 3 - 1) AS l");
      List<Row> window =
          longs
              .selectExpr(
                  "sum(l) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s")
              .collectAsList();
      assertEquals(
          window, longs.transform(L0.pipeline(RUNNING_I64).on("l")).collectAsList(), where);
      Row last = longs.transform(L0.pipeline(tupleScan).on("id")).collectAsList().get(29);
      assertEquals("[435,217.5]", last.toString(), where);
    }
  }

  @Test
  void skewedAndEmptyPartitionsGiveTheOnePartitionResults() {
    // Rows 0..2 and 31..39: five range partitions of which some are empty.
    Dataset<Row> one = spark.range(0, 40, 1, 1).selectExpr("id", "id * 0.5D AS x", "id = 13 AS b");
    Dataset<Row> kept = one.where("id < 3 OR id > 30");
    Dataset<Row> skewed =
        spark
            .range(0, 40, 1, 7)
            .selectExpr("id", "id * 0.5D AS x", "id = 13 AS b")
            .repartitionByRange(5, org.apache.spark.sql.functions.col("id"))
            .where("id < 3 OR id > 30")
            .sortWithinPartitions("id");
    String scan = "fun [f64] main([f64] xs) = scan(op +, 0.0, xs)";
    String arrayScan =
        "fun [[f64]] main([f64] xs) ="
            + " scan(fn [f64] ([f64] p, [f64] q) => map(op +, zip(p, q)), replicate(2, 0.0),"
            + " map(fn [f64] (f64 x) => [x, 1.0], xs))";
    for (String program : List.of(scan, arrayScan)) {
      assertEquals(
          collected(kept.coalesce(1), L0.pipeline(program).on("x")),
          collected(skewed, L0.pipeline(program).on("x")));
    }
    String results =
        "fun {bool, f32, f64} main([bool] bs, [f64] xs) ="
            + " {reduce(fn bool (bool p, bool q) => p || q, false, bs),"
            + " reduce(op +, 0.0f32, map(fn f32 (f64 x) => f32(x), xs)),"
            + " reduce(op +, -0.0, map(fn f64 (f64 x) => -0.0 * x, xs))}";
    L0Pipeline all = L0.pipeline(results).on("b", "x");
    assertEquals(List.of("[true,390.0,-0.0]"), collected(one, all));
    assertEquals(List.of("[true,390.0,-0.0]"), collected(one.repartition(7), all));
    assertEquals(List.of("[false,0.0,-0.0]"), collected(one.where("x < 0"), all));
  }

  @Test
  void twoThreadsRunPipelinesOnOneSessionAtOnce() throws Exception {
    String scaled =
        "fun f64 main(f64 k, [f64] grid, [i64] xs) ="
            + " reduce(op +, 0.0, map(fn f64 (i64 x) => k * grid[i32(x % 4i64)], xs))";
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<String>>> futures = new ArrayList<>();
      for (int thread = 0; thread < 2; thread++) {
        long offset = thread;
        double k = thread + 1;
        Callable<List<String>> queries =
            () -> {
              List<String> got = new ArrayList<>();
              for (int i = 0; i < 4; i++) {
                Dataset<Row> xs = spark.range(0, 40, 1, 3).selectExpr("id + " + offset + " AS x");
                got.addAll(
                    collected(
                        xs,
                        L0.pipeline(scaled)
                            .with("k", k)
                            .with("grid", new double[] {1, 2, 3, i})
                            .on("x")));
                List<Row> scanned = xs.transform(L0.pipeline(RUNNING_I64).on("x")).collectAsList();
                got.add(scanned.get(39).toString());
              }
              return got;
            };
        futures.add(pool.submit(queries));
      }
      for (int thread = 0; thread < 2; thread++) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          // 40 rows of x = id + thread: ten of each grid cell.
          expected.add("[" + (thread + 1) * 10.0 * (1 + 2 + 3 + i) + "]");
          expected.add("[" + (40 * 39 / 2 + 40 * thread) + "]");
        }
        assertEquals(expected, futures.get(thread).get(), "thread " + thread);
      }
    } finally {
      pool.shutdown();
    }
  }
}
