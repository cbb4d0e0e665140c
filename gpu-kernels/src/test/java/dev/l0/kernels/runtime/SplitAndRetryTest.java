package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * {@link SplitAndRetry}: every element is processed once, pieces shrink on out-of-memory, the floor
 * is respected.
 */
class SplitAndRetryTest {
  @Property
  void everyElementIsProcessedExactlyOnceWithinTheMemoryLimit(
      @ForAll @LongRange(min = 0, max = 100_000) long total,
      @ForAll @IntRange(min = 1, max = 5_000) int fitting,
      @ForAll @IntRange(min = 1, max = 200_000) int firstPiece) {
    long smallest = Math.min(firstPiece, fitting);
    int[] seen = new int[(int) total];
    SplitAndRetry.Outcome outcome =
        SplitAndRetry.run(
            total,
            firstPiece,
            smallest,
            (start, count) -> {
              if (count > fitting) {
                throw new OutOfDeviceMemoryException("cuMemAlloc");
              }
              for (long i = start; i < start + count; i++) {
                seen[(int) i]++;
              }
            });
    for (int i = 0; i < total; i++) {
      assertEquals(1, seen[i], "element " + i);
    }
    assertTrue(outcome.pieces() >= (total + fitting - 1) / fitting, outcome.toString());
  }

  @Test
  void piecesHalveUntilTheyFitAndStaySmall() {
    List<String> done = new ArrayList<>();
    SplitAndRetry.Outcome outcome =
        SplitAndRetry.run(
            1000,
            1000,
            10,
            (start, count) -> {
              if (count > 300) {
                throw new OutOfDeviceMemoryException("cuMemAlloc");
              }
              done.add(start + "+" + count);
            });
    assertEquals(List.of("0+250", "250+250", "500+250", "750+250"), done);
    assertEquals(new SplitAndRetry.Outcome(4, 250), outcome);
  }

  @Test
  void whenTheSmallestPieceDoesNotFitTheCallerIsTold() {
    assertThrows(
        OutOfDeviceMemoryException.class,
        () ->
            SplitAndRetry.run(
                100,
                64,
                8,
                (start, count) -> {
                  throw new OutOfDeviceMemoryException("cuMemAlloc");
                }));
  }

  @Test
  void otherFailuresAreNotRetried() {
    int[] calls = new int[1];
    assertThrows(
        CudaDriverException.class,
        () ->
            SplitAndRetry.run(
                100,
                64,
                8,
                (start, count) -> {
                  calls[0]++;
                  throw CudaDriverException.of("cuLaunchKernel", "CUDA_ERROR_LAUNCH_FAILED");
                }));
    assertEquals(1, calls[0]);
  }

  @Test
  void impossibleSplitsAreRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> SplitAndRetry.run(10, 4, 8, (start, count) -> {}));
    assertThrows(
        IllegalArgumentException.class, () -> SplitAndRetry.run(10, 4, 0, (start, count) -> {}));
  }
}
