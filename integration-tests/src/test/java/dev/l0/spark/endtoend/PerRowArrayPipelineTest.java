package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.jvm.PathBenchmark;
import dev.l0.spark.L0;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A pipeline whose rows each build a 256-step path in a per-row array (a loop with in-place
 * updates, then a sum and a maximum of it) runs as a kernel on the JVM backend inside a Spark job
 * on local[2]: the node's fallbacks metric is 0 (no kernel ran on the optimiser's evaluator), and
 * every value equals the same code as a Java loop, bit for bit.
 */
class PerRowArrayPipelineTest {
  private static final int ROWS = 20_000;
  private static final StructType SCHEMA =
      new StructType()
          .add("seed", DataTypes.LongType, false)
          .add("spot", DataTypes.DoubleType, false)
          .add("vol", DataTypes.DoubleType, false);

  @Test
  void aPerRowArrayPipelineRunsAsAKernelAndEqualsAJavaLoop() throws IOException {
    SparkSession spark =
        LocalSpark.builder(PerRowArrayPipelineTest.class, 2)
            .config("spark.plugins", LocalSpark.L0_PLUGIN)
            .config("spark.l0.batchRows", "3001")
            .getOrCreate();
    try {
      Random random = new Random(20261125);
      List<Row> rows = new ArrayList<>();
      double[] expected = new double[ROWS];
      double[] path = new double[PathBenchmark.STEPS];
      for (int i = 0; i < ROWS; i++) {
        long seed = random.nextLong();
        double spot = 10 + random.nextDouble() * 190;
        double vol = 0.05 + random.nextDouble() * 0.6;
        rows.add(RowFactory.create(seed, spot, vol));
        expected[i] = PathBenchmark.handWrittenRow(seed, spot, vol, path);
      }
      Dataset<Row> input =
          spark.createDataFrame(
              JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, 3), SCHEMA);
      Dataset<Row> values =
          input.transform(L0.pipeline(program()).on("seed", "spot", "vol").as("value"));
      List<Row> result = values.collectAsList();
      assertEquals(ROWS, result.size());
      for (int i = 0; i < ROWS; i++) {
        assertEquals(
            Double.doubleToRawLongBits(expected[i]),
            Double.doubleToRawLongBits(result.get(i).getDouble(0)),
            "row " + i + ": " + expected[i] + " vs " + result.get(i).getDouble(0));
      }
      List<SparkPlan> nodes = SparkPlans.pipelineNodes(values);
      assertEquals(1, nodes.size(), SparkPlans.explain(values));
      assertTrue(nodes.get(0).toString().contains("1 kernel [map"), nodes.get(0).toString());
      assertEquals(
          0L, CollectionConverters.asJava(nodes.get(0).metrics()).get("fallbacks").value());
      assertEquals(
          (long) ROWS,
          CollectionConverters.asJava(nodes.get(0).metrics()).get("numOutputRows").value());
    } finally {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
  }

  private static String program() throws IOException {
    try (InputStream in =
        PerRowArrayPipelineTest.class.getResourceAsStream(PathBenchmark.PROGRAM)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
