package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The self-contained jar that {@code bin/l0} runs ({@code java -jar}), started as its own process:
 * it must load (a merged jar with stale signature files does not) and run the main job.
 */
class CliJarTest {
  private static final Path JAR =
      Path.of(System.getProperty("l0.cliJar", "missing: set l0.cliJar"));

  private record Result(int exitCode, String output) {}

  private static Result run(String... args) throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(JAR), "the CLI jar was not built: " + JAR);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(List.of(java, "-jar", JAR.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the CLI did not finish: " + output);
    return new Result(process.exitValue(), output);
  }

  @Test
  void theJarRunsTheDemo() throws Exception {
    Result demo = run("demo");
    assertEquals(0, demo.exitCode(), demo.output());
    assertTrue(
        demo.output().contains("options: 40,") && demo.output().trim().endsWith("PASS"),
        demo.output());
  }

  @Test
  void theJarReportsUsageErrors() throws Exception {
    Result usage = run("frobnicate");
    assertEquals(2, usage.exitCode(), usage.output());
    assertTrue(usage.output().contains("unknown verb 'frobnicate'"), usage.output());
  }
}
