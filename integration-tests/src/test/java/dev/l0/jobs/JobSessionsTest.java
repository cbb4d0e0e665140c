package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;

/**
 * The session every job starts ({@link JobSessions}): a master URL Spark cannot parse is a usage
 * error of each job (exit 2) naming it, not a failed run with Spark's stack trace. Each job runs in
 * a JVM of its own: in this one a test's session would be reused and the master never parsed.
 */
class JobSessionsTest {
  private static final Path DATA = Path.of("../../shared/data/finpar");

  @Test
  void aMasterUrlSparkCannotParseIsAUsageErrorOfEveryJob() throws Exception {
    assertUsageError(
        "BlackScholesSparkJob: SPARK_MASTER 'bogus://x' is no Spark master URL",
        BlackScholesSparkJob.class.getName(),
        "bogus://x");
    assertUsageError(
        "FinparSparkJob: SPARK_MASTER 'bogus://x' is no Spark master URL",
        FinparSparkJob.class.getName(),
        "OptionPricing",
        "small",
        "bogus://x",
        "--data",
        DATA.toAbsolutePath().toString());
  }

  private static void assertUsageError(String message, String mainClass, String... args)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptions().split("\\s+")));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(Arrays.asList(args));
    Process process =
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), mainClass);
    assertEquals(2, process.exitValue(), err);
    assertTrue(err.contains(message + "\n"), err);
    assertFalse(err.contains("Exception in thread"), err);
  }
}
