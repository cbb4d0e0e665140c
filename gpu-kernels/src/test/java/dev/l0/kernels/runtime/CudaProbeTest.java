package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaProbe} on the machine running the tests: without a driver it answers with the reason
 * and does not throw; with one it describes GPU 0. Either way the answer is computed once.
 */
class CudaProbeTest {
  @Test
  void withoutADriverTheAnswerNamesTheMissingDriver() {
    Availability<CudaDevice> answer = CudaProbe.probe();
    assumeFalse(answer.isAvailable(), "this machine has a CUDA device: " + answer.description());
    assertTrue(answer.description().startsWith("no CUDA driver (") || answer.description().startsWith("no CUDA device"),
        answer.description());
    assertFalse(answer.description().contains("\n"), answer.description());
    assertTrue(answer.value().isEmpty());
  }

  @Test
  void theSecondProbeIsTheCachedAnswer() {
    Availability<CudaDevice> first = CudaProbe.probe();
    long start = System.nanoTime();
    Availability<CudaDevice> second = CudaProbe.probe();
    long elapsed = System.nanoTime() - start;
    assertSame(first, second);
    assertTrue(elapsed < Duration.ofMillis(5).toNanos(), "the second probe took " + elapsed + " ns");
  }

  @Test
  @Tag("gpu")
  void withADriverGpuZeroIsDescribed() {
    Availability<CudaDevice> answer = CudaProbe.probe();
    assumeTrue(answer.isAvailable(), answer.description());
    CudaDevice device = answer.value().orElseThrow();
    assertFalse(device.name().isBlank());
    assertTrue(device.totalMemoryBytes() > 0);
    assertTrue(device.driverVersion() >= 12000, device.driverVersionText());
    assertEquals(device.name() + " (" + device.computeCapability().smArchitecture() + ")", answer.description());
  }
}
