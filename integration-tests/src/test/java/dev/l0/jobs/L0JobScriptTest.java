package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/l0-job}'s own reading of its command line (before it builds anything): a usage error
 * exits 2 with a message at once, and never leaves the script looping; the master it prepares the
 * JVM for.
 */
class L0JobScriptTest {
  private static final Path SCRIPT = Path.of("..", "bin", "l0-job").toAbsolutePath().normalize();

  @Test
  void finparWithDataButNoFolderExitsTwoAtOnce() throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(SCRIPT.toString(), "finpar", "OptionPricing", "small", "--data")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    boolean finished = process.waitFor(30, TimeUnit.SECONDS);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroyForcibly); // the looping subshell
      process.destroyForcibly();
    }
    assertTrue(finished, "bin/l0-job finpar ... --data did not finish in 30 s");
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, process.exitValue(), err);
    assertEquals("l0-job finpar: option '--data' needs a value\n", err);
  }

  /**
   * A cluster's master set as {@code risk.master} in the {@code --config} file gets what {@code
   * --master} gets: the L0 jars for the executors ({@code spark.jars}) and a driver not bound to
   * the loopback address; a {@code --master} still overrides the file. The script read {@code
   * --master} alone, so the file's cluster ran without either. The script runs on a fake build (its
   * {@code L0_BUILD_DIR}) and a fake {@code java} on the PATH that records its command.
   */
  @Test
  void riskBatchPreparesForTheClusterMasterOfItsConfigFile(@TempDir Path temp) throws Exception {
    String buildDir = "target/l0-job-script-test";
    Path root = SCRIPT.getParent().getParent();
    Path jobs = Files.createDirectories(root.resolve("integration-tests").resolve(buildDir));
    Path pluginJar =
        Files.createDirectories(root.resolve("spark-plugin").resolve(buildDir))
            .resolve("l0-spark-plugin-0-shaded.jar");
    Path jobsJar = jobs.resolve("l0-integration-tests-0.jar");
    Files.writeString(pluginJar, "");
    Files.writeString(jobsJar, "");
    Files.writeString(jobs.resolve("l0-job.classpath"), "");
    Files.writeString(jobs.resolve("l0-job.jvm-options"), ""); // newer than every source: built
    Path fakeJava = Files.createDirectories(temp.resolve("bin")).resolve("java");
    Files.writeString(
        fakeJava,
        "#!/bin/sh\nprintf '%s\\n' \"SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-}\" \"$@\" > \"$JAVA_COMMAND\"\n");
    assertTrue(fakeJava.toFile().setExecutable(true));
    Path config =
        Files.writeString(temp.resolve("risk.properties"), "risk.master = spark\\://h:7077\n");

    List<String> cluster = riskBatchCommand(temp, buildDir, "--config", config.toString());
    assertTrue(cluster.contains("-Dspark.jars=" + pluginJar + "," + jobsJar), cluster.toString());
    assertEquals("SPARK_LOCAL_IP=", cluster.get(0));

    List<String> local =
        riskBatchCommand(temp, buildDir, "--config", config.toString(), "--master", "local[2]");
    assertFalse(
        local.stream().anyMatch(word -> word.startsWith("-Dspark.jars=")), local.toString());
    assertEquals("SPARK_LOCAL_IP=127.0.0.1", local.get(0));
  }

  /**
   * The JVM's notice that an incubator module (the Vector API) is in use is kept off standard
   * error, so a job's usage error is all it holds, as {@code bin/l0} keeps it off; the job's exit
   * code is the script's. The fake java writes the notice and a job's message, then exits 2.
   */
  @Test
  void theJvmsIncubatorNoticeIsKeptOffStandardError(@TempDir Path temp) throws Exception {
    String buildDir = "target/l0-job-script-test";
    Path jobs =
        Files.createDirectories(
            SCRIPT.getParent().getParent().resolve("integration-tests").resolve(buildDir));
    Files.writeString(jobs.resolve("l0-job.classpath"), "");
    Files.writeString(jobs.resolve("l0-job.jvm-options"), ""); // newer than every source: built
    Path fakeJava = Files.createDirectories(temp.resolve("bin")).resolve("java");
    Files.writeString(
        fakeJava,
        "#!/bin/sh\n"
            + "echo 'WARNING: Using incubator modules: jdk.incubator.vector' >&2\n"
            + "echo 'BlackScholesSparkJob: the usage error' >&2\n"
            + "exit 2\n");
    assertTrue(fakeJava.toFile().setExecutable(true));
    ProcessBuilder builder =
        new ProcessBuilder(SCRIPT.toString(), "blackscholes", "local[2]")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("L0_BUILD_DIR", buildDir);
    builder
        .environment()
        .put("PATH", temp.resolve("bin") + ":" + builder.environment().get("PATH"));
    Process process = builder.start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "bin/l0-job did not finish in 30 s");
    assertEquals(2, process.exitValue(), err);
    assertEquals("BlackScholesSparkJob: the usage error\n", err);
  }

  /**
   * The command {@code bin/l0-job risk-batch ARGS} runs java with, by the fake java of {@code
   * temp}.
   */
  private static List<String> riskBatchCommand(Path temp, String buildDir, String... args)
      throws IOException, InterruptedException {
    Path command = temp.resolve("java-command.txt");
    Files.deleteIfExists(command);
    List<String> words = new java.util.ArrayList<>(List.of(SCRIPT.toString(), "risk-batch"));
    words.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(words).redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.remove("SPARK_LOCAL_IP");
    environment.put("L0_BUILD_DIR", buildDir);
    environment.put("JAVA_COMMAND", command.toString());
    environment.put("PATH", temp.resolve("bin") + ":" + environment.get("PATH"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "bin/l0-job did not finish in 30 s");
    assertEquals(0, process.exitValue(), output);
    return Files.readAllLines(command);
  }
}
