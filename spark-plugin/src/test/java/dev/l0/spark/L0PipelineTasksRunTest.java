package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelector;
import dev.l0.spark.plan.L0PipelineExec;
import dev.l0.spark.plan.TasksRun;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
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
 * Where a pipeline's tasks ran, on a real local[2] session: the node's metrics count each task that
 * ran the pipeline's programs on its backend, and {@link L0#explainString} says so after the query
 * ran.
 */
class L0PipelineTasksRunTest {
  private static final int PARTITIONS = 3;
  private static final String DOUBLING =
      "fun [i64] main([i64] x) = map(fn i64 (i64 v) => 2i64 * v, x)";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(L0PipelineTasksRunTest.class, Map.of());
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @AfterEach
  void defaultDevice() {
    spark.conf().unset(L0Settings.DEVICE);
  }

  private static Dataset<Row> numbers() {
    List<Row> rows = LongStream.range(0, 30).mapToObj(i -> RowFactory.create(i)).toList();
    return SparkTestSupport.frame(
        spark, rows, new StructType().add("x", DataTypes.LongType, false), PARTITIONS);
  }

  private static TasksRun tasksRun(Dataset<Row> df) {
    List<L0PipelineExec> nodes = SparkTestSupport.pipelineExecs(df);
    assertEquals(1, nodes.size());
    return nodes.get(0).tasksRun();
  }

  @Test
  void withDeviceJvmEveryPartitionRunsOnTheJvmBackend() {
    spark.conf().set(L0Settings.DEVICE, "jvm");
    Dataset<Row> doubled = numbers().transform(L0.pipeline(DOUBLING).on("x").as("y"));
    assertTrue(
        L0.explainString(doubled).contains("\nran: no task has run it\n"),
        L0.explainString(doubled));

    assertEquals(30, doubled.collectAsList().size());

    assertEquals(new TasksRun(0, PARTITIONS, 0), tasksRun(doubled));
    String explained = L0.explainString(doubled);
    assertTrue(
        explained.contains("\nran: 0 tasks on the GPU, 3 tasks on the JVM backend\n"), explained);
  }

  @Test
  void withDeviceAutoThePartitionsRunWhereThisMachinesCudaPutsThem() {
    boolean cuda = DeviceSelector.select(DeviceKind.AUTO).chosen() == DeviceKind.CUDA;
    Dataset<Row> doubled = numbers().transform(L0.pipeline(DOUBLING).on("x").as("y"));

    assertEquals(30, doubled.collectAsList().size());

    assertEquals(
        cuda ? new TasksRun(PARTITIONS, 0, 0) : new TasksRun(0, PARTITIONS, 0), tasksRun(doubled));
    assertTrue(
        L0.explainString(doubled)
            .contains(
                cuda
                    ? "\nran: 3 tasks on the GPU, 0 tasks on the JVM backend\n"
                    : "\nran: 0 tasks on the GPU, 3 tasks on the JVM backend\n"),
        L0.explainString(doubled));
  }

  @Test
  void aReduceCountsItsPartitionsTasksAndAScanBothOfItsPasses() {
    spark.conf().set(L0Settings.DEVICE, "jvm");
    Dataset<Row> total =
        numbers().transform(L0.pipeline("fun i64 main([i64] x) = reduce(op +, 0i64, x)").on("x"));
    assertEquals(435L, total.collectAsList().get(0).getLong(0));
    assertEquals(
        new TasksRun(0, PARTITIONS, 0),
        tasksRun(total),
        "one task per partition; the final combine of the partials runs no pipeline program");

    Dataset<Row> running =
        numbers().transform(L0.pipeline("fun [i64] main([i64] x) = scan(op +, 0i64, x)").on("x"));
    assertEquals(435L, running.collectAsList().get(29).getLong(0));
    assertEquals(
        new TasksRun(0, 2 * PARTITIONS, 0),
        tasksRun(running),
        "a task per partition for its total, and one for its rows");
  }

  @Test
  void explainFindsTheTasksOfCachedDataAndOfSubqueries() {
    spark.conf().set(L0Settings.DEVICE, "jvm");
    String ranOnJvm = "\nran: 0 tasks on the GPU, 3 tasks on the JVM backend\n";
    String sum = "fun i64 main([i64] y) = reduce(op +, 0i64, y)";
    Dataset<Row> cached = numbers().transform(L0.pipeline(DOUBLING).on("x").as("y")).cache();
    try {
      Dataset<Row> total = cached.transform(L0.pipeline(sum).on("y").as("total"));
      assertEquals(870L, total.collectAsList().get(0).getLong(0));
      String explained = L0.explainString(total);
      assertEquals(
          2,
          explained.split(ranOnJvm, -1).length - 1,
          () -> "the pipeline that filled the cache and the one that read it:\n" + explained);

      total.createOrReplaceTempView("tasks_run_total");
      Dataset<Row> query = spark.sql("SELECT (SELECT total FROM tasks_run_total) + 1");
      assertEquals(871L, query.collectAsList().get(0).getLong(0));
      String inSubquery = L0.explainString(query);
      assertTrue(inSubquery.contains("== L0 pipeline 2 of 2 =="), inSubquery);
      assertEquals(2, inSubquery.split(ranOnJvm, -1).length - 1, inSubquery);
    } finally {
      cached.unpersist();
    }
  }

  @Test
  void anActionThatPlansAQueryOfItsOwnLeavesTheDatasetsPlanUnrun() {
    Dataset<Row> doubled = numbers().transform(L0.pipeline(DOUBLING).on("x").as("y"));

    assertEquals(30, doubled.count());

    String explained = L0.explainString(doubled);
    assertTrue(explained.contains("\nran: no task has run it\n"), explained);
  }
}
