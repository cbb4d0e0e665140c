package dev.l0.jobs.risk;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkEnv;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Concat;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Lower;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.LogicalRDD;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.exchange.BroadcastExchangeExec;
import org.apache.spark.sql.execution.exchange.ReusedExchangeExec;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The work of the risk batch's inputs stage ({@link RiskInputs#load}) on a real local[2] Spark,
 * over a small synthetic portfolio with barrier contracts: its Spark jobs, the plan of the
 * portfolio's checks, and the checkpoint of its numbered frames.
 */
class RiskInputsTest {
  static SparkSession spark;
  @TempDir static Path folder;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("RiskInputsTest")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  /** A synthetic portfolio of 2,000 options and 30 path-dependent contracts on 20 underlyings. */
  static RiskSettings settings() throws Exception {
    Path config = folder.resolve("small.properties");
    Files.write(
        config,
        List.of(
            "risk.synthetic.positions=2000",
            "risk.synthetic.underlyings=20",
            "risk.synthetic.pathContracts=30"));
    RiskSettings settings =
        RiskSettings.parse(
            new String[] {
              "--config", config.toString(), "--out", folder.resolve("out").toString()
            });
    RiskBatchJob.sessionDefaults(spark, settings);
    return settings;
  }

  /**
   * The stage's Spark jobs, fewer than the 30 it ran: each input is numbered by its checkpoint and
   * one pass without a shuffle (an aggregate of the runs was two jobs under adaptive execution),
   * the synthetic portfolio is not sorted (its partitions hold it in id order). No local frame is
   * broadcast: Spark runs a job to collect one it broadcasts, and it broadcast the synthetic
   * market's spots to the synthetic portfolio, the synthetic loadings to their pairs and each
   * input's run offsets to its numbered rows (five jobs; the spots and loadings are now literals,
   * the offsets a map, that the tasks carry). The portfolio's checks broadcast the correlation
   * pairs once, reused by the two other joins (three broadcasts of the cached pairs before), and
   * compute its instrument and type keys, lower(trim(...)), once each, under the aggregate (each
   * was computed again in about 20 of its conditions). The aggregate tests whether a row has a
   * problem without building its message (a concat of the file, row, column and value): each row's
   * message was built, in every check's branch, only to be tested for null.
   */
  @Test
  void theInputsStageRunsFewJobsBroadcastsThePairsOnceAndComputesEachKeyOnce() throws Exception {
    RiskSettings settings = settings();
    AtomicInteger jobs = new AtomicInteger();
    SparkListener counter =
        new SparkListener() {
          @Override
          public void onJobStart(SparkListenerJobStart start) {
            jobs.incrementAndGet();
          }
        };
    List<QueryExecution> queries = Collections.synchronizedList(new ArrayList<>());
    QueryExecutionListener recorder =
        new QueryExecutionListener() {
          @Override
          public void onSuccess(String name, QueryExecution qe, long durationNs) {
            queries.add(qe);
          }

          @Override
          public void onFailure(String name, QueryExecution qe, Exception exception) {}
        };
    spark.sparkContext().listenerBus().waitUntilEmpty();
    spark.sparkContext().addSparkListener(counter);
    spark.listenerManager().register(recorder);
    RiskInputs.Inputs inputs;
    try {
      inputs = RiskInputs.load(spark, settings);
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark.sparkContext().removeSparkListener(counter);
      spark.listenerManager().unregister(recorder);
    }
    assertEquals(2030L, inputs.portfolio().count());
    // the portfolio's checks: the stage's last query
    SparkPlan checks =
        ((AdaptiveSparkPlanExec) queries.get(queries.size() - 1).executedPlan()).executedPlan();
    List<SparkPlan> nodes = nodes(checks).toList();
    assertAll(
        () -> assertTrue(jobs.get() <= 17, jobs.get() + " Spark jobs"),
        () ->
            assertEquals(
                0,
                nodes.stream()
                    .flatMap(node -> CollectionConverters.asJava(node.expressions()).stream())
                    .flatMap(RiskInputsTest::expressions)
                    .filter(Concat.class::isInstance)
                    .count(),
                "no message built in the checks' aggregate: " + checks.treeString()),
        () ->
            assertEquals(
                1,
                nodes.stream()
                    .filter(node -> node instanceof BroadcastExchangeExec && readsPairs(node))
                    .count(),
                checks.treeString()),
        () ->
            assertEquals(
                2,
                nodes.stream()
                    .filter(node -> node instanceof ReusedExchangeExec && readsPairs(node))
                    .count(),
                checks.treeString()),
        () ->
            assertEquals(
                2,
                nodes.stream()
                    .flatMap(node -> CollectionConverters.asJava(node.expressions()).stream())
                    .flatMap(RiskInputsTest::expressions)
                    .filter(Lower.class::isInstance)
                    .count(),
                "lower(trim(instrument)) and lower(trim(type)), once each"));
  }

