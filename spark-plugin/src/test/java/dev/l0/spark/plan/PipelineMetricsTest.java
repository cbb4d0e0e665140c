package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.pipeline.ColumnBatch;
import dev.l0.spark.pipeline.ExecutionSettings;
import dev.l0.spark.pipeline.FloatSums;
import dev.l0.spark.pipeline.PartitionRunner;
import dev.l0.spark.pipeline.PipelinePlanner;
import dev.l0.spark.pipeline.PipelineRequest;
import dev.l0.spark.pipeline.PipelineSpec;
import dev.l0.spark.pipeline.RunStatistics;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * A node's metrics count each task that ran the pipeline's programs once, on its backend, and a
 * task that fell back once, however many of its programs fell back.
 */
class PipelineMetricsTest {
  private static final PipelineSpec SUM =
      PipelinePlanner.plan(
          new PipelineRequest(
              "fun i64 main([i64] x) = reduce(op +, 0i64, x)",
              "sum.l0",
              "main",
              List.of("x"),
              List.of(),
              Map.of(),
              "PipelineMetricsTest.java:1",
              List.of(),
              FloatSums.ORDERED,
              List.of(),
              Map.of()),
          new StructType().add("x", DataTypes.LongType, false));

  /** The statistics of a task that folded two batches (the main program, then the combiner). */
  private static RunStatistics twoBatchesFolded(ExecutionSettings settings) {
    try (PartitionRunner runner = PartitionRunner.open(SUM, settings)) {
      runner.fold(new ColumnBatch(2, List.of(new long[] {1, 2})));
      runner.fold(new ColumnBatch(1, List.of(new long[] {3})));
      return runner.statistics();
    }
  }

  @Test
  void aTaskIsCountedOnceOnItsBackendAndOnceAsAFallback() {
    assumeFalse(CudaProbe.probe(0).isAvailable(), "needs a machine where GPU 0 cannot be used");
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("PipelineMetricsTest")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    try {
      PipelineMetrics metrics = new PipelineMetrics(spark.sparkContext());
      RunStatistics assigned = twoBatchesFolded(new ExecutionSettings(DeviceKind.AUTO, 0, 1));
      assertEquals(2, assigned.fallbacks(), () -> "both programs fell back " + assigned);
      metrics.record(assigned);
      metrics.record(twoBatchesFolded(new ExecutionSettings(DeviceKind.AUTO, -1, 1)));
      try (PartitionRunner idle =
          PartitionRunner.open(SUM, new ExecutionSettings(DeviceKind.AUTO, 0, 1))) {
        metrics.record(idle.statistics());
      }

      assertEquals(
          new TasksRun(0, 2, 1),
          metrics.tasksRun(),
          "two tasks ran on the JVM backend, one of them a fallback; the idle one ran nowhere");
    } finally {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
  }
}
