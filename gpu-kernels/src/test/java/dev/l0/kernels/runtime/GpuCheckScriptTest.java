package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/gpu-check}, copied into a bundle folder (as {@code bin/gpu-bundle} does) whose {@code
 * jre/bin/java} is a stand-in that answers each check with one JSON line: the results file holds
 * every check's line in order, also when the run is stopped part way (a device call that ran past
 * its time limit once returned no results at all, because the script wrote them only at its end),
 * and the exit status is the first failing check's; {@code --min-rows} runs each FinPar dataset
 * once per listed {@code l0.cuda.minRows}, {@code --block-sizes} once per listed {@code
 * l0.cuda.blockSize} (for each of those), {@code --block-rows-below} once per listed {@code
 * l0.cuda.blockRowsBelow} (for each block size), and {@code --runs} is given to each.
 */
class GpuCheckScriptTest {
  private static final Path SCRIPT = Path.of("..", "bin", "gpu-check").toAbsolutePath().normalize();

  /** A stand-in for java: one line per check; LocVolCalib is invalid; InterestCalib never ends. */
  private static final String FAKE_JAVA =
      """
      #!/usr/bin/env bash
      case "$*" in
        *-version*) echo "    java.runtime.version = 17.0.99" >&2 ;;
        *CudaRuntimeCheck*) echo '{"check": "cuda-runtime", "device": "Stand-in GPU"}' ;;
        *"finpar LocVolCalib"*) echo '{"bench": "LocVolCalib", "valid": false}'; exit 1 ;;
        *"finpar InterestCalib"*) sleep 600 ;;
        *"finpar OptionPricing"*)
          min_rows=default; block_size=default; block_rows=default; runs=none; previous=
          for a in "$@"; do
            case "$a" in
              -Dl0.cuda.minRows=*) min_rows="${a#*=}" ;;
              -Dl0.cuda.blockSize=*) block_size="${a#*=}" ;;
              -Dl0.cuda.blockRowsBelow=*) block_rows="${a#*=}" ;;
            esac
            [ "$previous" = --runs ] && runs="$a"
            previous="$a"
          done
          echo "{\\"bench\\": \\"OptionPricing\\", \\"valid\\": true, \\"min_rows\\": \\"$min_rows\\", \\"block_size\\": \\"$block_size\\", \\"block_rows\\": \\"$block_rows\\", \\"runs\\": \\"$runs\\"}" ;;
        *) for a in "$@"; do last="$a"; done; echo "{\\"check\\": \\"$last\\"}" ;;
      esac
      """;

  @TempDir Path bundle;

