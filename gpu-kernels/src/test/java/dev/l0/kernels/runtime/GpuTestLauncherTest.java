package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The launcher that {@code bin/gpu-check} runs on GPU machines finds the {@code @Tag("gpu")} tests
 * and reports each: on a machine without a GPU they are aborted by their assumptions, on one with a
 * GPU they must succeed; none may fail.
 */
class GpuTestLauncherTest {
  @Test
  void findsTheGpuTestsAndReportsEachAsAJsonLine() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = GpuTestLauncher.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    String expected = CudaProbe.probe().isAvailable() ? "SUCCESSFUL" : "ABORTED";
    List<String> tests = lines.stream().filter(l -> l.contains("\"check\": \"gpu-test\"")).toList();
    assertTrue(tests.size() >= 10, String.join("\n", lines));
    assertTrue(
        tests.stream().allMatch(l -> l.contains("\"status\": \"" + expected + "\"")),
        String.join("\n", lines));
    assertTrue(
        tests.stream().anyMatch(l -> l.contains("\"class\": \"" + CudaProbeTest.class.getName())),
        String.join("\n", lines));
    assertTrue(lines.get(lines.size() - 1).contains("\"check\": \"gpu-tests\""), lines.toString());
    assertEquals(0, status, String.join("\n", lines));
  }
}
