package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.cli.BlackScholesReference;
import dev.l0.jobs.BlackScholesParquetBenchmark;
import dev.l0.jobs.BlackScholesSparkJob;
import dev.l0.spark.cluster.AppJar;
import dev.l0.spark.cluster.ChildJvm;
import dev.l0.spark.cluster.SparkDistribution;
import dev.l0.spark.cluster.StandaloneCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Black-Scholes job submitted as a user submits it: {@code org.apache.spark.deploy.SparkSubmit}
 * in its own JVM, whose class path is Spark's jars only, with {@code --jars} the shaded plugin jar
 * and the job in an application jar, with the program and the options it reads on the driver (the
 * plugin jar carries neither); first on {@code local[2]}, then on a standalone Master and Worker
 * started on 127.0.0.1 (where the executors, in the Worker's JVMs, get L0 from the plugin jar
 * alone). Each asserts the job's PASS verdict on the 40 PARSEC reference options. Then the Parquet
 * benchmark on 20,000 options on a standalone cluster: its scans under the pipeline read with L0's
 * own Parquet reader in the executors' JVMs, with every price Spark SQL's.
 */
class SparkSubmitTest {
  private static final String JOB = BlackScholesSparkJob.class.getName();
  private static final String PARQUET_BENCHMARK = BlackScholesParquetBenchmark.class.getName();
  private static final Duration CLUSTER_START = Duration.ofSeconds(90);
  private static final Duration JOB_RUN = Duration.ofSeconds(240);
  private static final Pattern VERDICT =
      Pattern.compile(
          "(?m)^options: 40, max \\|price - reference\\|: (\\S+), tolerance 1e-04: PASS$");

  @TempDir static Path folder;
  private static SparkDistribution spark;
  private static Path pluginJar;
  private static Path appJar;

  @BeforeAll
  static void buildDistributionAndJars() throws IOException {
    String pluginJarProperty = System.getProperty("l0.sparkPluginJar");
    assertTrue(
        pluginJarProperty != null,
        "system property l0.sparkPluginJar (set in integration-tests/pom.xml) is missing");
    pluginJar = Path.of(pluginJarProperty);
    assertTrue(
        Files.isRegularFile(pluginJar),
        "the shaded plugin jar "
            + pluginJar
            + " does not exist: run the test in Maven's package phase (mvn package -pl integration-tests -am)");
    spark = SparkDistribution.ofThisClassPath(folder.resolve("spark-home"));
    // the jobs read P0 and the reference options on the driver: the application jar carries them
    appJar =
        AppJar.ofPackageOf(
            BlackScholesSparkJob.class,
            folder.resolve("l0-jobs.jar"),
            BlackScholesReference.PROGRAM_RESOURCE,
            BlackScholesReference.DEFAULT_OPTIONS);
  }

  /** Removes the jar links before JUnit deletes the folder (which would warn about each). */
  @AfterAll
  static void deleteDistribution() throws IOException {
    spark.delete();
  }

  @Test
  void blackScholesJobPassesThroughSparkSubmitOnLocal2() throws Exception {
    assertPasses(submit("local[2]", "spark-submit-local", List.of(), JOB), () -> "");
  }

  @Test
  void blackScholesJobPassesOnAStandaloneMasterAndWorker() throws Exception {
    try (StandaloneCluster cluster =
        StandaloneCluster.start(spark, jvmOptions(), folder, CLUSTER_START)) {
      Submission submission = submitTo(cluster, "spark-submit-standalone", JOB);
      assertPasses(submission, cluster::describe);
      assertTrue(
          cluster.workerOutput().contains("Asked to launch executor"),
          () -> "the Worker launched no executor\n" + cluster.describe());
    }
  }

  @Test
  void parquetBenchmarkReadsWithL0sReaderInTheExecutorsOfAStandaloneCluster() throws Exception {
    try (StandaloneCluster cluster =
        StandaloneCluster.start(spark, jvmOptions(), folder, CLUSTER_START)) {
      Submission submission = submitTo(cluster, "spark-submit-parquet", PARQUET_BENCHMARK, "20000");
      assertExitedCleanly(submission, cluster::describe);
      String summary =
          submission
              .output()
              .lines()
              .filter(line -> line.contains("\"bit_identical\""))
              .findFirst()
              .orElseThrow(
                  () -> new AssertionError("no summary line\n" + submission.description()));
      assertTrue(summary.contains("\"bit_identical\": true"), summary);
      assertTrue(summary.contains("Format: Parquet, L0 reader"), summary);
      assertTrue(summary.contains("\"master\": \"spark://"), summary);
    }
  }

  /** How a SparkSubmit process ended: its exit code and output. */
  private record Submission(int exitCode, String output, String description) {}

  /** {@link #submit} to a standalone cluster's Master, with two executor cores of 1 GiB. */
  private static Submission submitTo(
      StandaloneCluster cluster, String name, String job, String... jobArguments)
      throws InterruptedException {
    return submit(
        cluster.masterUrl(),
        name,
        List.of("--total-executor-cores", "2", "--executor-memory", "1g"),
        job,
        jobArguments);
  }

  /** Runs SparkSubmit to the end (bounded by JOB_RUN); the process is ended whatever happens. */
  private static Submission submit(
      String master, String name, List<String> options, String job, String... jobArguments)
      throws InterruptedException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--master",
                master,
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.local.dir=" + folder.resolve("spark-local")));
    args.addAll(options);
    args.addAll(List.of("--jars", pluginJar.toString(), "--class", job, appJar.toString()));
    args.addAll(List.of(jobArguments));
    try (ChildJvm submitted =
        ChildJvm.start(
            name,
            jvmOptions(),
            spark.classpath(),
            "org.apache.spark.deploy.SparkSubmit",
            args,
            spark.environment(),
            folder)) {
      int exitCode = submitted.awaitExit(JOB_RUN);
      return new Submission(exitCode, submitted.output(), submitted.describe());
    }
  }

  private static void assertExitedCleanly(Submission submission, Supplier<String> context) {
    assertEquals(
        0,
        submission.exitCode(),
        () -> "SparkSubmit failed\n" + submission.description() + "\n" + context.get());
  }

  private static void assertPasses(Submission submission, Supplier<String> context) {
    assertExitedCleanly(submission, context);
    Matcher verdict = VERDICT.matcher(submission.output());
    assertTrue(
        verdict.find(),
        () ->
            "no PASS verdict for the 40 options\n"
                + submission.description()
                + "\n"
                + context.get());
    assertTrue(Double.parseDouble(verdict.group(1)) <= 1e-4, verdict.group());
  }

  /**
   * The JVM flags Spark needs on Java 17+, Spark's own list (spark-submit's scripts add it; a plain
   * java command does not).
   */
  private static List<String> jvmOptions() {
    return Arrays.asList(JavaModuleOptions.defaultModuleOptionArray());
  }
}
