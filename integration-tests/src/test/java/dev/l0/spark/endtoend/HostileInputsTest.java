package dev.l0.spark.endtoend;

import static dev.l0.spark.ExactSums.exactSum;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static dev.l0.spark.endtoend.NumericAssertions.assertBitIdentical;
import static dev.l0.spark.endtoend.PipelineErrors.planningError;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.util.List;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a production job meets, on {@code local[4]} with a few rows each: empty inputs and empty
 * partitions (64 partitions of 10 rows), one row, repartitioned, coalesced and cached inputs, NaN,
 * infinities and signed zeros, odd column names, columns of the wrong type, {@code with} and {@code
 * nullAs} values that do not fit, a program failing in a task, and pipelines in unions, joins and
 * subqueries. Results are compared with the same formula in Spark SQL (the same bits, as README
 * promises for maps), errors with what README says they name.
 */
class HostileInputsTest {
  private static final String CALL_SITE = HostileInputsTest.class.getSimpleName() + ".java:";
  private static final String DOUBLED =
      "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * 2.0, xs)";
  private static final String SUM = "fun f64 main([f64] xs) = reduce(op +, 0.0, xs)";
  private static final String SUM_I64 = "fun i64 main([i64] qs) = reduce(op +, 0i64, qs)";
  private static final String RUNNING = "fun [i64] main([i64] qs) = scan(op +, 0i64, qs)";
  private static final String SCALED =
      "fun [f64] main(f64 k, [f64] xs) = map(fn f64 (f64 x) => x * k, xs)";

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.builder(HostileInputsTest.class, 4).getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /** Ten rows in 64 partitions (most of them empty): id and x = 1.5 id. */
  private static Dataset<Row> sparse() {
    return spark.range(0, 10, 1, 64).select(col("id"), expr("id * 1.5D").as("x"));
  }

  /** The only value of a one-row, one-column result. */
  private static Object single(Dataset<Row> frame) {
    List<Row> rows = frame.collectAsList();
    assertEquals(1, rows.size(), "one row");
    return rows.get(0).get(0);
  }

  @Test
  void emptyInputsGiveNoRowsAndReductionsTheirNeutralElement() {
    Dataset<Row> threeEmpty =
        spark.range(0, 10, 1, 3).select(col("id"), expr("id * 1.5D").as("x")).where("id > 100");
    Dataset<Row> noPartitions = spark.range(0, 0).select(col("id"), expr("id * 1.5D").as("x"));
    for (Dataset<Row> empty : List.of(threeEmpty, noPartitions)) {
      assertEquals(0, empty.transform(L0.pipeline(DOUBLED).on("x")).collectAsList().size());
      assertEquals(0.0, single(empty.transform(L0.pipeline(SUM).on("x"))));
      assertEquals(0.0, single(empty.transform(L0.pipeline(SUM).on("x").exactFloatSums())));
      assertEquals(0L, single(empty.transform(L0.pipeline(SUM_I64).on("id"))));
      assertEquals(0, empty.transform(L0.pipeline(RUNNING).on("id")).collectAsList().size());
      // Spark's aggregates over no rows, fused into the pipeline's tasks or not.
      Dataset<Row> doubled = empty.transform(L0.pipeline(DOUBLED).on("x").as("y"));
      assertEquals(
          "[null,null,0]",
          doubled.agg(expr("sum(y)"), expr("avg(y)"), expr("count(*)")).collectAsList().get(0)
              + "");
      // ExactSums over no rows: 0.0 and an empty array, as README says (Spark's sum is null).
      assertEquals(
          "[0.0,ArraySeq()]",
          empty
                  .agg(exactSum(col("x")), exactSumElementWise(expr("array(x, x)")))
                  .collectAsList()
                  .get(0)
              + "");
    }
  }

  @Test
  void emptyPartitionsOneRowAndReshuffledInputsGiveSparksResults() {
    Dataset<Row> sparse = sparse();
    double[] expected = CollectedColumns.of(sparse.selectExpr("x * 2.0D AS y")).doubles("y");
    for (Dataset<Row> input : List.of(sparse, sparse.repartition(7), sparse.coalesce(3))) {
      assertEquals(67.5, single(input.transform(L0.pipeline(SUM).on("x"))));
      assertEquals(45L, single(input.transform(L0.pipeline(SUM_I64).on("id"))));
    }
    assertBitIdentical(
        expected,
        CollectedColumns.of(sparse.transform(L0.pipeline(DOUBLED).on("x").as("y"))).doubles("y"),
        "a map over 64 partitions, most of them empty");
    assertArrayEquals(
        new long[] {0, 1, 3, 6, 10, 15, 21, 28, 36, 45},
        CollectedColumns.of(sparse.transform(L0.pipeline(RUNNING).on("id").as("s"))).longs("s"),
        "a scan carries its sums over the empty partitions");
    Dataset<Row> oneRow = sparse.where("id = 5");
    assertEquals(7.5, single(oneRow.transform(L0.pipeline(SUM).on("x"))));
    assertEquals(15.0, single(oneRow.transform(L0.pipeline(DOUBLED).on("x"))));
  }

