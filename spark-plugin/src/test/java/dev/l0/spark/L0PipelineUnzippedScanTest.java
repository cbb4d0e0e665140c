package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A scan of tuples taken apart by {@code unzip}, directly or through a name, runs as a SCAN
 * pipeline: one output column per component, the running totals carried across partitions and
 * batches, as the scan returned whole gives them.
 */
class L0PipelineUnzippedScanTest {
  private static final StructType INPUT =
      new StructType().add("x", DataTypes.DoubleType, false).add("k", DataTypes.LongType, false);
  private static final String SCAN =
      "scan(fn {f64, i64} (f64 a, i64 b, f64 c, i64 d) => {a + c, b * d}, {0.0, 1i64},"
          + " zip(xs, ks))";
  private static final int ROWS = 23;

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineUnzippedScanTest.class, Map.of(L0Settings.BATCH_ROWS, "4"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void anUnzippedScanGivesTheRunningTotalsOnOneOrSeveralPartitions() {
    String direct = "fun {[f64], [i64]} main([f64] xs, [i64] ks) =\n  unzip(" + SCAN + ")\n";
    String named =
        "fun {[f64], [i64]} main([f64] xs, [i64] ks) =\n  let s = " + SCAN + " in\n  unzip(s)\n";
    String whole = "fun [{f64, i64}] main([f64] xs, [i64] ks) =\n  " + SCAN + "\n";
    for (int partitions : new int[] {1, 3, 5}) {
      for (String program : List.of(direct, named)) {
        Dataset<Row> scanned =
            SparkTestSupport.frame(spark, input(), INPUT, partitions)
                .transform(L0.pipeline(program).on("x", "k").as("sum", "product"));
        assertEquals(List.of("sum", "product"), List.of(scanned.columns()), program);
        assertEquals(expected(), scanned.collectAsList(), partitions + " partitions: " + program);
        Dataset<Row> returnedWhole =
            SparkTestSupport.frame(spark, input(), INPUT, partitions)
                .transform(L0.pipeline(whole).on("x", "k").as("sum", "product"));
        assertEquals(returnedWhole.collectAsList(), scanned.collectAsList(), program);
      }
    }
  }

  /** Row i: x = i + 1 (sums exact in f64), k = 1 + i % 3 (products within i64). */
  private static List<Row> input() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(RowFactory.create((double) (i + 1), (long) (1 + i % 3)));
    }
    return rows;
  }

  /** The running sums and products of {@link #input()}, by hand. */
  private static List<Row> expected() {
    List<Row> rows = new ArrayList<>();
    double sum = 0;
    long product = 1;
    for (Row row : input()) {
      sum += row.getDouble(0);
      product *= row.getLong(1);
      rows.add(RowFactory.create(sum, product));
    }
    return rows;
  }
}
