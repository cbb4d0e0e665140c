package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaProbe} on the machine running the tests: without a driver it answers with the reason
 * and does not throw; with one it describes GPU 0. Either way the answer is computed once per GPU.
 * Given a driver's device count, a GPU past it is unavailable with a reason that says so.
 */
class CudaProbeTest {
  private static final int MAX_GPUS = 64;

  @Test
  void withoutADriverTheAnswerNamesTheMissingDriver() {
    Availability<CudaDevice> answer = CudaProbe.probe();
    assumeFalse(answer.isAvailable(), "this machine has a CUDA device: " + answer.description());
    assertTrue(
        answer.description().startsWith("no CUDA driver (")
            || answer.description().startsWith("no CUDA device"),
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
    assertTrue(
        elapsed < Duration.ofMillis(5).toNanos(), "the second probe took " + elapsed + " ns");
  }

  @Test
  void eachGpuIsProbedOnceAndTheDefaultIsGpuZero() {
    assertSame(CudaProbe.probe(), CudaProbe.probe(CudaProbe.DEFAULT_ORDINAL));
    Availability<CudaDevice> seventh = CudaProbe.probe(7);
    assertSame(seventh, CudaProbe.probe(7));
    assertFalse(seventh.description().contains("\n"), seventh.description());
  }

  @Test
  void withoutADriverEveryGpuHasTheDriversReason() {
    Availability<CudaDevice> gpuZero = CudaProbe.probe();
    assumeFalse(gpuZero.isAvailable(), "this machine has a CUDA device: " + gpuZero.description());
    assertEquals(gpuZero.description(), CudaProbe.probe(3).description());
    assertFalse(CudaProbe.probe(3).isAvailable());
  }

  @Test
  void aGpuPastTheDriversCountIsUnavailableWithoutBeingRead() {
    Availability<Integer> twoGpus = Availability.available(2, "2 CUDA device(s)");
    IntFunction<Availability<CudaDevice>> mustNotRead =
        ordinal -> {
          throw new AssertionError("GPU " + ordinal + " was read");
        };
    Availability<CudaDevice> third = CudaProbe.probe(2, twoGpus, mustNotRead);
    assertFalse(third.isAvailable());
    assertEquals("GPU 2 requested, the machine has 2", third.description());
    Availability<CudaDevice> none =
        CudaProbe.probe(
            0, Availability.unavailable("no CUDA device (the driver reports none)"), mustNotRead);
    assertEquals("no CUDA device (the driver reports none)", none.description());
  }

  @Test
  void aGpuTheDriverHasIsReadByItsOrdinal() {
    List<Integer> read = new ArrayList<>();
    Availability<CudaDevice> second =
        CudaProbe.probe(
            1,
            Availability.available(2, "2 CUDA device(s)"),
            ordinal -> {
              read.add(ordinal);
              return Availability.unavailable("CUDA driver unusable (cuDeviceGet failed: test)");
            });
    assertEquals(List.of(1), read);
    assertEquals("CUDA driver unusable (cuDeviceGet failed: test)", second.description());
  }

  @Test
  void aNegativeOrdinalIsAnError() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> CudaProbe.probe(-1));
    assertEquals("GPU ordinal -1 is not a device number (0, 1, ...)", error.getMessage());
  }

  @Test
  @Tag("gpu")
  void withADriverTheFirstOrdinalPastTheLastGpuSaysHowManyTheMachineHas() {
    assumeTrue(CudaProbe.probe().isAvailable(), CudaProbe.probe().description());
    int count = 1;
    while (count < MAX_GPUS && CudaProbe.probe(count).isAvailable()) {
      count++;
    }
    assertTrue(count < MAX_GPUS, "more than " + MAX_GPUS + " GPUs answered");
    assertEquals(
        "GPU " + count + " requested, the machine has " + count,
        CudaProbe.probe(count).description());
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
    assertEquals(
        device.name() + " (" + device.computeCapability().smArchitecture() + ")",
        answer.description());
  }
}
