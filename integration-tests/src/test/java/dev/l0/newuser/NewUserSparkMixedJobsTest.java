package dev.l0.newuser;

import static dev.l0.newuser.NewUserSpark.assertRan;
import static dev.l0.newuser.NewUserSpark.assertSameBits;
import static dev.l0.newuser.NewUserSpark.sorted;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.ExactSums;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark jobs a new user writes next to {@link NewUserSparkJobsTest}'s: decimal, date, timestamp,
 * string and boolean columns beside the numbers a pipeline reads, typed Datasets of beans, ANSI
 * mode on and off, adaptive execution on and off around broadcast joins, {@code EXPLAIN}, a
 * Structured Streaming query, carried names in another case, and an {@code Overwrite} that fails.
 * Each result is compared exactly with Spark SQL or plain Java, and each job checks where its tasks
 * ran.
 */
class NewUserSparkMixedJobsTest {
  private static final String THIS_FILE = "NewUserSparkMixedJobsTest.java:";
  private static SparkSession spark;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    spark = NewUserSpark.start(NewUserSparkMixedJobsTest.class);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static final String VALUE =
      """
      fun [f64] main([i32] q, [f64] p, [bool] live) =
        map(fn f64 (i32 a, f64 b, bool l) => if l then f64(a) * b else 0.0, zip(q, p, live))
      """;

  private static final String VALUE_SQL =
      "CASE WHEN live THEN CAST(qty AS DOUBLE) * price ELSE 0.0D END";