  private Path prepareBundle(String... finparDatasets) throws IOException {
    Path java = bundle.resolve("jre/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, FAKE_JAVA, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(bundle.resolve("l0-cli.jar"), "");
    Files.copy(SCRIPT, bundle.resolve("gpu-check"));
    for (String dataset : finparDatasets) {
      Files.createDirectories(bundle.resolve("finpar-data").resolve(dataset));
    }
    return bundle.resolve("results");
  }

  private static Process start(List<String> command) throws IOException {
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** What a run of the bundle's gpu-check with {@code args} printed, and its exit status. */
  private record Finished(String output, int status) {}

  private Finished runToTheEnd(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", bundle.resolve("gpu-check").toString()));
    command.addAll(List.of(args));
    Process process = start(command);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
    return new Finished(output, process.exitValue());
  }

  private static List<String> resultLines(Path results) throws IOException {
    try (var files = Files.list(results)) {
      Path file = files.findFirst().orElseThrow();
      assertTrue(file.getFileName().toString().endsWith("-Stand-in-GPU.json"), file.toString());
      return Files.readAllLines(file);
    }
  }

  @Test
  void everyCheckIsRecordedInOrderAndAnInvalidFinparResultIsExitOne() throws Exception {
    Path results = prepareBundle("OptionPricing/small", "LocVolCalib/small");
    Finished run = runToTheEnd("--finpar", results.toString());
    List<String> lines = resultLines(results);
    assertEquals(7, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).contains("\"check\": \"environment\""), lines.get(0));
    assertTrue(lines.get(0).contains("\"java\": \"17.0.99\""), lines.get(0));
    assertTrue(lines.get(1).contains("cuda-runtime"), lines.get(1));
    assertTrue(lines.get(2).contains("CudaMathDeviceCheck"), lines.get(2));
    assertTrue(lines.get(3).contains("KernelBandwidthBenchmark"), lines.get(3));
    assertTrue(lines.get(4).contains("BlackScholesCudaBenchmark"), lines.get(4));
    assertTrue(lines.get(5).contains("\"bench\": \"OptionPricing\""), lines.get(5));
    assertTrue(lines.get(6).contains("\"bench\": \"LocVolCalib\""), lines.get(6));
    assertEquals(1, run.status(), run.output());
  }

  @Test
  void minRowsRunsEachDatasetOncePerValue() throws Exception {
    Path results = prepareBundle("OptionPricing/small", "OptionPricing/large");
    Finished run = runToTheEnd("--finpar-only", "--min-rows", "0,1024", results.toString());
    assertEquals(0, run.status(), run.output());
    List<String> finpar =
        resultLines(results).stream().filter(line -> line.contains("\"bench\"")).toList();
    assertEquals(
        List.of("0", "1024", "0", "1024"),
        finpar.stream()
            .map(line -> line.replaceAll(".*\"min_rows\": \"([^\"]*)\".*", "$1"))
            .toList(),
        String.join("\n", finpar));
  }

  @Test
  void blockSizesRunEachDatasetOncePerValueForEachMinRows() throws Exception {
    Path results = prepareBundle("OptionPricing/large");
    Finished run =
        runToTheEnd(
            "--finpar-only", "--min-rows", "0,1024", "--block-sizes", "64,256", results.toString());
    assertEquals(0, run.status(), run.output());
    assertEquals(List.of("0", "0", "1024", "1024"), finparField(results, "min_rows"));
    assertEquals(List.of("64", "256", "64", "256"), finparField(results, "block_size"));
    Path defaults = bundle.resolve("defaults");
    assertEquals(0, runToTheEnd("--finpar-only", defaults.toString()).status());
    assertEquals(List.of("default"), finparField(defaults, "block_size"));
    Finished bad =
        runToTheEnd("--finpar-only", "--block-sizes", "64,48", bundle.resolve("bad").toString());
    assertEquals(64, bad.status(), bad.output());
    assertTrue(bad.output().contains("--block-sizes needs a comma-separated list"), bad.output());
    assertTrue(Files.notExists(bundle.resolve("bad")), "no results written");
  }

  @Test
  void blockRowsBelowRunsEachDatasetOncePerValueForEachBlockSize() throws Exception {
    Path results = prepareBundle("OptionPricing/large");
    Finished run =
        runToTheEnd(
            "--finpar-only",
            "--block-sizes",
            "64,256",
            "--block-rows-below",
            "0,1000000000",
            results.toString());
    assertEquals(0, run.status(), run.output());
    assertEquals(List.of("64", "64", "256", "256"), finparField(results, "block_size"));
    assertEquals(List.of("0", "1000000000", "0", "1000000000"), finparField(results, "block_rows"));
    Path defaults = bundle.resolve("defaults");
    assertEquals(0, runToTheEnd("--finpar-only", defaults.toString()).status());
    assertEquals(List.of("default"), finparField(defaults, "block_rows"));
    Finished bad =
        runToTheEnd("--finpar-only", "--block-rows-below", "-1", bundle.resolve("bad").toString());
    assertEquals(64, bad.status(), bad.output());
    assertTrue(
        bad.output().contains("--block-rows-below needs a comma-separated list"), bad.output());
    assertTrue(Files.notExists(bundle.resolve("bad")), "no results written");
  }

  @Test
  void runsIsGivenToEveryFinparRunAndIsOneByDefault() throws Exception {
    Path results = prepareBundle("OptionPricing/small", "OptionPricing/large");
    assertEquals(0, runToTheEnd("--finpar-only", "--runs", "3", results.toString()).status());
    assertEquals(List.of("3", "3"), finparField(results, "runs"));
    Path defaults = bundle.resolve("defaults");
    assertEquals(0, runToTheEnd("--finpar-only", defaults.toString()).status());
    assertEquals(List.of("1", "1"), finparField(defaults, "runs"));
    Finished none = runToTheEnd("--finpar-only", "--runs", "0", bundle.resolve("none").toString());
    assertEquals(64, none.status(), none.output());
    assertTrue(none.output().contains("--runs needs a whole number of runs >= 1"), none.output());
  }

  /** The value of {@code field} in each FinPar line of the results in {@code results}. */
  private static List<String> finparField(Path results, String field) throws IOException {
    return resultLines(results).stream()
        .filter(line -> line.contains("\"bench\""))
        .map(line -> line.replaceAll(".*\"" + field + "\": \"([^\"]*)\".*", "$1"))
        .toList();
  }

  @Test
  void aBadMinRowsListIsRefusedBeforeAnyCheck() throws Exception {
    Path results = prepareBundle("OptionPricing/small");
    Finished run = runToTheEnd("--finpar-only", "--min-rows", "many", results.toString());
    assertEquals(64, run.status(), run.output());
    assertTrue(run.output().contains("--min-rows needs a comma-separated list"), run.output());
    assertTrue(Files.notExists(results), "no results written");
  }

  @Test
  void finparOnlyRecordsEachDatasetAsItFinishesSoAStoppedRunKeepsThem() throws Exception {
    Path results = prepareBundle("OptionPricing/small", "InterestCalib/small");
    Process process =
        start(
            List.of(
                "bash",
                bundle.resolve("gpu-check").toString(),
                "--finpar-only",
                results.toString()));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      List<String> lines = List.of();
      while (System.nanoTime() < deadline && lines.size() < 3) {
        Thread.sleep(100);
        if (Files.isDirectory(results)) {
          try (var files = Files.list(results)) {
            if (files.findAny().isPresent()) {
              lines = resultLines(results);
            }
          }
        }
      }
      assertTrue(process.isAlive(), "InterestCalib's stand-in runs until stopped");
      assertEquals(3, lines.size(), String.join("\n", lines));
      assertTrue(lines.get(1).contains("cuda-runtime"), lines.get(1));
      assertTrue(lines.get(2).contains("\"bench\": \"OptionPricing\""), lines.get(2));
    } finally {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }
}
