package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exact float sums of reduce pipelines on a real local[2] session: the same bits for any
 * partitioning and batch size.
 */
class L0PipelineExactFloatSumsTest {
  private static final StructType VALUES = new StructType().add("x", DataTypes.DoubleType, false);
  private static final String SCALED_SUM =
      "fun f64 main([f64] x) = reduce(op +, 0.0, map(fn f64 (f64 v) => v * 3.0, x))";

  private static SparkSession spark;
  private static List<Row> rows;
  private static long expectedBits;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineExactFloatSumsTest.class, Map.of(L0Settings.DEVICE, "jvm"));
    Random random = new Random(17);
    rows = new ArrayList<>();
    BigDecimal sum = BigDecimal.ZERO;
    for (int i = 0; i < 5_000; i++) {
      double x =
          random.nextInt(8) == 0
              ? (random.nextBoolean() ? 1e16 : -1e16) + random.nextGaussian()
              : random.nextGaussian() * Math.scalb(1.0, random.nextInt(120) - 60);
      rows.add(RowFactory.create(x));
      sum = sum.add(new BigDecimal(x * 3.0));
    }
    expectedBits = Double.doubleToRawLongBits(sum.doubleValue());
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @AfterEach
  void resetSettings() {
    spark.conf().unset(L0Settings.BATCH_ROWS);
    spark.conf().unset(L0Settings.EXACT_FLOAT_SUMS);
  }

  private static long sumBits(Dataset<Row> total) {
    List<Row> result = total.collectAsList();
    assertEquals(1, result.size());
    return Double.doubleToRawLongBits(result.get(0).getDouble(0));
  }

  @Test
  void exactSumsAreTheSameBitsForOneTwoAndFourPartitionsAndAnyBatchSizeWhereOrderedSumsAreNot() {
    Set<Long> exact = new TreeSet<>();
    Set<Long> ordered = new TreeSet<>();
    for (int partitions : new int[] {1, 2, 4}) {
      for (String batchRows : new String[] {"7", "1048576"}) {
        spark.conf().set(L0Settings.BATCH_ROWS, batchRows);
        Dataset<Row> frame = SparkTestSupport.frame(spark, rows, VALUES, partitions);
        exact.add(sumBits(frame.transform(L0.pipeline(SCALED_SUM).on("x").exactFloatSums())));
        ordered.add(sumBits(frame.transform(L0.pipeline(SCALED_SUM).on("x"))));
      }
    }

    assertEquals(Set.of(expectedBits), exact);
    assertTrue(
        ordered.size() > 1,
        "the ordered sums happen to agree across batch sizes and partitionings: " + ordered);
  }

  @Test
  void theSessionKeyMakesEveryReducePipelineWithAFloatSumExactAndExplainSaysSo() {
    spark.conf().set(L0Settings.EXACT_FLOAT_SUMS, "true");
    spark.conf().set(L0Settings.BATCH_ROWS, "7");
    Dataset<Row> frame = SparkTestSupport.frame(spark, rows, VALUES, 3);

    Dataset<Row> total = frame.transform(L0.pipeline(SCALED_SUM).on("x").as("total"));
    Dataset<Row> shifted =
        frame.transform(
            L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v + 1.0, x)").on("x"));

    assertEquals(expectedBits, sumBits(total));
    assertEquals(rows.size(), shifted.count());
    String explained = L0.explainString(total);
    assertTrue(
        explained.contains("reduce [total] <- [x], 1 kernel [map], exact float sums"), explained);
    assertTrue(
        explained.contains("the reduce at <inline L0 program>:1:25 (f64): exact float sum"),
        explained);
  }
}