  /** Trades with a column of every kind Spark has beside the numbers, nulls in each of those. */
  private static Dataset<Row> trades(int n, int partitions) {
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("book", DataTypes.StringType, true)
            .add("trade_date", DataTypes.DateType, true)
            .add("booked_at", DataTypes.TimestampType, true)
            .add("notional", DataTypes.createDecimalType(18, 2), true)
            .add("live", DataTypes.BooleanType, false)
            .add("qty", DataTypes.IntegerType, false)
            .add("price", DataTypes.DoubleType, false);
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      boolean hole = k % 7 == 3;
      rows.add(
          RowFactory.create(
              (long) k,
              hole ? null : "desk " + (k % 5),
              hole ? null : Date.valueOf("2026-01-01").toLocalDate().plusDays(k % 40).toString(),
              hole ? null : new Timestamp(1_767_225_600_000L + k * 3_600_000L),
              hole ? null : new BigDecimal(k).movePointLeft(2).add(new BigDecimal("1000.05")),
              k % 3 != 0,
              k % 13 - 6,
              50.0 + k / 9.0));
    }
    List<Row> typed = new ArrayList<>();
    for (Row r : rows) {
      Object[] v = new Object[r.length()];
      for (int i = 0; i < v.length; i++) {
        v[i] = r.get(i);
      }
      v[2] = v[2] == null ? null : Date.valueOf((String) v[2]);
      typed.add(RowFactory.create(v));
    }
    return spark.createDataFrame(typed, schema).repartition(partitions, col("id"));
  }

  // ---------------------------------------------------------------------------------------------
  // 1. Decimal, date, timestamp and string columns carried beside the numbers a pipeline reads.

  @Test
  void decimalDateTimestampAndStringColumnsAreCarriedAndNamedWhereAPipelineWouldReadThem() {
    Dataset<Row> df = trades(900, 3);
    Dataset<Row> out =
        df.transform(
            L0.pipeline(VALUE)
                .on("qty", "price", "live")
                .as("value")
                .carry("id", "book", "trade_date", "booked_at", "notional"));
    assertEquals(
        List.of("id", "book", "trade_date", "booked_at", "notional", "value"),
        List.of(out.columns()));
    assertEquals(
        df.select("id", "book", "trade_date", "booked_at", "notional").schema().toString(),
        out.drop("value").schema().toString());
    assertEquals(
        sorted(
            df.selectExpr(
                "id", "book", "trade_date", "booked_at", "notional", VALUE_SQL + " AS value")),
        sorted(out));
    assertRan(out, 3);
    // Spark SQL over the carried columns: a decimal sum and date grouping, as over the input.
    assertEquals(
        sorted(
            df.groupBy("trade_date")
                .agg(
                    org.apache.spark.sql.functions.sum("notional"),
                    org.apache.spark.sql.functions.sum(
                        org.apache.spark.sql.functions.expr(VALUE_SQL)))),
        sorted(
            out.groupBy("trade_date")
                .agg(
                    org.apache.spark.sql.functions.sum("notional"),
                    org.apache.spark.sql.functions.sum("value"))));

    // A column a pipeline cannot read is named with its Spark type; a cast makes it readable.
    Map<String, String> sparkTypes =
        Map.of(
            "notional", "decimal(18,2)",
            "trade_date", "date",
            "booked_at", "timestamp",
            "book", "string");
    sparkTypes.forEach(
        (column, type) -> {
          String message =
              NewUserSpark.failure(
                  () ->
                      df.transform(
                          L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v, x)")
                              .on(column)));
          assertTrue(message.contains("L0 pipeline at " + THIS_FILE), message);
          assertTrue(
              message.contains(
                  "column '"
                      + column
                      + "' has Spark type "
                      + type
                      + ", but parameter 'x' of 'main([f64] x)' is [f64], which needs a column of"
                      + " double (no implicit casts)"),
              message);
        });
    Dataset<Row> cast =
        df.withColumn("n", col("notional").cast("double"))
            .na()
            .fill(0.0, new String[] {"n"})
            .transform(
                L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v * 2.0, x)")
                    .on("n")
                    .as("twice")
                    .carry("id"));
    assertEquals(
        sorted(df.selectExpr("id", "coalesce(CAST(notional AS DOUBLE), 0.0D) * 2.0D AS twice")),
        sorted(cast));
    assertRan(cast, 3);
  }

  // ---------------------------------------------------------------------------------------------
  // 2. A typed Dataset of beans in, a typed Dataset of beans out.

  /** A position as a bean, for {@code Encoders.bean}. */
  public static class Position implements Serializable {
    private long id;
    private int qty;
    private double price;
    private boolean live;

    public Position() {}

    Position(long id, int qty, double price, boolean live) {
      this.id = id;
      this.qty = qty;
      this.price = price;
      this.live = live;
    }

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public int getQty() {
      return qty;
    }

    public void setQty(int qty) {
      this.qty = qty;
    }

    public double getPrice() {
      return price;
    }

    public void setPrice(double price) {
      this.price = price;
    }

    public boolean isLive() {
      return live;
    }

    public void setLive(boolean live) {
      this.live = live;
    }
  }

  /** A valued position as a bean: the pipeline's output columns by property name. */
  public static class Valued implements Serializable {
    private long id;
    private double value;

    public Valued() {}

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public double getValue() {
      return value;
    }

    public void setValue(double value) {
      this.value = value;
    }
  }

  @Test
  void aTypedDatasetOfBeansGoesInThroughToDfAndComesOutAsBeans() {
    List<Position> positions = new ArrayList<>();
    for (int k = 0; k < 700; k++) {
      positions.add(new Position(k, k % 9 - 4, 10.0 + k / 3.0, k % 4 != 1));
    }
    Dataset<Position> typed =
        spark.createDataset(positions, Encoders.bean(Position.class)).repartition(2);
    Dataset<Row> valued =
        typed
            .toDF()
            .transform(L0.pipeline(VALUE).on("qty", "price", "live").as("value").carry("id"));
    Dataset<Valued> out = valued.as(Encoders.bean(Valued.class));
    Map<Long, Double> got = new HashMap<>();
    for (Valued v : out.collectAsList()) {
      got.put(v.getId(), v.getValue());
    }
    assertEquals(positions.size(), got.size());
    for (Position p : positions) {
      assertSameBits(
          p.isLive() ? (double) p.getQty() * p.getPrice() : 0.0,
          got.get(p.getId()),
          "id " + p.getId());
    }
    assertRan(out, 2);
  }

  // ---------------------------------------------------------------------------------------------
  // 3. spark.sql.ansi.enabled true and false: a pipeline's integers wrap either way.

  @Test
  void integerArithmeticWrapsUnderAnsiModeOnAndOffWhereSparkFailsOrWraps() {
    Dataset<Row> df = spark.range(0, 8, 1, 2).selectExpr("id", "CAST(2147483640 + id AS INT) AS a");
    String plusTen = "fun [i32] main([i32] a) = map(fn i32 (i32 x) => x + 10, a)";
    for (String ansi : List.of("true", "false")) {
      spark.conf().set("spark.sql.ansi.enabled", ansi);
      try {
        Dataset<Row> out = df.transform(L0.pipeline(plusTen).on("a").as("b").carry("id"));
        List<Row> rows = out.collectAsList();
        for (Row row : rows) {
          assertEquals((int) (2147483640L + row.getLong(0)) + 10, row.getInt(1), "ansi " + ansi);
        }
        assertEquals(8, rows.size());
        assertRan(out, 2);
        if (ansi.equals("false")) {
          assertEquals(sorted(df.selectExpr("id", "a + 10 AS b")), sorted(out));
        } else {
          String sparks = NewUserSpark.failure(() -> df.selectExpr("a + 10").collectAsList());
          assertTrue(sparks.contains("ARITHMETIC_OVERFLOW"), sparks);
        }
      } finally {
        spark.conf().unset("spark.sql.ansi.enabled");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 4. Broadcast joins before and after a pipeline, with adaptive execution on and off.

  @Test
  void broadcastJoinsAroundAPipelineGiveSparkSqlsRowsWithAdaptiveExecutionOnAndOff() {
    Dataset<Row> df = trades(300, 2).select("id", "book", "qty", "price", "live");
    Dataset<Row> desks =
        spark
            .range(0, 5)
            .selectExpr(
                "concat('desk ', CAST(id AS STRING)) AS book", "CAST(id AS DOUBLE) / 10.0D AS fx");
    for (String aqe : List.of("true", "false")) {
      spark.conf().set("spark.sql.adaptive.enabled", aqe);
      try {
        // after: the pipeline's output joined to a broadcast dimension
        Dataset<Row> valued =
            df.transform(
                L0.pipeline(VALUE).on("qty", "price", "live").as("value").carry("id", "book"));
        Dataset<Row> after =
            valued.join(broadcast(desks), "book").selectExpr("id", "book", "value * fx AS v");
        assertEquals(
            sorted(
                df.join(broadcast(desks), "book")
                    .selectExpr("id", "book", "(" + VALUE_SQL + ") * fx AS v")),
            sorted(after),
            "aqe " + aqe);
        String plan = after.queryExecution().executedPlan().toString();
        assertTrue(plan.contains("BroadcastHashJoin"), plan);
        assertTrue(plan.contains("L0Pipeline"), plan);
        // before: the pipeline reads a broadcast join's columns
        Dataset<Row> joined = df.join(broadcast(desks), "book");
        Dataset<Row> before =
            joined.transform(
                L0.pipeline(
                        """
                        fun [f64] main([f64] p, [f64] fx) =
                          map(fn f64 (f64 a, f64 b) => a * (1.0 + b), zip(p, fx))
                        """)
                    .on("price", "fx")
                    .as("local")
                    .carry("id"));
        assertEquals(
            sorted(joined.selectExpr("id", "price * (1.0D + fx) AS local")),
            sorted(before),
            "aqe " + aqe);
        assertRan(before, 2);
      } finally {
        spark.conf().unset("spark.sql.adaptive.enabled");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 5. explain(true) and SQL's EXPLAIN name the pipeline.

  @Test
  void explainExtendedAndSqlExplainNameThePipelineNode() {
    Dataset<Row> out =
        trades(100, 2)
            .transform(L0.pipeline(VALUE).on("qty", "price", "live").as("value").carry("id"));
    String extended =
        out.queryExecution().explainString(org.apache.spark.sql.execution.ExtendedMode$.MODULE$);
    assertTrue(extended.contains("L0Pipeline"), extended);
    out.createOrReplaceTempView("valued");
    try {
      String sql =
          spark
              .sql("EXPLAIN EXTENDED SELECT id, value FROM valued WHERE value > 100")
              .first()
              .getString(0);
      assertTrue(sql.contains("L0Pipeline"), sql);
      assertEquals(
          sorted(out.where("value > 100").select("id", "value")),
          sorted(spark.sql("SELECT id, value FROM valued WHERE value > 100")));
    } finally {
      spark.catalog().dropTempView("valued");
    }
    assertEquals(100, out.collectAsList().size());
    assertRan(out, 2);
  }

  // ---------------------------------------------------------------------------------------------
  // 6. Structured Streaming: a row-wise pipeline over a file stream, a reduce in foreachBatch.

  private static final Map<Long, double[]> STREAMED_TOTALS = new ConcurrentHashMap<>();

  @Test
  void aRowWisePipelineRunsOverAFileStreamAndAReduceOverEachMicroBatch() throws Exception {
    Path in = dir.resolve("stream-in");
    Dataset<Row> df = trades(600, 3).select("id", "qty", "price", "live");
    df.where("id < 300").coalesce(1).write().parquet(in.resolve("part1").toString());
    df.where("id >= 300").coalesce(1).write().parquet(in.resolve("part2").toString());
    Dataset<Row> stream =
        spark
            .readStream()
            .schema(df.schema())
            .option("maxFilesPerTrigger", "1")
            .option("recursiveFileLookup", "true")
            .parquet(in.toString());
    Dataset<Row> valued =
        stream.transform(L0.pipeline(VALUE).on("qty", "price", "live").as("value").carry("id"));
    Path out = dir.resolve("stream-out");
    valued
        .writeStream()
        .format("parquet")
        .option("checkpointLocation", dir.resolve("stream-checkpoint").toString())
        .trigger(Trigger.AvailableNow())
        .start(out.toString())
        .awaitTermination();
    assertEquals(
        sorted(df.selectExpr("id", VALUE_SQL + " AS value")),
        sorted(spark.read().parquet(out.toString())));

    // A reduce over a stream is a planning error pointing at foreachBatch; there, each
    // micro-batch is a DataFrame that is not streaming.
    String sum = "fun f64 main([f64] v) = reduce(op +, 0.0, v)";
    String refused = NewUserSpark.failure(() -> valued.transform(L0.pipeline(sum).on("value")));
    assertTrue(refused.contains("L0 pipeline at " + THIS_FILE), refused);
    assertTrue(refused.contains("writeStream().foreachBatch(...)"), refused);
    STREAMED_TOTALS.clear();
    valued
        .writeStream()
        .foreachBatch(
            (VoidFunction2<Dataset<Row>, Long>)
                (batch, id) ->
                    STREAMED_TOTALS.put(
                        id,
                        new double[] {
                          batch
                              .transform(L0.pipeline(sum).on("value").exactFloatSums())
                              .first()
                              .getDouble(0),
                          batch.agg(ExactSums.exactSum(col("value"))).first().getDouble(0),
                          batch.count()
                        }))
        .option("checkpointLocation", dir.resolve("stream-checkpoint-2").toString())
        .trigger(Trigger.AvailableNow())
        .start()
        .awaitTermination();
    long rows = 0;
    for (double[] batch : STREAMED_TOTALS.values()) {
      assertSameBits(batch[1], batch[0], "a micro-batch's exact sum");
      rows += (long) batch[2];
    }
    assertTrue(STREAMED_TOTALS.size() >= 2, () -> STREAMED_TOTALS.size() + " micro-batches");
    assertEquals(600, rows);
  }

  // ---------------------------------------------------------------------------------------------
  // 7. carry("ID") under case-insensitive names, as Spark's select("ID") names the column.

  @Test
  void aCarriedNameInAnotherCaseIsSpeltAsSparksSelectSpellsIt() {
    Dataset<Row> df = spark.range(0, 10, 1, 2).selectExpr("id", "CAST(id AS DOUBLE) AS Price");
    Dataset<Row> out =
        df.transform(
            L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v + 1.0, x)")
                .on("PRICE")
                .as("y")
                .carry("ID", "price"));
    assertEquals(List.of("ID", "price"), List.of(df.select("ID", "price").columns()));
    assertEquals(sorted(df.selectExpr("ID", "price", "Price + 1.0D AS y")), sorted(out));
    List<String> sparks = new ArrayList<>(List.of(df.select("ID", "price").columns()));
    sparks.add("y");
    assertEquals(sparks, List.of(out.columns()));
    assertRan(out, 2);
  }

  // ---------------------------------------------------------------------------------------------
  // 8. mode(Overwrite) when a row fails: Spark removes the old data before the job runs, so a
  //    failing job leaves none, and the error names the row.

  @Test
  void anOverwriteThatFailsOnARowLeavesNoneOfTheOldDataAsSparksOwnOverwriteDoes() {
    Dataset<Row> ks = spark.range(0, 60, 1, 3).selectExpr("id", "CAST(id - 45 AS INT) AS k");
    L0Pipeline divide =
        L0.pipeline("fun [i32] main([i32] ks) =\n  map(fn i32 (i32 k) => 1000 / k, ks)")
            .on("k")
            .as("q")
            .carry("id");
    Dataset<Row> good = ks.where("k <> 0").transform(divide);
    String failingRow =
        ": partition 2, row 5: <inline L0 program>:2:30: /: integer division by zero";

    // A Parquet path: its files are deleted before the job; the folder is left empty.
    Path path = dir.resolve("overwritten");
    good.write().parquet(path.toString());
    assertEquals(59, spark.read().parquet(path.toString()).count());
    String message =
        NewUserSpark.failure(
            () -> {
              ks.transform(divide).write().mode(SaveMode.Overwrite).parquet(path.toString());
              return null;
            });
    assertTrue(message.contains("L0 pipeline at " + THIS_FILE), message);
    assertTrue(message.contains(failingRow), message);
    assertEquals(List.of(), List.of(path.toFile().list()));

    // A table saved with saveAsTable: Overwrite drops it before the job; it no longer exists.
    good.write().saveAsTable("overwritten_table");
    String tableMessage =
        NewUserSpark.failure(
            () -> {
              ks.transform(divide)
                  .write()
                  .mode(SaveMode.Overwrite)
                  .saveAsTable("overwritten_table");
              return null;
            });
    assertTrue(tableMessage.contains(failingRow), tableMessage);
    assertTrue(!spark.catalog().tableExists("overwritten_table"));

    // insertInto an existing table with Overwrite: the table stays, without its old rows.
    spark.sql("CREATE TABLE inserted (id BIGINT, q INT) USING parquet");
    try {
      good.write().insertInto("inserted");
      assertEquals(59, spark.table("inserted").count());
      String insertMessage =
          NewUserSpark.failure(
              () -> {
                ks.transform(divide).write().mode(SaveMode.Overwrite).insertInto("inserted");
                return null;
              });
      assertTrue(insertMessage.contains(failingRow), insertMessage);
      spark.catalog().refreshTable("inserted");
      assertEquals(0, spark.table("inserted").count());
    } finally {
      spark.sql("DROP TABLE IF EXISTS inserted");
    }

    // Spark SQL's own failing Overwrite (an error raised on row 45) loses them alike.
    good.write().mode(SaveMode.Overwrite).parquet(path.toString());
    String sparks =
        NewUserSpark.failure(
            () -> {
              ks.selectExpr("id", "IF(k = 0, raise_error('k is 0'), 1000 DIV k) AS q")
                  .write()
                  .mode(SaveMode.Overwrite)
                  .parquet(path.toString());
              return null;
            });
    assertTrue(sparks.contains("USER_RAISED_EXCEPTION"), sparks);
    assertEquals(List.of(), List.of(path.toFile().list()));
  }
}
