package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.plan.L0PipelineNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One pipeline's output used twice in a query (self-joins, joins of two aggregations over it,
 * unions with itself): Spark must give the second use fresh attribute ids, as it does for its own
 * operators, and the results must be those of the same query written with Spark expressions.
 */
class L0PipelineSelfJoinTest {
  private static final String PLUS_ONE =
      "fun [i64] main([i64] x) = map(fn i64 (i64 v) => v + 1i64, x)";
  private static final String TIMES_THREE =
      "fun [i64] main([i64] y) = map(fn i64 (i64 v) => 3i64 * v, y)";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(L0PipelineSelfJoinTest.class, Map.of());
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  /** 1000 rows, x = 0..9 a hundred times each. */
  private static Dataset<Row> tens() {
    return spark.range(0, 1_000, 1, 2).select(col("id").mod(10).as("x"));
  }

  private static Dataset<Row> plusOne() {
    return tens().transform(L0.pipeline(PLUS_ONE).on("x").as("y"));
  }

  /** What {@link #plusOne} computes, as a Spark expression. */
  private static Dataset<Row> plusOneInSpark() {
    return tens().select(col("x").plus(1).as("y"));
  }

  @Test
  void selfJoinOnTheOutputColumn() {
    Dataset<Row> out = plusOne();
    Dataset<Row> expected = plusOneInSpark();

    assertEquals(100_000L, out.join(out, "y").count());
    assertEquals(
        sorted(expected.join(expected, "y").groupBy("y").count()),
        sorted(out.join(out, "y").groupBy("y").count()));
  }

  @Test
  void selfJoinOfACachedOutputReadsTheCacheOnBothSides() {
    Dataset<Row> out = plusOne().cache();
    try {
      Dataset<Row> joined = out.join(out, "y");
      LogicalPlan withCachedData =
          ((org.apache.spark.sql.classic.Dataset<Row>) joined).queryExecution().withCachedData();
      assertEquals(
          2,
          withCachedData.collectLeaves().count(leaf -> leaf instanceof InMemoryRelation),
          () -> "plan: " + withCachedData);
      assertEquals(100_000L, joined.count());
    } finally {
      out.unpersist(true);
    }
  }

  @Test
  void joinOfTwoAggregationsOverTheSameOutput() {
    Dataset<Row> out = plusOne();
    Dataset<Row> expected = plusOneInSpark();

    List<Row> joined =
        sorted(out.groupBy("y").count().join(out.groupBy("y").agg(sum("y").as("total")), "y"));
    assertEquals(10, joined.size());
    assertEquals(
        sorted(
            expected
                .groupBy("y")
                .count()
                .join(expected.groupBy("y").agg(sum("y").as("total")), "y")),
        joined);
  }

  @Test
  void unionOfTheOutputWithItself() {
    Dataset<Row> out = plusOne();
    Dataset<Row> expected = plusOneInSpark();

    assertEquals(2_000L, out.union(out).count());
    assertEquals(sorted(expected.union(expected)), sorted(out.union(out)));
  }

  @Test
  void bothSidesOfASelfJoinKeepOneFusedPipelineWithTheSameResultButTheirOwnOutputIds() {
    Dataset<Row> out = plusOne().transform(L0.pipeline(TIMES_THREE).on("y").as("z"));
    Dataset<Row> expected = plusOneInSpark().select(col("y").multiply(3).as("z"));
    Dataset<Row> joined = out.join(out, "z");

    List<L0PipelineNode> nodes =
        pipelineNodes(
            ((org.apache.spark.sql.classic.Dataset<Row>) joined).queryExecution().optimizedPlan());
    assertEquals(2, nodes.size(), () -> "one fused node per side: " + nodes);
    assertTrue(
        nodes.get(0).sameResult(nodes.get(1)), () -> "both sides compute the same: " + nodes);
    assertFalse(
        nodes.get(0).outputSet().intersect(nodes.get(1).outputSet()).nonEmpty(),
        () -> "each side has its own output ids: " + nodes);
    assertEquals(
        sorted(expected.join(expected, "z").groupBy("z").count()),
        sorted(joined.groupBy("z").count()));
  }

  /** The pipeline nodes of {@code plan}, in pre-order (the left side of a join first). */
  private static List<L0PipelineNode> pipelineNodes(LogicalPlan plan) {
    List<L0PipelineNode> found = new ArrayList<>();
    if (plan instanceof L0PipelineNode) {
      found.add((L0PipelineNode) plan);
    }
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      found.addAll(pipelineNodes(child));
    }
    return found;
  }

  private static List<Row> sorted(Dataset<Row> df) {
    List<Row> rows = new ArrayList<>(df.collectAsList());
    rows.sort(Comparator.comparing(Row::toString));
    return rows;
  }
}
