package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * error of each job (exit 2) naming it, found before Spark starts, so the job's one line is all
 * that standard error holds (no Spark ERROR log and stack trace before it). Each job runs in a JVM
 * of its own: in this one a test's session would be reused and the master never parsed.
 */
class JobSessionsTest {
  private static final Path DATA = Path.of("../../shared/data/finpar");

  @Test
  void aMasterUrlSparkCannotParseIsAUsageErrorOfEveryJob() throws Exception {
    assertUsageError(
        "BlackScholesSparkJob: SPARK_MASTER " + JobSessions.notAMaster("bogus://x"),
        BlackScholesSparkJob.class.getName(),
        "bogus://x");
    assertUsageError(
        "FinparSparkJob: SPARK_MASTER " + JobSessions.notAMaster("bogus://x"),
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
    assertEquals(
        List.of(message),
        err.lines().filter(line -> !line.startsWith("WARNING: Using incubator modules")).toList());
  }

  /** Spark's master URLs are accepted as Spark's own parser takes them, and nothing else. */
  @Test
  void masterUrlsAreCheckedAsSparkParsesThem() {
    for (String master :
        List.of(
            "local",
            "local[2]",
            "local[*]",
            "local[2,3]",
            "local[*, 4]",
            "local-cluster[2, 1, 1024]",
            "spark://host:7077")) {
      JobSessions.checkMaster(master); // no exception
    }
    for (String master :
        List.of("bogus://x", "", "LOCAL", "local[0]", "local[0,2]", "local[x]", "yarn-client")) {
      JobSessions.UnknownMasterException e =
          assertThrows(
              JobSessions.UnknownMasterException.class, () -> JobSessions.checkMaster(master));
      assertEquals(JobSessions.notAMaster(master), e.getMessage());
    }
  }
}
