package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.pipeline.PipelinePlanningException;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * on(...) finds columns as Spark's df.col(...) does: dots, backticks, the session's case
 * sensitivity, ambiguity.
 */
class L0PipelineColumnNamesTest {
  private static final String SUM = "fun i64 main([i64] x) = reduce(op +, 0i64, x)";
  private static final String PLUS_ONE =
      "fun [i64] main([i64] x) = map(fn i64 (i64 v) => v + 1i64, x)";
  private static final List<Row> FORTY_FIVE = List.of(RowFactory.create(45L));
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(L0PipelineColumnNamesTest.class, Map.of());
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @AfterEach
  void resetCaseSensitivity() {
    spark.conf().unset("spark.sql.caseSensitive");
  }

  private static Dataset<Row> tenAs(String name) {
    return spark.range(0, 10, 1, 2).select(col("id").as(name));
  }

  @Test
  void aColumnWhoseNameHasADotIsFoundPlainOrBackticked() {
    Dataset<Row> dotted = tenAs("a.b");
    assertEquals(FORTY_FIVE, dotted.transform(L0.pipeline(SUM).on("a.b")).collectAsList());
    assertEquals(FORTY_FIVE, dotted.transform(L0.pipeline(SUM).on("`a.b`")).collectAsList());
    Dataset<Row> fused =
        dotted
            .transform(L0.pipeline(PLUS_ONE).on("`a.b`").as("c.d"))
            .transform(L0.pipeline(SUM).on("c.d"));
    assertEquals(1, SparkTestSupport.pipelineExecs(fused).size());
    assertEquals(List.of(RowFactory.create(55L)), fused.collectAsList());
  }

  @Test
  void caseIsIgnoredUnlessTheSessionIsCaseSensitive() {
    Dataset<Row> prices = tenAs("Price");
    assertEquals(FORTY_FIVE, prices.transform(L0.pipeline(SUM).on("price")).collectAsList());
    spark.conf().set("spark.sql.caseSensitive", "true");
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class, () -> prices.transform(L0.pipeline(SUM).on("price")));
    assertTrue(
        error
            .getMessage()
            .endsWith("the input has no column 'price'; its columns are Price bigint"),
        error.getMessage());
    assertEquals(FORTY_FIVE, prices.transform(L0.pipeline(SUM).on("Price")).collectAsList());
  }

  @Test
  void twoColumnsOfTheSameNameAfterAJoinAreAmbiguous() {
    Dataset<Row> left = spark.range(0, 3, 1, 1).select(col("id").as("k"), col("id").as("x"));
    Dataset<Row> right =
        spark.range(0, 3, 1, 1).select(col("id").as("k"), col("id").multiply(100).as("x"));
    Dataset<Row> joined = left.join(right, "k");
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class, () -> joined.transform(L0.pipeline(SUM).on("x")));
    assertTrue(
        error.getMessage().contains("column 'x' is ambiguous: 2 of the input's columns match 'x'"),
        error.getMessage());
    Dataset<Row> renamed = left.join(right.withColumnRenamed("x", "x_right"), "k");
    assertEquals(
        List.of(RowFactory.create(300L)),
        renamed.transform(L0.pipeline(SUM).on("x_right")).collectAsList());
  }
}
