package dev.l0.newuser;

import static dev.l0.newuser.NewUserSpark.assertRan;
import static dev.l0.newuser.NewUserSpark.assertSameBits;
import static dev.l0.newuser.NewUserSpark.sorted;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.ExactSums;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More Spark jobs a quant writes from README.md alone: nulls of every column type, special floats,
 * many and empty partitions, windows and views, odd names, beans, Parquet round trips, bound values
 * of every type, and a failing row under a write. Each result is computed again without L0 (Spark
 * SQL, or plain Java with {@code StrictMath} where the README promises its bits) and compared
 * exactly; each job also checks where its tasks ran ({@code L0.explain}'s {@code ran:} line).
 */
class NewUserSparkJobsTest {
  private static final String THIS_FILE = "NewUserSparkJobsTest.java:";
  private static SparkSession spark;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    spark = NewUserSpark.start(NewUserSparkJobsTest.class);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static String planningError(Dataset<Row> df, L0Pipeline pipeline) {
    String message = NewUserSpark.failure(() -> df.transform(pipeline));
    assertTrue(message.contains("L0 pipeline at " + THIS_FILE), message);
    return message;
  }

  // ---------------------------------------------------------------------------------------------
  // 1. Nulls in a column of every type the README maps, named or replaced.

  private static final String EVERY_TYPE =
      """
      fun [f64] main([bool] b, [i32] i, [i64] l, [f32] f, [f64] d) =
        map(fn f64 (bool bb, i32 ii, i64 ll, f32 ff, f64 dd) =>
              (if bb then 1.0 else 0.0) + f64(ii) + f64(ll) * 2.0 + f64(ff) * 3.0 + dd * 4.0,
            zip(b, i, l, f, d))
      """;

  private static Dataset<Row> everyTypeWithANullIn(String nullColumn) {
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("b", DataTypes.BooleanType, true)
            .add("i", DataTypes.IntegerType, true)
            .add("l", DataTypes.LongType, true)
            .add("f", DataTypes.FloatType, true)
            .add("d", DataTypes.DoubleType, true);
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < 6; id++) {
      Object[] values = {
        id, id % 2 == 0, (int) id * 3, id * 1000L, id * 0.25f, id / 3.0,
      };
      if (id == 4) {
        values[schema.fieldIndex(nullColumn)] = null;
      }
      rows.add(RowFactory.create(values));
    }
    return spark.createDataFrame(rows, schema).coalesce(1);
  }

  @Test
  void aNullInAColumnOfEachTypeIsNamedAtItsRowAndItsReplacementIsUsed() {
    L0Pipeline pipeline = L0.pipeline(EVERY_TYPE).on("b", "i", "l", "f", "d").as("y").carry("id");
    for (String column : List.of("b", "i", "l", "f", "d")) {
      Dataset<Row> df = everyTypeWithANullIn(column);
      String message = NewUserSpark.failure(() -> df.transform(pipeline).collectAsList());
      assertTrue(message.contains("L0 pipeline at " + THIS_FILE), message);
      assertTrue(
          message.contains(
              "column '"
                  + column
                  + "' has a null in partition 0, row 4; declare a replacement with nullAs(\""
                  + column
                  + "\", value)"),
          message);

      Dataset<Row> replaced =
          df.transform(
              pipeline
                  .nullAs("b", true)
                  .nullAs("i", -7)
                  .nullAs("l", 5L)
                  .nullAs("f", 0.1)
                  .nullAs("d", Double.NaN));
      Dataset<Row> expected =
          df.selectExpr(
              "id",
              "if(coalesce(b, true), 1.0D, 0.0D) + CAST(coalesce(i, -7) AS DOUBLE)"
                  + " + CAST(coalesce(l, 5L) AS DOUBLE) * 2.0D"
                  + " + CAST(coalesce(f, CAST(0.1 AS FLOAT)) AS DOUBLE) * 3.0D"
                  + " + coalesce(d, CAST('NaN' AS DOUBLE)) * 4.0D AS y");
      Map<Long, Double> want = byId(expected);
      Map<Long, Double> got = byId(replaced);
      assertEquals(want.keySet(), got.keySet());
      want.forEach((id, y) -> assertSameBits(y, got.get(id), column + " null, id " + id));
      assertRan(replaced, 1);
    }
  }

  private static Map<Long, Double> byId(Dataset<Row> df) {
    Map<Long, Double> values = new HashMap<>();
    for (Row row : df.collectAsList()) {
      values.put(row.getLong(0), row.getDouble(1));
    }
    return values;
  }

  // ---------------------------------------------------------------------------------------------
  // 2. NaN, infinities, signed zeros and subnormals through the math library, in f64 and f32.

  private static final double[] SPECIAL = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0.0,
    -0.0,
    Double.MIN_VALUE,
    1e-310,
    -1.5,
    2.5,
    Double.MAX_VALUE,
    1e300,
    Math.PI
  };

  @Test
  void specialFloatsGoThroughTheMathLibraryAsStrictMathComputesThem() {
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < SPECIAL.length; k++) {
      rows.add(RowFactory.create((long) k, SPECIAL[k], (float) SPECIAL[k]));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("x", DataTypes.DoubleType, false)
            .add("g", DataTypes.FloatType, false);
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
    String program =
        """
        fun [{f64, f32}] main([f64] x, [f32] g) =
          map(fn {f64, f32} (f64 v, f32 w) =>
                {sqrt(v) + exp(v) * sin(v) - log(v) * cos(v) + (v pow 0.5) + floor(v) + (-v + 0.0),
                 exp(w) * 2.0f32 - w + sqrt(w) * log(w) + abs(w) * -1.0f32},
              zip(x, g))
        """;
    Dataset<Row> out = df.transform(L0.pipeline(program).on("x", "g").as("y", "z").carry("id"));
    List<Row> got = out.collectAsList();
    assertEquals(SPECIAL.length, got.size());
    for (Row row : got) {
      double v = SPECIAL[(int) row.getLong(0)];
      float w = (float) v;
      double y =
          StrictMath.sqrt(v)
              + StrictMath.exp(v) * StrictMath.sin(v)
              - StrictMath.log(v) * StrictMath.cos(v)
              + StrictMath.pow(v, 0.5)
              + StrictMath.floor(v)
              + (-v + 0.0);
      float z =
          (float) StrictMath.exp(w) * 2.0f
              - w
              + (float) StrictMath.sqrt(w) * (float) StrictMath.log(w)
              + Math.abs(w) * -1.0f;
      assertSameBits(y, row.getDouble(1), "f64 of " + v);
      assertSameBits(z, row.getFloat(2), "f32 of " + w);
    }
    assertRan(out, 3);

    // README: a pipeline's reduce(op +, 0.0, ...) of only -0.0s gives 0.0 (its neutral element),
    // where ExactSums of the same column gives -0.0.
    Dataset<Row> zeros = spark.range(0, 10, 1, 3).selectExpr("-0.0D AS z");
    double pipelineSum =
        zeros
            .transform(L0.pipeline("fun f64 main([f64] z) = reduce(op +, 0.0, z)").on("z"))
            .first()
            .getDouble(0);
    assertSameBits(0.0, pipelineSum, "pipeline sum of -0.0s");
    assertSameBits(
        -0.0, zeros.agg(ExactSums.exactSum(col("z"))).first().getDouble(0), "exactSum of -0.0s");
  }

  // ---------------------------------------------------------------------------------------------
  // 3. 200 partitions, most of them of one row and 50 empty; repartition and coalesce around it.

  @Test
  void twoHundredPartitionsWithEmptyOnesReduceScanAndMapAsOnePartitionDoes() {
    Dataset<Row> df =
        spark.range(0, 150, 1, 200).selectExpr("id", "id * id - 70 * id AS v", "id / 8.0D AS x");
    assertEquals(200, df.rdd().getNumPartitions());
    long[] ids = new long[150];
    long[] running = new long[150];
    long total = 0;
    double doubledTotal = 0.0; // k / 4 for every k: each sum below 2^50 is exact
    for (int k = 0; k < 150; k++) {
      total += (long) k * k - 70L * k;
      ids[k] = k;
      running[k] = total;
      doubledTotal += k / 8.0 * 2.0;
    }

    Dataset<Row> sum =
        df.transform(L0.pipeline("fun i64 main([i64] v) = reduce(op +, 0i64, v)").on("v"));
    assertEquals(total, sum.collectAsList().get(0).getLong(0));
    assertRan(sum, 200);

    Dataset<Row> scan =
        df.transform(L0.pipeline("fun [i64] main([i64] v) = scan(op +, 0i64, v)").on("v"));
    List<Row> scanned = scan.collectAsList();
    long[] got = scanned.stream().mapToLong(r -> r.getLong(0)).toArray();
    assertArrayEquals(running, got);
    assertRan(scan, 150 + 200);

    // A map, then coalesce to 7 and a reduce of its output over a repartition to 13.
    Dataset<Row> doubled =
        df.transform(
                L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 a) => a * 2.0, x)")
                    .on("x")
                    .as("y")
                    .carry("id"))
            .coalesce(7);
    assertEquals(7, doubled.rdd().getNumPartitions());
    double exact =
        doubled
            .repartition(13)
            .transform(
                L0.pipeline("fun f64 main([f64] y) = reduce(op +, 0.0, y)")
                    .on("y")
                    .exactFloatSums())
            .first()
            .getDouble(0);
    assertSameBits(doubledTotal, exact, "exact sum over 13 partitions");
    List<Row> rows = doubled.collectAsList();
    long[] keys = rows.stream().mapToLong(r -> r.getLong(0)).sorted().toArray();
    assertArrayEquals(ids, keys);
    for (Row row : rows) {
      assertSameBits(row.getLong(0) / 8.0 * 2.0, row.getDouble(1), "id " + row.getLong(0));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 4. A pipeline's output under a window and a groupBy, and a pipeline over a groupBy's output
  // (joins and unions: HostileInputsTest).

  private static Dataset<Row> trades(int rows, int partitions) {
    return spark
        .range(0, rows, 1, partitions)
        .selectExpr(
            "id",
            "concat('book-', CAST(id % 5 AS STRING)) AS book",
            "CAST(id % 17 - 8 AS INT) AS qty",
            "CAST(id AS DOUBLE) / 3.0D + 1.0D AS price");
  }

  private static final String MARKET_VALUE =
      "fun [f64] main([i32] q, [f64] p) = map(fn f64 (i32 a, f64 b) => f64(a) * b, zip(q, p))";

  @Test
  void aPipelinesOutputFeedsWindowsAndGroupBysAsSparkSqlsOwnColumnDoes() {
    Dataset<Row> df = trades(300, 4);
    Dataset<Row> l0 =
        df.transform(L0.pipeline(MARKET_VALUE).on("qty", "price").as("mv").carry("id", "book"));
    Dataset<Row> sql = df.selectExpr("id", "book", "CAST(qty AS DOUBLE) * price AS mv");

    var byBook = Window.partitionBy("book").orderBy("id");
    String[] windowed = {
      "id", "book", "mv", "sum(mv) OVER (PARTITION BY book ORDER BY id) AS running",
    };
    assertEquals(
        sorted(sql.selectExpr(windowed)),
        sorted(
            l0.withColumn("rank", org.apache.spark.sql.functions.rank().over(byBook))
                .selectExpr(windowed)));
    assertEquals(
        sorted(sql.groupBy("book").agg(expr("sum(mv)"), expr("max(mv)"), expr("count(*)"))),
        sorted(l0.groupBy("book").agg(expr("sum(mv)"), expr("max(mv)"), expr("count(*)"))));
    // A pipeline over a groupBy's output: the per-book quantity times a bound multiplier.
    Dataset<Row> perBook = df.groupBy("book").agg(expr("CAST(sum(qty) AS INT) AS q"));
    Dataset<Row> scaled =
        perBook.transform(
            L0.pipeline(
                    "fun [i64] main(i64 k, [i32] q) = map(fn i64 (i32 a) => i64(a) * k + 1i64, q)")
                .with("k", 1_000_000_007L)
                .on("q")
                .as("s")
                .carry("book"));
    assertEquals(
        sorted(perBook.selectExpr("book", "CAST(q AS BIGINT) * 1000000007L + 1L AS s")),
        sorted(scaled));
    assertRan(scaled, (int) scaled.rdd().getNumPartitions() - emptyPartitions(perBook));
  }

  private static int emptyPartitions(Dataset<Row> df) {
    return (int)
        df
            .javaRDD()
            .mapPartitions(rows -> List.of(rows.hasNext() ? 0 : 1).iterator())
            .collect()
            .stream()
            .filter(empty -> empty == 1)
            .count();
  }

  // ---------------------------------------------------------------------------------------------
  // 5. Odd names and spark.sql.caseSensitive.

  @Test
  void columnsThatDifferOnlyInCaseResolveAsSparkSqlCaseSensitiveSays() {
    Dataset<Row> df =
        spark
            .range(0, 20, 1, 2)
            .selectExpr(
                "id",
                "CAST(id AS DOUBLE) AS `Price`",
                "CAST(id AS DOUBLE) * 10.0D AS `price`",
                "CAST(id AS DOUBLE) * 100.0D AS `a.b`",
                "named_struct('b', CAST(id AS DOUBLE) * 1000.0D) AS a",
                "concat('desk ', CAST(id AS STRING)) AS `the desk`");
    String sum = "fun f64 main([f64] x) = reduce(op +, 0.0, x)";
    spark.conf().set("spark.sql.caseSensitive", "true");
    try {
      assertEquals(190.0, df.transform(L0.pipeline(sum).on("Price")).first().getDouble(0));
      assertEquals(1900.0, df.transform(L0.pipeline(sum).on("price")).first().getDouble(0));
      // Two outputs differing only in case are fine when case matters.
      Dataset<Row> both =
          df.transform(
              L0.pipeline(
                      "fun [{f64, f64}] main([f64] a, [f64] b) = map(fn {f64, f64} (f64 x, f64 y) => {x, y}, zip(a, b))")
                  .on("Price", "price")
                  .as("y", "Y"));
      assertEquals(List.of("y", "Y"), List.of(both.columns()));
      assertEquals(
          sorted(df.selectExpr("Price AS y", "price AS Y")), sorted(both.selectExpr("y", "Y")));
    } finally {
      spark.conf().unset("spark.sql.caseSensitive");
    }
    // Case-insensitive (Spark's default): either spelling matches both columns.
    String ambiguous = planningError(df, L0.pipeline(sum).on("PRICE"));
    assertTrue(ambiguous.contains("PRICE"), ambiguous);
    assertTrue(ambiguous.contains("ambiguous"), ambiguous);

    // "a.b" is the top-level column first; the struct field needs the struct's name quoted.
    assertEquals(19000.0, df.transform(L0.pipeline(sum).on("a.b")).first().getDouble(0));
    assertEquals(190000.0, df.transform(L0.pipeline(sum).on("`a`.b")).first().getDouble(0));
    assertEquals(19000.0, df.transform(L0.pipeline(sum).on("`a.b`")).first().getDouble(0));

    // A carried name with a space and an output name with a dot and a space.
    Dataset<Row> out =
        df.transform(
            L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v + 0.5, x)")
                .on("`a.b`")
                .as("pv. of `a.b`")
                .carry("the desk", "id"));
    assertEquals(List.of("the desk", "id", "pv. of `a.b`"), List.of(out.columns()));
    assertEquals(sorted(df.selectExpr("`the desk`", "id", "`a.b` + 0.5D AS x")), sorted(out));
    assertRan(out, 2);
    assertEquals(
        sorted(df.selectExpr("`the desk`", "`a.b` + 0.5D AS x").where("x > 1000")),
        sorted(
            out.select(col("the desk"), col("`pv. of ``a.b```")).where("`pv. of ``a.b``` > 1000")));
  }

  // ---------------------------------------------------------------------------------------------
  // 6. Wrong types and missing names: each error names the column (and both types).

  @Test
  void wrongTypesAndMissingNamesAreNamedWhereverTheyAreGiven() {
    Dataset<Row> df =
        spark
            .range(0, 4)
            .selectExpr(
                "CAST(id AS INT) AS i",
                "id AS l",
                "CAST(id AS FLOAT) AS f",
                "CAST(id AS DOUBLE) AS d",
                "CAST(id AS DECIMAL(12, 4)) AS dec",
                "CAST(id AS STRING) AS s",
                "CAST(id AS SHORT) AS sh",
                "named_struct('rate', CAST(id AS DOUBLE)) AS leg");
    String[][] cases = {
      {"i", "i64", "int"},
      {"l", "i32", "bigint"},
      {"d", "f32", "double"},
      {"f", "f64", "float"},
      {"dec", "f64", "decimal(12,4)"},
      {"s", "f64", "string"},
      {"sh", "i32", "smallint"},
    };
    for (String[] c : cases) {
      String program =
          "fun ["
              + c[1]
              + "] main(["
              + c[1]
              + "] xs) = map(fn "
              + c[1]
              + " ("
              + c[1]
              + " v) => v, xs)";
      String message = planningError(df, L0.pipeline(program).on(c[0]));
      assertTrue(
          message.contains(
              "column '"
                  + c[0]
                  + "' has Spark type "
                  + c[2]
                  + ", but parameter 'xs' of 'main(["
                  + c[1]
                  + "] xs)' is ["
                  + c[1]
                  + "]"),
          message);
    }
    String doubles = "fun [f64] main([f64] xs) = map(fn f64 (f64 v) => v, xs)";
    for (L0Pipeline missing :
        List.of(
            L0.pipeline(doubles).on("dd"),
            L0.pipeline(doubles).on("d").carry("dd"),
            L0.pipeline(doubles).on("leg.rte"))) {
      String message = planningError(df, missing);
      assertTrue(message.contains("'dd'") || message.contains("'leg.rte'"), message);
      assertTrue(message.contains("leg struct<rate:double>"), message);
    }
    String nullAs = planningError(df, L0.pipeline(doubles).on("d").nullAs("dd", 0.0));
    assertTrue(nullAs.contains("nullAs(...) names dd"), nullAs);
  }

  // ---------------------------------------------------------------------------------------------
  // 7. Array columns: null arrays, null elements, ragged rows, empty arrays.

  @Test
  void arrayColumnsWithNullsRaggedRowsAndEmptyArraysAreNamedOrComputedPerRow() {
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("s", DataTypes.createArrayType(DataTypes.DoubleType, true), true);
    String perRow =
        "fun [f64] main([[f64]] s) = map(fn f64 ([f64] r) => reduce(op +, 0.0, map(fn f64 (f64 v) => v * v, r)), s)";
    L0Pipeline pipeline = L0.pipeline(perRow).on("s").as("ss").carry("id");

    Dataset<Row> nullArray =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(0L, new double[] {1.0, 2.0}),
                    RowFactory.create(1L, null),
                    RowFactory.create(2L, new double[] {3.0, 4.0})),
                schema)
            .coalesce(1);
    String message = NewUserSpark.failure(() -> nullArray.transform(pipeline).collectAsList());
    assertTrue(message.contains("column 's' has a null array in partition 0, row 1"), message);

    Dataset<Row> nullElement =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(0L, new Double[] {1.0, 2.0}),
                    RowFactory.create(1L, new Double[] {5.0, null}),
                    RowFactory.create(2L, new Double[] {3.0, 4.0})),
                schema)
            .coalesce(1);
    message = NewUserSpark.failure(() -> nullElement.transform(pipeline).collectAsList());
    assertTrue(message.contains("column 's' has a null"), message);
    assertTrue(message.contains("row 1"), message);
    Dataset<Row> filled = nullElement.transform(pipeline.nullAs("s", -1.0));
    assertEquals(
        Map.of(0L, 5.0, 1L, 26.0, 2L, 25.0), byId(filled), "a null element replaced by -1.0");
    assertRan(filled, 1);

    Dataset<Row> ragged =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(0L, new double[] {1.0, 2.0}),
                    RowFactory.create(1L, new double[] {1.0, 2.0, 3.0})),
                schema)
            .coalesce(1);
    message = NewUserSpark.failure(() -> ragged.transform(pipeline).collectAsList());
    assertTrue(message.contains("'s'"), message);
    assertTrue(message.contains("2") && message.contains("3"), message);

    Dataset<Row> empty =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(0L, new double[0]),
                    RowFactory.create(1L, new double[0]),
                    RowFactory.create(2L, new double[0])),
                schema)
            .repartition(2);
    assertEquals(Map.of(0L, 0.0, 1L, 0.0, 2L, 0.0), byId(empty.transform(pipeline)));
  }

  // ---------------------------------------------------------------------------------------------
  // 8. A program that fails on one row under a write: named, and nothing already written is lost.

  @Test
  void aRowThatFailsUnderAnAppendIsNamedAndTheRowsWrittenBeforeStay() throws Exception {
    Path out = dir.resolve("appended");
    Dataset<Row> ks = spark.range(0, 60, 1, 3).selectExpr("id", "CAST(id - 45 AS INT) AS k");
    L0Pipeline divide =
        L0.pipeline("fun [i32] main([i32] ks) =\n  map(fn i32 (i32 k) => 1000 / k, ks)")
            .on("k")
            .as("q")
            .carry("id");
    Dataset<Row> good = ks.where("k <> 0").transform(divide);
    good.write().parquet(out.toString());
    String message =
        NewUserSpark.failure(
            () -> {
              ks.transform(divide).write().mode(SaveMode.Append).parquet(out.toString());
              return null;
            });
    // Row 45 is row 5 of the third partition of 20 rows.
    assertTrue(message.contains("L0 pipeline at " + THIS_FILE), message);
    assertTrue(
        message.contains(
            ": partition 2, row 5: <inline L0 program>:2:30: /: integer division by zero"),
        message);
    Dataset<Row> back = spark.read().parquet(out.toString());
    assertEquals(
        sorted(ks.where("k <> 0").selectExpr("id", "CAST(1000 / k AS INT) AS q")), sorted(back));
    assertEquals(59, back.count());
    // The session goes on.
    assertEquals(59, good.collectAsList().size());
  }

  // ---------------------------------------------------------------------------------------------
  // 9. One pipeline object, two sessions with other settings, two threads at once.

  @Test
  void onePipelineRunsInTwoSessionsWithOtherSettingsOnTwoThreadsAtOnce() throws Exception {
    SparkSession other = spark.newSession();
    other.conf().set("spark.l0.batchRows", "7");
    other.conf().set("spark.l0.jvm.batchRows", "5");
    L0Pipeline mv = L0.pipeline(MARKET_VALUE).on("qty", "price").as("mv").carry("id");
    L0Pipeline total =
        L0.pipeline("fun f64 main([f64] v) = reduce(op +, 0.0, v)").on("mv").exactFloatSums();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Object>>> runs = new ArrayList<>();
      for (SparkSession session : List.of(spark, other)) {
        runs.add(
            pool.submit(
                () -> {
                  Dataset<Row> df =
                      session
                          .range(0, 3000, 1, 3)
                          .selectExpr(
                              "id",
                              "CAST(id % 17 - 8 AS INT) AS qty",
                              "CAST(id AS DOUBLE) / 3.0D + 1.0D AS price");
                  Dataset<Row> values = df.transform(mv);
                  double sum = values.transform(total).first().getDouble(0);
                  return List.of(sorted(values), sum);
                }));
      }
      List<Object> first = runs.get(0).get();
      List<Object> second = runs.get(1).get();
      assertEquals(first.get(0), second.get(0));
      assertEquals(
          Double.doubleToRawLongBits((Double) first.get(1)),
          Double.doubleToRawLongBits((Double) second.get(1)));
      double expected =
          trades(3000, 3)
              .selectExpr("CAST(qty AS DOUBLE) * price AS mv")
              .agg(ExactSums.exactSum(col("mv")))
              .first()
              .getDouble(0);
      assertSameBits(expected, (Double) first.get(1), "exact sum in either session");
    } finally {
      pool.shutdown();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 10. A DataFrame of Java beans.

  /** A position as a Java bean, as {@code spark.createDataFrame(list, Position.class)} reads it. */
  public static class Position implements Serializable {
    private long id;
    private String book;
    private int quantity;
    private double price;
    private Double haircut;

    public Position() {}

    Position(long id, String book, int quantity, double price, Double haircut) {
      this.id = id;
      this.book = book;
      this.quantity = quantity;
      this.price = price;
      this.haircut = haircut;
    }

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public String getBook() {
      return book;
    }

    public void setBook(String book) {
      this.book = book;
    }

    public int getQuantity() {
      return quantity;
    }

    public void setQuantity(int quantity) {
      this.quantity = quantity;
    }

    public double getPrice() {
      return price;
    }

    public void setPrice(double price) {
      this.price = price;
    }

    public Double getHaircut() {
      return haircut;
    }

    public void setHaircut(Double haircut) {
      this.haircut = haircut;
    }
  }

  @Test
  void aDataFrameOfJavaBeansFeedsAPipelineByPropertyName() {
    List<Position> positions = new ArrayList<>();
    for (int k = 0; k < 500; k++) {
      positions.add(
          new Position(
              k, "b" + (k % 3), k % 11 - 5, 100.0 + k / 7.0, k % 4 == 0 ? null : k / 100.0));
    }
    Dataset<Row> df = spark.createDataFrame(positions, Position.class).repartition(4);
    String haircutValue =
        """
        fun [f64] main([i32] q, [f64] p, [f64] h) =
          map(fn f64 (i32 a, f64 b, f64 c) => f64(a) * b * (1.0 - c), zip(q, p, h))
        """;
    Dataset<Row> out =
        df.transform(
            L0.pipeline(haircutValue)
                .on("quantity", "price", "haircut")
                .nullAs("haircut", 0.0)
                .as("value")
                .carry("id", "book"));
    Map<Long, Double> got = new HashMap<>();
    for (Row row : out.collectAsList()) {
      got.put(row.getLong(0), row.getDouble(2));
      assertEquals("b" + (row.getLong(0) % 3), row.getString(1));
    }
    assertEquals(positions.size(), got.size());
    for (Position p : positions) {
      double h = p.getHaircut() == null ? 0.0 : p.getHaircut();
      assertSameBits(
          (double) p.getQuantity() * p.getPrice() * (1.0 - h),
          got.get(p.getId()),
          "id " + p.getId());
    }
    assertRan(out, 4);
    // The typed Dataset<Position> works too, through toDF().
    Dataset<Position> typed =
        spark.createDataset(positions, org.apache.spark.sql.Encoders.bean(Position.class));
    assertEquals(
        sorted(out),
        sorted(
            typed
                .toDF()
                .transform(
                    L0.pipeline(haircutValue)
                        .on("quantity", "price", "haircut")
                        .nullAs("haircut", 0.0)
                        .as("value")
                        .carry("id", "book"))));
  }

  // ---------------------------------------------------------------------------------------------
  // 11. SQL temporary views in and out.

  @Test
  void aPipelineReadsASqlViewAndItsOutputIsQueriedAsAView() {
    trades(2000, 4).createOrReplaceTempView("trades");
    Dataset<Row> input = spark.sql("SELECT id, book, qty, price FROM trades WHERE qty <> 0");
    Dataset<Row> values =
        input.transform(L0.pipeline(MARKET_VALUE).on("qty", "price").as("mv").carry("book"));
    values.createOrReplaceTempView("market_values");
    Dataset<Row> l0 =
        spark.sql("SELECT book, count(*) AS n, sum(mv) AS total FROM market_values GROUP BY book");
    Dataset<Row> sql =
        spark.sql(
            "SELECT book, count(*) AS n, sum(CAST(qty AS DOUBLE) * price) AS total FROM trades"
                + " WHERE qty <> 0 GROUP BY book");
    assertEquals(sorted(sql), sorted(l0));
    List<Row> some = spark.sql("SELECT * FROM market_values WHERE mv < -1000").collectAsList();
    assertEquals(
        spark
            .sql(
                "SELECT count(*) FROM trades WHERE qty <> 0 AND CAST(qty AS DOUBLE) * price < -1000")
            .first()
            .getLong(0),
        some.size());
    spark.catalog().dropTempView("market_values");
    spark.catalog().dropTempView("trades");
  }

  // ---------------------------------------------------------------------------------------------
  // 12. Parquet: a pipeline over a Parquet scan with nulls, its output written and read back.

  @Test
  void aParquetRoundTripKeepsEveryBitAndTheNullReplacements() {
    Path in = dir.resolve("positions.parquet");
    spark
        .range(0, 5000, 1, 3)
        .selectExpr(
            "id",
            "if(id % 10 = 3, NULL, CAST(id % 13 AS INT)) AS qty",
            "if(id % 7 = 1, NULL, id / 9.0D) AS price")
        .write()
        .parquet(in.toString());
    Dataset<Row> read = spark.read().parquet(in.toString());
    L0Pipeline mv =
        L0.pipeline(MARKET_VALUE)
            .on("qty", "price")
            .nullAs("qty", 0)
            .nullAs("price", Double.NaN)
            .as("mv")
            .carry("id");
    Dataset<Row> values = read.transform(mv);
    assertTrue(
        ((org.apache.spark.sql.classic.Dataset<Row>) values)
            .queryExecution()
            .executedPlan()
            .toString()
            .contains("L0 reader"),
        "README: a pipeline straight over a Parquet scan reads it with L0's reader");
    Path out = dir.resolve("values.parquet");
    values.write().parquet(out.toString());
    // A write plans a query of its own, as count() and show() do.
    assertTrue(L0.explainString(values).contains("\nran: no task has run it\n"));
    Map<Long, Double> want =
        byId(
            read.selectExpr(
                "id", "CAST(coalesce(qty, 0) AS DOUBLE) * coalesce(price, CAST('NaN' AS DOUBLE))"));
    Map<Long, Double> back = byId(spark.read().parquet(out.toString()));
    assertEquals(want.keySet(), back.keySet());
    want.forEach((id, v) -> assertSameBits(v, back.get(id), "id " + id));
    Dataset<Row> rerun = read.transform(mv);
    assertEquals(5000, rerun.collectAsList().size());
    assertRan(rerun, read.rdd().getNumPartitions());
  }

  // ---------------------------------------------------------------------------------------------
  // 13. with(...) values of every type the README lists, and wrong ones.

  @Test
  void withBindsEveryTypeTheReadmeListsAndNamesTheParameterOfAWrongOne() {
    String program =
        """
        fun [f64] main(f64 d, f32 f, i32 i, i64 l, bool b,
                       [f64] ds, [f32] fs, [i32] is, [i64] ls, [bool] bs,
                       [[f64]] m, [[[i32]]] c, [[f64]] flat, [i32] rows) =
          map(fn f64 (i32 r) =>
                let k = r % 3 in
                d + f64(f) + f64(i) + f64(l) + (if b then 1.0 else 0.0)
                + ds[k] + f64(fs[k]) + f64(is[k]) + f64(ls[k]) + (if bs[k] then 10.0 else 0.0)
                + m[k, 1] + f64(c[1, k, 0]) + flat[1, k] + f64(size(0, flat) * 1000),
              rows)
        """;
    double[][] m = {{1.5, 2.5}, {3.5, 4.5}, {5.5, 6.5}};
    int[][][] c = {{{1}, {2}, {3}}, {{4}, {5}, {6}}};
    FlatArray flat =
        new FlatArray(ScalarType.F64, new double[] {0, 0, 0, 0.25, 0.5, 0.75}, new int[] {2, 3});
    L0Pipeline bound =
        L0.pipeline(program)
            .with("d", 0.125)
            .with("f", 0.5f)
            .with("i", 100)
            .with("l", 1L << 40)
            .with("b", true)
            .with("ds", new double[] {1e-3, 2e-3, 3e-3})
            .with("fs", new float[] {0.1f, 0.2f, 0.3f})
            .with("is", new int[] {7, 8, 9})
            .with("ls", new long[] {-1L, -2L, -3L})
            .with("bs", new boolean[] {true, false, true})
            .with("m", m)
            .with("c", c)
            .with("flat", flat)
            .on("r")
            .as("y")
            .carry("r");
    Dataset<Row> df = spark.range(0, 30, 1, 2).selectExpr("CAST(id AS INT) AS r");
    Dataset<Row> out = df.transform(bound);
    List<Row> rows = out.collectAsList();
    assertEquals(30, rows.size());
    double[] ds = {1e-3, 2e-3, 3e-3};
    float[] fs = {0.1f, 0.2f, 0.3f};
    int[] is = {7, 8, 9};
    long[] ls = {-1L, -2L, -3L};
    boolean[] bs = {true, false, true};
    double[] flatRow1 = {0.25, 0.5, 0.75};
    for (Row row : rows) {
      int k = row.getInt(0) % 3;
      double y =
          0.125
              + (double) 0.5f
              + 100.0
              + (double) (1L << 40)
              + 1.0
              + ds[k]
              + (double) fs[k]
              + is[k]
              + (double) ls[k]
              + (bs[k] ? 10.0 : 0.0)
              + m[k][1]
              + c[1][k][0]
              + flatRow1[k]
              + 2000.0;
      assertSameBits(y, row.getDouble(1), "r " + row.getInt(0));
    }
    assertRan(out, 2);

    // Wrong values: each names the parameter and both types.
    String scaled = "fun [f64] main(f64 k, [f64] xs) = map(fn f64 (f64 x) => k * x, xs)";
    Dataset<Row> xs = spark.range(0, 3).selectExpr("CAST(id AS DOUBLE) AS x");
    Object[][] wrong = {
      {(short) 2, "java.lang.Short"},
      {"2.0", "java.lang.String"},
      {java.math.BigDecimal.ONE, "java.math.BigDecimal"},
      {new double[] {2.0}, "double[]"},
      {new Double[] {2.0}, "java.lang.Double[]"},
      {2.0f, "java.lang.Float"},
    };
    for (Object[] w : wrong) {
      String message = planningError(xs, L0.pipeline(scaled).with("k", w[0]).on("x"));
      assertTrue(message.contains("with(\"k\", ...)"), message);
      assertTrue(message.contains("f64"), message);
      assertTrue(message.contains((String) w[1]), message);
    }
    String nullValue = planningError(xs, L0.pipeline(scaled).with("k", null).on("x"));
    assertTrue(nullValue.contains("with(\"k\""), nullValue);
    String arrays = "fun [f64] main([f64] g, [f64] xs) = map(fn f64 (f64 x) => g[0] * x, xs)";
    String listValue = planningError(xs, L0.pipeline(arrays).with("g", List.of(1.0, 2.0)).on("x"));
    assertTrue(listValue.contains("with(\"g\", ...)"), listValue);
    assertTrue(listValue.contains("java.util"), listValue);
    String ragged =
        planningError(
            xs,
            L0.pipeline(
                    "fun [f64] main([[f64]] g, [f64] xs) = map(fn f64 (f64 x) => g[0, 0] * x, xs)")
                .with("g", new double[][] {{1.0, 2.0}, {3.0}})
                .on("x"));
    assertTrue(
        ragged.contains(
            "with(\"g\", ...): the nested array is irregular: g[1] has length 1, but g[0] has"
                + " length 2"),
        ragged);
  }

  // ---------------------------------------------------------------------------------------------
  // 14. A running total after an orderBy follows the sorted order, as a window's running sum.

  @Test
  void aScanAfterAnOrderByIsTheRunningTotalInSortedOrderAcrossPartitions() {
    Dataset<Row> pnl =
        spark
            .range(0, 1000, 1, 5)
            .selectExpr("CAST((id * 7919) % 1000 AS INT) AS day", "(id * 31) % 1001 - 500 AS pnl")
            .orderBy("day");
    Dataset<Row> running =
        pnl.transform(
            L0.pipeline("fun [i64] main([i64] p) = scan(op +, 0i64, p)").on("pnl").as("cum"));
    long[] got = running.collectAsList().stream().mapToLong(r -> r.getLong(0)).toArray();
    long[] want =
        pnl
            .selectExpr("sum(pnl) OVER (ORDER BY day ROWS UNBOUNDED PRECEDING) AS cum")
            .collectAsList()
            .stream()
            .mapToLong(r -> r.getLong(0))
            .toArray();
    assertArrayEquals(want, got);
    assertEquals(1000, got.length);
  }

  // ---------------------------------------------------------------------------------------------
  // 15. Chained transforms, cached, reused by two later pipelines and SQL.

  @Test
  void aCachedChainIsReusedByTwoPipelinesAndSqlWithoutRunningAgain() {
    Dataset<Row> df = trades(4000, 4);
    Dataset<Row> chain =
        df.transform(L0.pipeline(MARKET_VALUE).on("qty", "price").as("mv"))
            .transform(
                L0.pipeline(
                        "fun [f64] main([f64] v) = filter(fn bool (f64 x) => x > 0.0, map(fn f64 (f64 x) => x * 0.99, v))")
                    .on("mv")
                    .as("net"))
            .cache();
    try {
      List<Row> rows = chain.collectAsList();
      assertRan(chain, 4);
      List<Double> want = new ArrayList<>();
      for (Row r :
          df.selectExpr("CAST(qty AS DOUBLE) * price * 0.99D AS n")
              .where("n > 0")
              .collectAsList()) {
        want.add(r.getDouble(0));
      }
      List<Double> got = new ArrayList<>();
      rows.forEach(r -> got.add(r.getDouble(0)));
      want.sort(null);
      got.sort(null);
      assertEquals(want, got);

      Dataset<Row> count =
          chain.transform(
              L0.pipeline(
                      "fun i64 main([f64] v) = reduce(op +, 0i64, map(fn i64 (f64 x) => 1i64, v))")
                  .on("net"));
      assertEquals(want.size(), count.first().getLong(0));
      Dataset<Row> max =
          chain.transform(L0.pipeline("fun f64 main([f64] v) = reduce(max, 0.0, v)").on("net"));
      assertEquals(want.get(want.size() - 1), max.first().getDouble(0));
      chain.createOrReplaceTempView("net_values");
      assertEquals(
          (long) want.size(), spark.sql("SELECT count(*) FROM net_values").first().getLong(0));
      spark.catalog().dropTempView("net_values");
    } finally {
      chain.unpersist();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 16. Whole-table aggregates over a pipeline's output and carried columns with nulls: Spark's
  // results, the fused L0PartialAggregate where the README says it fuses.

  @Test
  void aggregatesOverOutputsAndCarriedColumnsWithNullsGiveSparksResults() {
    Dataset<Row> df =
        spark
            .range(0, 700, 1, 5)
            .selectExpr(
                "id",
                "if(id % 4 = 0, NULL, id * 1.5D) AS c",
                "if(id % 5 = 0, NULL, concat('k', id)) AS s",
                "CAST(id % 17 - 8 AS INT) AS qty",
                "CAST(id AS DOUBLE) / 3.0D + 1.0D AS price");
    Dataset<Row> l0 =
        df.transform(L0.pipeline(MARKET_VALUE).on("qty", "price").as("mv").carry("c", "s"));
    Dataset<Row> sql = df.selectExpr("c", "s", "CAST(qty AS DOUBLE) * price AS mv");
    String[] fused = {
      "sum(mv)", "avg(mv)", "sum(c)", "avg(c)", "count(c)", "count(s)", "count(c, s)", "count(*)"
    };
    Dataset<Row> aggregated = l0.selectExpr(fused);
    List<Row> got = aggregated.collectAsList();
    List<Row> want = sql.selectExpr(fused).collectAsList();
    for (int k = 0; k < fused.length; k++) {
      Object w = want.get(0).get(k);
      Object g = got.get(0).get(k);
      if (w instanceof Double d) {
        assertSameBits(d, (Double) g, fused[k]);
      } else {
        assertEquals(w, g, fused[k]);
      }
    }
    assertTrue(
        ((org.apache.spark.sql.classic.Dataset<Row>) aggregated)
            .queryExecution()
            .executedPlan()
            .toString()
            .contains("L0PartialAggregate"),
        "README: sum/avg of doubles and counts directly over a pipeline fold its batches");
    // Not fused, Spark's aggregate over the pipeline's rows: min, max, a sum of an expression.
    String[] other = {"min(mv)", "max(c)", "sum(mv * 2.0D)", "count(DISTINCT s)"};
    assertEquals(sql.selectExpr(other).collectAsList(), l0.selectExpr(other).collectAsList());
    // None of the rows: Spark's nulls and zeros.
    assertEquals(
        sql.where("mv > 1e9").selectExpr(fused).collectAsList(),
        l0.where("mv > 1e9").selectExpr(fused).collectAsList());
  }

  // ---------------------------------------------------------------------------------------------
  // 17. A wide DataFrame: 300 risk-factor columns into one map and one reduce.

  @Test
  void threeHundredColumnsFeedAMapAndAReduceAsSparkSqlComputesThem() {
    int width = 300;
    List<String> columns = new ArrayList<>();
    List<String> selected = new ArrayList<>(List.of("id"));
    List<String> types = new ArrayList<>();
    List<String> params = new ArrayList<>();
    List<String> terms = new ArrayList<>();
    List<String> sqlTerms = new ArrayList<>();
    for (int k = 0; k < width; k++) {
      columns.add("f" + k);
      selected.add("CAST(id * " + (k + 1) + " AS DOUBLE) / 7.0D AS f" + k);
      types.add("f64");
      params.add("f64 a" + k);
      terms.add("a" + k + " * " + (k % 3 + 1) + ".0");
      sqlTerms.add("f" + k + " * " + (k % 3 + 1) + ".0D");
    }
    Dataset<Row> df = spark.range(0, 600, 1, 2).selectExpr(selected.toArray(String[]::new));
    String row = "fn f64 (" + String.join(", ", params) + ") => " + String.join(" + ", terms);
    String tuple = "[{" + String.join(", ", types) + "}] fs";
    Dataset<Row> exposures =
        df.transform(
            L0.pipeline("fun [f64] main(" + tuple + ") = map(" + row + ", fs)")
                .on(columns.toArray(String[]::new))
                .as("exposure")
                .carry("id"));
    Map<Long, Double> want = byId(df.selectExpr("id", String.join(" + ", sqlTerms)));
    Map<Long, Double> got = byId(exposures);
    assertEquals(want.keySet(), got.keySet());
    want.forEach((id, v) -> assertSameBits(v, got.get(id), "id " + id));
    assertRan(exposures, 2);
    Dataset<Row> total =
        df.transform(
            L0.pipeline("fun f64 main(" + tuple + ") = reduce(op +, 0.0, map(" + row + ", fs))")
                .on(columns.toArray(String[]::new))
                .exactFloatSums());
    assertSameBits(
        df.selectExpr(String.join(" + ", sqlTerms) + " AS e")
            .agg(ExactSums.exactSum(col("e")))
            .first()
            .getDouble(0),
        total.collectAsList().get(0).getDouble(0),
        "exact sum of the exposures");
    assertRan(total, 2);
  }
}