  @Test
  void nanInfinitiesAndSignedZerosMapWithSparkSqlsBits() {
    StructType schema = new StructType().add("x", DataTypes.DoubleType, false);
    List<Row> rows =
        List.of(
            RowFactory.create(Double.NaN),
            RowFactory.create(Double.POSITIVE_INFINITY),
            RowFactory.create(Double.NEGATIVE_INFINITY),
            RowFactory.create(-0.0),
            RowFactory.create(Double.MIN_VALUE),
            RowFactory.create(Double.MAX_VALUE));
    Dataset<Row> values = spark.createDataFrame(rows, schema).repartition(2).cache();
    try {
      assertBitIdentical(
          CollectedColumns.of(values.selectExpr("x * 2.0D AS y")).doubles("y"),
          CollectedColumns.of(values.transform(L0.pipeline(DOUBLED).on("x").as("y"))).doubles("y"),
          "x * 2 of NaN, infinities, -0.0, the smallest and the largest double");
      assertTrue(Double.isNaN((Double) single(values.transform(L0.pipeline(SUM).on("x")))));
      assertTrue(
          Double.isNaN(
              (Double) single(values.transform(L0.pipeline(SUM).on("x").exactFloatSums()))));
    } finally {
      values.unpersist();
    }
  }

  @Test
  void oddColumnNamesResolveAsSparkResolvesThem() {
    Dataset<Row> odd =
        spark
            .range(0, 5, 1, 2)
            .select(
                expr("id * 1.0D").as("my col"),
                expr("id * 2.0D").as("a-b"),
                expr("id * 3.0D").as("Price"),
                expr("id * 4.0D").as("a`b"));
    assertEquals(10.0, single(odd.transform(L0.pipeline(SUM).on("my col"))));
    assertEquals(20.0, single(odd.transform(L0.pipeline(SUM).on("a-b"))));
    assertEquals(30.0, single(odd.transform(L0.pipeline(SUM).on("price"))));
    assertEquals(40.0, single(odd.transform(L0.pipeline(SUM).on("`a``b`"))));
    Dataset<Row> valued = odd.transform(L0.pipeline(DOUBLED).on("my col").as("valeur €"));
    assertArrayEquals(new String[] {"valeur €"}, valued.columns());
  }

  @Test
  void aColumnOfAnotherTypeIsNamedWithItsSparkType() {
    Dataset<Row> typed =
        spark
            .range(0, 3)
            .select(
                expr("cast(id as int)").as("i"),
                expr("cast(id as float)").as("f"),
                expr("cast(id as decimal(10,2))").as("d"),
                expr("id % 2 = 0").as("b"),
                expr("cast(id as string)").as("s"),
                expr("array(id * 1.0D)").as("a"));
    String[][] columns = {
      {"i", "int"}, {"f", "float"}, {"d", "decimal(10,2)"},
      {"b", "boolean"}, {"s", "string"}, {"a", "array<double>"}
    };
    for (String[] column : columns) {
      assertTrue(
          planningError(CALL_SITE, typed, L0.pipeline(SUM).on(column[0]))
              .contains(
                  "column '"
                      + column[0]
                      + "' has Spark type "
                      + column[1]
                      + ", but parameter 'xs' of 'main([f64] xs)' is [f64]"));
    }
  }

  @Test
  void withValuesThatDoNotFitNameTheParameter() {
    Dataset<Row> sparse = sparse();
    assertTrue(
        planningError(CALL_SITE, sparse, L0.pipeline(SCALED).with("k", 2).on("x"))
            .endsWith(
                "with(\"k\", ...): the parameter has L0 type f64, which takes a java.lang.Double,"
                    + " but the value is a java.lang.Integer"));
    assertTrue(
        planningError(CALL_SITE, sparse, L0.pipeline(SCALED).with("K", 2.0).on("x"))
            .endsWith(
                "with(\"K\", ...) names no parameter of 'main'; its parameters are f64 k, [f64] xs"));
    // Binding the column's parameter by mistake leaves 'k' to the column: the error says how
    // 'k' takes a value.
    assertTrue(
        planningError(CALL_SITE, sparse, L0.pipeline(SCALED).with("xs", new double[] {1.0}).on("x"))
            .endsWith("a driver-side value binds it: with(\"k\", value)"));
    // Every parameter bound leaves nothing for a column to feed.
    String lookup = "fun [f64] main([f64] grid) = map(fn f64 (f64 g) => g * 2.0, grid)";
    assertTrue(
        planningError(CALL_SITE, sparse, L0.pipeline(lookup).with("grid", new double[] {1.0}).on())
            .endsWith(
                "every parameter of 'main' is bound by with(...), so no column feeds it; a pipeline"
                    + " needs at least one parameter that is an array over the rows, fed by a"
                    + " column named in on(...)"));
  }

