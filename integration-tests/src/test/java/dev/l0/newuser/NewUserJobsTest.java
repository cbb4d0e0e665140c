package dev.l0.newuser;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark jobs a quant writes from README.md alone, in the thesis's concrete syntax ({@code int},
 * {@code real}), each checked against Spark SQL computing the same thing.
 */
class NewUserJobsTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = NewUserSpark.start(NewUserJobsTest.class);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static Dataset<Row> positions(int rows, int partitions) {
    return spark
        .range(0, rows, 1, partitions)
        .selectExpr(
            "id",
            "CAST(id % 97 AS INT) AS qty",
            "CAST(id AS DOUBLE) / 7.0 AS price",
            "id % 3 = 0 AS flag",
            "CAST(id / 3.0 AS FLOAT) AS weight");
  }

  private static Map<Long, Row> byId(Dataset<Row> df) {
    Map<Long, Row> rows = new HashMap<>();
    for (Row r : df.collectAsList()) {
      rows.put(r.getLong(0), r);
    }
    return rows;
  }

  @Test
  void mapOverADoubleColumnCarriesTheIdAndMatchesSparkSql() {
    Dataset<Row> df = positions(2000, 4);
    String program = "fun [real] main([real] x) = map(fn real (real v) => v * 2.0 + 1.0, x)";
    Dataset<Row> out = df.transform(L0.pipeline(program).on("price").as("y").carry("id"));
    assertEquals(List.of("id", "y"), List.of(out.columns()));
    Map<Long, Row> expected = byId(df.selectExpr("id", "price * 2.0 + 1.0 AS y"));
    Map<Long, Row> actual = byId(out);
    assertEquals(expected.size(), actual.size());
    expected.forEach(
        (id, row) ->
            assertEquals(
                Double.doubleToRawLongBits(row.getDouble(1)),
                Double.doubleToRawLongBits(actual.get(id).getDouble(1)),
                "id " + id));
  }

  @Test
  void filterKeepsTheRowsSparkSqlKeeps() {
    Dataset<Row> df = positions(3000, 3);
    String program = "fun [real] main([real] x) = filter(fn bool (real v) => v > 100.0, x)";
    List<Double> actual = doubles(df.transform(L0.pipeline(program).on("price").as("p")));
    List<Double> expected = doubles(df.where(col("price").gt(100.0)).select("price"));
    actual.sort(null);
    expected.sort(null);
    assertEquals(expected, actual);
  }

  @Test
  void reduceOverManyPartitionsCombinesThePartialsAsSparkSumDoes() {
    Dataset<Row> df = positions(5000, 4).repartition(9);
    String program =
        """
        fun int main([int] q) =
          reduce(op +, 0, map(fn int (int v) => v * 3, q))
        """;
    Dataset<Row> out = df.transform(L0.pipeline(program).on("qty").as("total"));
    List<Row> rows = out.collectAsList();
    assertEquals(1, rows.size());
    long expected = df.selectExpr("SUM(qty * 3)").first().getLong(0);
    assertEquals(expected, rows.get(0).getInt(0));
  }

  @Test
  void exactFloatSumsOfAFilteredMapGiveExactSumsResultOverManyPartitions() {
    String program =
        """
        fun real main([int] q, [real] p) =
          let values = map(fn real (int a, real b) => toReal(a) * b, zip(q, p)) in
          reduce(op +, 0.0, filter(fn bool (real v) => v > 10.0, values))
        """;
    Dataset<Row> df = positions(3000, 5);
    double actual =
        df.transform(L0.pipeline(program).on("qty", "price").as("mv").exactFloatSums())
            .first()
            .getDouble(0);
    double expected =
        df.selectExpr("CAST(qty AS DOUBLE) * price AS v")
            .where("v > 10.0")
            .agg(dev.l0.spark.ExactSums.exactSum(col("v")))
            .first()
            .getDouble(0);
    assertEquals(expected, actual);
  }

  @Test
  void anArrayColumnOfScenarioPricesIsMappedElementWise() {
    Dataset<Row> df =
        positions(400, 2)
            .selectExpr(
                "id",
                "CAST(qty AS DOUBLE) AS q",
                "transform(sequence(0, 4), k -> price * (1.0 + 0.01 * k)) AS prices");
    String program =
        """
        fun [[real]] main([real] qty, [[real]] prices) =
          map(fn [real] (real q, [real] ps) => map(fn real (real p) => q * p, ps),
              zip(qty, prices))
        """;
    Dataset<Row> out =
        df.transform(L0.pipeline(program).on("q", "prices").as("values").carry("id"));
    Map<Long, Row> expected = byId(df.selectExpr("id", "transform(prices, p -> q * p) AS v"));
    Map<Long, Row> actual = byId(out);
    assertEquals(expected.size(), actual.size());
    expected.forEach(
        (id, row) -> assertEquals(row.getList(1), actual.get(id).getList(1), "id " + id));
  }

  @Test
  void booleanIntLongFloatAndDoubleColumnsFeedOneMap() {
    Dataset<Row> df = positions(1000, 2).withColumn("big", col("id").multiply(1_000_000_007L));
    String program =
        """
        fun [real] main([bool] flag, [int] q, [i64] big, [f32] w, [real] p) =
          map(fn real (bool b, int a, i64 c, f32 e, real x) =>
                if b then toReal(a) + f64(c) else f64(e) * x,
              zip(flag, q, big, w, p))
        """;
    Dataset<Row> out =
        df.transform(
            L0.pipeline(program).on("flag", "qty", "big", "weight", "price").as("r").carry("id"));
    Map<Long, Row> expected =
        byId(
            df.selectExpr(
                "id",
                "CASE WHEN flag THEN CAST(qty AS DOUBLE) + CAST(big AS DOUBLE)"
                    + " ELSE CAST(weight AS DOUBLE) * price END AS r"));
    Map<Long, Row> actual = byId(out);
    expected.forEach(
        (id, row) -> assertEquals(row.getDouble(1), actual.get(id).getDouble(1), "id " + id));
  }

  @Test
  void chainedPipelinesFuseIntoOneNodeWithTheResultOfBothSteps() {
    Dataset<Row> df = positions(3000, 3);
    L0Pipeline scale =
        L0.pipeline("fun [real] main([real] x) = map(fn real (real v) => v * 1.5, x)")
            .on("price")
            .as("scaled");
    L0Pipeline total =
        L0.pipeline(
                "fun real main([real] x) = reduce(op +, 0.0, filter(fn bool (real v) => v > 10.0, x))")
            .on("scaled")
            .as("total")
            .exactFloatSums();
    Dataset<Row> out = df.transform(scale).transform(total);
    assertEquals(1, pipelineNodes(out), explain(out));
    double expected =
        df.selectExpr("price * 1.5 AS s")
            .where("s > 10.0")
            .agg(dev.l0.spark.ExactSums.exactSum(col("s")))
            .first()
            .getDouble(0);
    assertEquals(expected, out.first().getDouble(0));
  }

  @Test
  void withBindsAScalarAndAnArrayAndAPipelineCanBeReusedWithOtherValues() {
    Dataset<Row> df = spark.range(0, 6, 1, 2).selectExpr("CAST(id AS INT) AS bucket");
    String program =
        """
        fun [real] main(real scale, [real] curve, [int] buckets) =
          map(fn real (int b) => scale * curve[b % size(curve)], buckets)
        """;
    L0Pipeline base = L0.pipeline(program).on("bucket").as("v");
    double[] curve = {1.0, 2.0, 4.0};
    List<Double> first = doubles(df.transform(base.with("scale", 10.0).with("curve", curve)));
    List<Double> second = doubles(df.transform(base.with("scale", 0.5).with("curve", curve)));
    assertEquals(List.of(10.0, 20.0, 40.0, 10.0, 20.0, 40.0), first);
    assertEquals(List.of(0.5, 1.0, 2.0, 0.5, 1.0, 2.0), second);
  }

  @Test
  void anEmptyDataFrameGivesNoRowsToAMapAndTheNeutralElementToAReduce() {
    Dataset<Row> empty = positions(100, 2).where("id < 0");
    assertEquals(
        0,
        empty
            .transform(
                L0.pipeline("fun [real] main([real] x) = map(fn real (real v) => v + 1.0, x)")
                    .on("price"))
            .count());
    List<Row> total =
        empty
            .transform(L0.pipeline("fun int main([int] q) = reduce(op +, 0, q)").on("qty"))
            .collectAsList();
    assertEquals(1, total.size());
    assertEquals(0, total.get(0).getInt(0));
  }

  @Test
  void aCachedResultIsReusedByLaterQueries() {
    Dataset<Row> df = positions(400, 2);
    Dataset<Row> values =
        df.transform(
                L0.pipeline("fun [real] main([real] x) = map(fn real (real v) => v * v, x)")
                    .on("price")
                    .as("sq")
                    .carry("id"))
            .cache();
    try {
      assertEquals(400, values.count());
      assertTrue(explain(values.where("sq > 1.0")).contains("InMemoryTableScan"));
      Map<Long, Row> expected = byId(df.selectExpr("id", "price * price AS sq"));
      byId(values.where("sq > 1.0"))
          .forEach((id, row) -> assertEquals(expected.get(id).getDouble(1), row.getDouble(1)));
    } finally {
      values.unpersist();
    }
  }

  @Test
  void aScanOverSeveralPartitionsIsTheRunningTotalInRowOrder() {
    Dataset<Row> df = positions(1000, 5);
    List<Row> rows =
        df.transform(L0.pipeline("fun [int] main([int] q) = scan(op +, 0, q)").on("qty"))
            .collectAsList();
    List<Row> quantities = df.select("qty").collectAsList();
    assertEquals(quantities.size(), rows.size());
    int running = 0;
    for (int i = 0; i < rows.size(); i++) {
      running += quantities.get(i).getInt(0);
      assertEquals(running, rows.get(i).getInt(0), "row " + i);
    }
  }

  /**
   * README, "Fusion and where errors show": two pipelines fuse through a select that keeps, drops
   * or reorders the first one's columns, not through one that renames them; either way the second
   * reads the columns it names.
   */
  @Test
  void pipelinesFuseThroughASelectOfColumnsButNotThroughARename() {
    Dataset<Row> df = positions(200, 2);
    L0Pipeline both =
        L0.pipeline(
                """
                fun {[real], [real]} main([real] p, [int] q) =
                  unzip(map(fn {real, real} (real x, int k) => {x + 1.0, toReal(k) * 2.0},
                            zip(p, q)))
                """)
            .on("price", "qty")
            .as("u", "w");
    L0Pipeline difference =
        L0.pipeline(
                "fun [real] main([real] a, [real] b) = map(fn real (real x, real y) => x - y, zip(a, b))")
            .on("u", "w")
            .as("d");
    Dataset<Row> reordered = df.transform(both).select("w", "u").transform(difference);
    Dataset<Row> renamed =
        df.transform(both).select(col("w").as("u"), col("u").as("w")).transform(difference);
    assertEquals(1, pipelineNodes(reordered), explain(reordered));
    assertEquals(2, pipelineNodes(renamed), explain(renamed));
    List<Double> expected = doubles(df.selectExpr("price + 1.0 - CAST(qty AS DOUBLE) * 2.0"));
    assertEquals(expected, doubles(reordered));
    List<Double> negated = new ArrayList<>();
    expected.forEach(d -> negated.add(0.0 - d));
    assertEquals(negated, doubles(renamed));
  }

  @Test
  void explainShowsWhereThePipelineRunsAndItsKernels() {
    Dataset<Row> out =
        positions(100, 2)
            .transform(
                L0.pipeline(
                        "fun real main([int] q, [real] p) = reduce(op +, 0.0, map(fn real (int a, real b) => toReal(a) * b, zip(q, p)))")
                    .on("qty", "price")
                    .as("total"));
    String plan = explain(out);
    assertTrue(
        plan.contains("L0Pipeline reduce [total] <- [qty, price], 1 kernel [redomap], device=auto"),
        plan);
    String l0 = L0.explainString(out);
    assertTrue(l0.contains("redomap"), l0);
  }

  private static String explain(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df)
        .queryExecution()
        .executedPlan()
        .toString();
  }

  private static int pipelineNodes(Dataset<Row> df) {
    return explain(df).split("L0Pipeline", -1).length - 1;
  }

  private static List<Double> doubles(Dataset<Row> df) {
    List<Double> values = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      values.add(r.getDouble(0));
    }
    return values;
  }
}
