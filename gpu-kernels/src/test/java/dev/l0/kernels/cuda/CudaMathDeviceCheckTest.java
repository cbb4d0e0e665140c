package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaMathDeviceCheck} on whatever machine runs the tests: without a CUDA driver it says so
 * in one line and succeeds; with a GPU (and nvcc) it prints one JSON line per routine and every
 * routine matches the JVM.
 */
class CudaMathDeviceCheckTest {
  @Test
  void reportsNoDriverInOneLineOrMatchesTheJvmOnTheDevice() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int status;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      status = CudaMathDeviceCheck.run(new String[0]);
    } finally {
      System.setOut(original);
    }
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(0, status, String.join("\n", lines));
    if (lines.size() == 1) {
      assertTrue(lines.get(0).contains("nothing checked"), lines.get(0));
    } else {
      assertEquals(CudaMathRoutine.ALL.size(), lines.size(), String.join("\n", lines));
      for (String line : lines) {
        assertTrue(line.startsWith("{\"device\": ") && line.contains("\"mismatches\": 0}"), line);
      }
    }
  }
}