  @Test
  void nullReplacementsMustFitTheColumn() {
    Dataset<Row> floats =
        spark.range(0, 4, 1, 2).select(expr("if(id = 1, null, cast(id as float))").as("f"));
    String sumF32 = "fun f32 main([f32] xs) = reduce(op +, 0.0f32, xs)";
    assertTrue(
        planningError(CALL_SITE, floats, L0.pipeline(sumF32).on("f").nullAs("f", 1e300))
            .endsWith(
                "nullAs(\"f\", 1.0E300) does not fit column 'f', whose elements are f32 (Spark"
                    + " float)"));
    assertEquals(
        Float.floatToIntBits(0.1f + 2.0f + 3.0f),
        Float.floatToIntBits(
            (Float) single(floats.transform(L0.pipeline(sumF32).on("f").nullAs("f", 0.1)))));
  }

  @Test
  void aProgramFailingInATaskNamesTheCallSitePartitionAndRow() {
    Dataset<Row> ks = spark.range(0, 100, 1, 4).select(expr("cast(id - 57 as int)").as("k"));
    String divide = "fun [i32] main([i32] ks) =\n  map(fn i32 (i32 k) => 100 / k, ks)";
    L0Pipeline pipeline = L0.pipeline(divide).on("k");
    SparkException failure =
        assertThrows(SparkException.class, () -> ks.transform(pipeline).collectAsList());
    // Row 57 is row 7 of the third partition of 25 rows.
    assertTrue(
        failure.getMessage().contains("PipelineRunException: L0 pipeline at " + CALL_SITE),
        failure.getMessage());
    assertTrue(
        failure
            .getMessage()
            .contains(
                ": partition 2, row 7: <inline L0 program>:2:29: /: integer division by zero"),
        failure.getMessage());
  }

  @Test
  void pipelinesComposeWithUnionsJoinsSubqueriesAndCaches() {
    Dataset<Row> sparse = sparse();
    Dataset<Row> doubled = sparse.transform(L0.pipeline(DOUBLED).on("x").as("y").carry("id"));
    assertEquals(135.0, single(doubled.transform(L0.pipeline(SUM).on("y"))));
    assertEquals(270.0, single(doubled.union(doubled).transform(L0.pipeline(SUM).on("y"))));
    Dataset<Row> total = sparse.transform(L0.pipeline(SUM).on("x").as("total"));
    assertBitIdentical(
        CollectedColumns.of(sparse.selectExpr("x / 67.5D AS share")).doubles("share"),
        CollectedColumns.of(sparse.crossJoin(total).selectExpr("x / total AS share"))
            .doubles("share"),
        "each row's share of a pipeline's total");
    assertEquals(
        "[67.5,67.5]",
        total.crossJoin(total.withColumnRenamed("total", "again")).collectAsList().get(0) + "");
    total.createOrReplaceTempView("hostile_total");
    assertEquals(1.0, single(spark.sql("SELECT (SELECT total FROM hostile_total) / 67.5D")));
    String inSubquery =
        L0.explainString(spark.sql("SELECT (SELECT total FROM hostile_total) / 67.5D"));
    assertTrue(inSubquery.contains(": reduce [total] <- [x], 1 kernel"), inSubquery);
    Dataset<Row> cached = doubled.cache();
    try {
      assertEquals(135.0, single(cached.transform(L0.pipeline(SUM).on("y"))));
      Dataset<Row> overCache = cached.transform(L0.pipeline(SUM).on("y"));
      assertEquals(135.0, single(overCache));
      // L0.explain shows the pipeline that fills the cache as well as the one reading it.
      String explained = L0.explainString(overCache);
      assertTrue(explained.contains("== L0 pipeline 2 of 2 =="), explained);
      assertTrue(explained.contains(": rows [y] <- [x], 1 kernel"), explained);
      assertTrue(explained.contains(": reduce [_1] <- [y], 1 kernel"), explained);
    } finally {
      cached.unpersist();
    }
  }
}
