package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.pipeline.PipelinePlanningException;
import dev.l0.spark.plan.L0PipelineExec;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pipeline's output inside larger queries: operators that ship the plan node to tasks (sorts,
 * hash aggregates, sort-merge joins), and Spark's reuse of cached data and exchanges, which must
 * never take one pipeline's result for another's.
 */
class L0PipelineInQueriesTest {
  private static final String PLUS_ONE =
      "fun [i64] main([i64] x) = map(fn i64 (i64 v) => v + 1i64, x)";
  private static final String IDENTITY = "fun [i64] main([i64] x) = map(fn i64 (i64 v) => v, x)";
  private static final String SUM = "fun i64 main([i64] x) = reduce(op +, 0i64, x)";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineInQueriesTest.class,
            Map.of(
                "spark.sql.adaptive.enabled",
                "false",
                "spark.sql.autoBroadcastJoinThreshold",
                "-1"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  private static Dataset<Row> plusOne() {
    return spark
        .range(0, 1_000, 1, 2)
        .select(col("id").mod(10).as("x"))
        .transform(L0.pipeline(PLUS_ONE).on("x").as("y"));
  }

  @Test
  void aReduceOrScanOverAStreamIsAPlanningErrorWhereRowWisePipelinesPlan() {
    Dataset<Row> stream = spark.readStream().format("rate").load().select(col("value").as("x"));

    assertTrue(stream.transform(L0.pipeline(PLUS_ONE).on("x").as("y")).isStreaming());
    PipelinePlanningException reduce =
        assertThrows(
            PipelinePlanningException.class, () -> stream.transform(L0.pipeline(SUM).on("x")));
    assertTrue(
        reduce
            .getMessage()
            .matches(
                "L0 pipeline at L0PipelineInQueriesTest\\.java:\\d+: a reduce pipeline over a "
                    + "streaming DataFrame would reduce each micro-batch on its own, not the "
                    + "stream; apply it to each micro-batch in writeStream\\(\\)\\.foreachBatch"
                    + "\\(\\.\\.\\.\\), or to a DataFrame that is not streaming"),
        reduce::getMessage);
    String scan = "fun [i64] main([i64] x) = scan(op +, 0i64, x)";
    PipelinePlanningException scanned =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                stream
                    .transform(L0.pipeline(PLUS_ONE).on("x").as("y"))
                    .transform(L0.pipeline(scan).on("y")));
    assertTrue(
        scanned
            .getMessage()
            .contains(
                "a scan pipeline over a streaming DataFrame would start again in each "
                    + "micro-batch, not run over the stream;"),
        scanned::getMessage);
  }

  @Test
  void sortsAggregatesAndSortMergeJoinsAbovePipelinesRun() {
    Dataset<Row> out = plusOne();
    Dataset<Row> other =
        spark.range(0, 20, 1, 2).select(col("id").as("y"), col("id").multiply(2).as("z"));
    assertEquals(10, out.distinct().count());
    assertEquals(10, out.groupBy("y").count().collectAsList().size());
    assertEquals(1L, out.orderBy("y").first().getLong(0));
    assertEquals(1_000, out.join(other, "y").collectAsList().size());
  }

  @Test
  void thePhysicalNodeIsCopiedWithoutAnActiveSession() {
    SparkPlan plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) plusOne()).queryExecution().executedPlan();
    SparkSession.clearActiveSession();
    try {
      assertTrue(
          plan.canonicalized().find(node -> node instanceof L0PipelineExec).isDefined(),
          plan::toString);
    } finally {
      SparkSession.setActiveSession(spark);
    }
  }

  @Test
  void pipelinesReadingDifferentStructFieldsAreNeverReusedForEachOther() {
    Dataset<Row> df =
        spark
            .range(0, 5, 1, 1)
            .select(struct(col("id").as("a"), col("id").multiply(100).as("b")).as("s"));
    Dataset<Row> a = df.transform(L0.pipeline(IDENTITY).on("s.a").as("v")).repartition(2, col("v"));
    Dataset<Row> b = df.transform(L0.pipeline(IDENTITY).on("s.b").as("v")).repartition(2, col("v"));
    List<Long> values =
        a.union(b).collectAsList().stream().map(r -> r.getLong(0)).sorted().toList();
    assertEquals(List.of(0L, 0L, 1L, 2L, 3L, 4L, 100L, 200L, 300L, 400L), values);

    Dataset<Row> sumOfA = df.transform(L0.pipeline(SUM).on("s.a").as("total")).cache();
    try {
      assertEquals(List.of(RowFactory.create(10L)), sumOfA.collectAsList());
      assertEquals(
          List.of(RowFactory.create(1_000L)),
          df.transform(L0.pipeline(SUM).on("s.b").as("total")).collectAsList());
    } finally {
      sumOfA.unpersist(true);
    }
  }

  @Test
  void pipelinesWithDifferentNullReplacementsAreNeverReusedForEachOther() {
    StructType schema = new StructType().add("x", DataTypes.DoubleType, true);
    Dataset<Row> df =
        SparkTestSupport.frame(
            spark, List.of(RowFactory.create(1.0), RowFactory.create((Object) null)), schema, 1);
    String identity = "fun [f64] main([f64] x) = map(fn f64 (f64 v) => v, x)";
    Dataset<Row> zeros =
        df.transform(L0.pipeline(identity).on("x").nullAs("x", 0.0).as("y")).cache();
    try {
      assertEquals(List.of(RowFactory.create(1.0), RowFactory.create(0.0)), zeros.collectAsList());
      assertEquals(
          List.of(RowFactory.create(1.0), RowFactory.create(100.0)),
          df.transform(L0.pipeline(identity).on("x").nullAs("x", 100.0).as("y")).collectAsList());
    } finally {
      zeros.unpersist(true);
    }
  }
}
