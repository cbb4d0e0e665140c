package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaRuntimeCheck} wherever the tests run: without a driver one line and exit 0; on a GPU
 * one JSON line with no mismatches and a warm compile served from the cache.
 */
class CudaRuntimeCheckTest {
  @Test
  void saysNothingWasCheckedOrChecksTheDevice() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int status = CudaRuntimeCheck.run(new PrintStream(captured, true, StandardCharsets.UTF_8));
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(1, lines.size(), lines.toString());
    String line = lines.get(0);
    if (CudaProbe.probe().isAvailable()) {
      assertEquals(0, status, line);
      assertTrue(
          line.startsWith("{\"check\": \"cuda-runtime\", \"device\": ")
              && line.contains("\"mismatches\": 0}")
              && line.contains("\"cacheHits\": 1, \"cacheMisses\": 1"),
          line);
    } else {
      assertEquals(0, status, line);
      assertTrue(
          line.startsWith("CudaRuntimeCheck: no CUDA d") && line.endsWith("; nothing checked"),
          line);
    }
  }
}