  /**
   * The numbered frames are checkpointed reliably where the session has a checkpoint directory: an
   * executor lost, with its blocks, then does not fail the run, whose inputs are read again from
   * the checkpoint's files; without one they are local checkpoints, in the executors' block
   * managers, and the loss fails the run, as it did in every session.
   */
  @Test
  void theNumberedInputsSurviveLostBlocksWhereTheSessionHasACheckpointDirectory() throws Exception {
    RiskSettings settings = settings();
    Dataset<Row> local = RiskInputs.load(spark, settings).portfolio();
    List<RDD<?>> localRdds = checkpoints(local);
    assertTrue(localRdds.size() >= 3, localRdds.size() + " checkpoints");
    assertTrue(localRdds.stream().allMatch(rdd -> rdd.getCheckpointFile().isEmpty()));
    localRdds.forEach(rdd -> SparkEnv.get().blockManager().removeRdd(rdd.id()));
    Exception lost = assertThrows(Exception.class, local::count);
    assertTrue(
        Stream.iterate((Throwable) lost, e -> e != null, Throwable::getCause)
            .anyMatch(e -> String.valueOf(e.getMessage()).contains("Checkpoint block")),
        lost::toString);

    Path checkpoints = folder.resolve("checkpoints");
    spark.sparkContext().setCheckpointDir(checkpoints.toString());
    try {
      Dataset<Row> reliable = RiskInputs.load(spark, settings).portfolio();
      List<RDD<?>> reliableRdds = checkpoints(reliable);
      assertEquals(localRdds.size(), reliableRdds.size());
      for (RDD<?> rdd : reliableRdds) {
        assertTrue(rdd.getCheckpointFile().isDefined(), rdd.toDebugString());
        assertTrue(Files.isDirectory(Path.of(java.net.URI.create(rdd.getCheckpointFile().get()))));
        SparkEnv.get().blockManager().removeRdd(rdd.id());
      }
      assertEquals(2030L, reliable.count());
    } finally {
      spark.sparkContext().checkpointDir_$eq(scala.Option.empty());
    }
  }

  /** The checkpointed frames {@code frame} reads. */
  static List<RDD<?>> checkpoints(Dataset<Row> frame) {
    List<RDD<?>> rdds = new ArrayList<>();
    collectCheckpoints(frame.queryExecution().analyzed(), rdds);
    return rdds;
  }

  private static void collectCheckpoints(LogicalPlan plan, List<RDD<?>> rdds) {
    if (plan instanceof LogicalRDD logical && logical.rdd().isCheckpointed()) {
      rdds.add(logical.rdd());
    }
    CollectionConverters.asJava(plan.children()).forEach(child -> collectCheckpoints(child, rdds));
  }

  /** Whether {@code node} gives the correlation pairs joined with the portfolio. */
  private static boolean readsPairs(SparkPlan node) {
    return CollectionConverters.asJava(node.output()).stream()
        .anyMatch(attribute -> attribute.name().startsWith("given_correlation"));
  }

  /** {@code plan}'s nodes, the plans of its adaptive query stages included. */
  static Stream<SparkPlan> nodes(SparkPlan plan) {
    Stream<SparkPlan> below =
        plan instanceof QueryStageExec stage
            ? nodes(stage.plan())
            : CollectionConverters.asJava(plan.children()).stream().flatMap(RiskInputsTest::nodes);
    return Stream.concat(Stream.of(plan), below);
  }

  static Stream<Expression> expressions(Expression expression) {
    return Stream.concat(
        Stream.of(expression),
        CollectionConverters.asJava(expression.children()).stream()
            .flatMap(RiskInputsTest::expressions));
  }
}
