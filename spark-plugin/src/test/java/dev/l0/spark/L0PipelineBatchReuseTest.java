package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ROWS pipeline refills its input columns for each full batch of {@code spark.l0.jvm.batchRows}
 * rows: an output column that is an input column itself must still hold each batch's own rows when
 * Spark reads it, and a partition's last, shorter batch must not see the rows before it.
 */
class L0PipelineBatchReuseTest {
  private static final int BATCH_ROWS = 64;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineBatchReuseTest.class,
            Map.of("spark.l0.jvm.batchRows", String.valueOf(BATCH_ROWS), "spark.l0.device", "jvm"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void anInputPassedThroughKeepsEachBatchsRows(@TempDir Path folder) {
    String file = folder.resolve("ids.parquet").toString();
    long rows = 10 * BATCH_ROWS + 7;
    spark
        .range(0, rows, 1, 3)
        .select(col("id").cast("double").as("x"), col("id").mod(2).equalTo(0).as("even"))
        .write()
        .parquet(file);
    Dataset<Row> out =
        spark
            .read()
            .parquet(file)
            .transform(
                L0.pipeline(
                        """
            fun {[f64], [bool], [f64]} main([f64] x, [bool] even) =
              {x, even, map(fn f64 (f64 v, bool e) => if e then 2.0 * v else 0.0 - v, zip(x, even))}""")
                    .on("x", "even")
                    .as("x", "even", "y"));

    List<Row> result = out.orderBy("x").collectAsList();
    assertEquals(rows, result.size());
    for (int i = 0; i < rows; i++) {
      Row row = result.get(i);
      assertEquals(i, row.getDouble(0), "row " + i);
      assertEquals(i % 2 == 0, row.getBoolean(1), "row " + i);
      assertEquals(i % 2 == 0 ? 2.0 * i : -i, row.getDouble(2), "row " + i);
    }
    Row sums = out.agg(sum("x"), sum("y")).first();
    assertEquals(rows * (rows - 1) / 2.0, sums.getDouble(0));
  }
}
