package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every index runs once, on at most the given number of threads, with worker state made once per
 * worker.
 */
class ParallelRangesTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 8})
  void everyIndexRunsOnceOnAtMostTheParallelism(int parallelism) {
    int count = 100_003;
    AtomicIntegerArray runs = new AtomicIntegerArray(count);
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    AtomicInteger workers = new AtomicInteger();
    ParallelRanges.run(
        count,
        parallelism,
        () -> {
          workers.incrementAndGet();
          return (start, end) -> {
            threads.add(Thread.currentThread());
            for (int i = start; i < end; i++) {
              runs.incrementAndGet(i);
            }
          };
        });
    for (int i = 0; i < count; i++) {
      assertEquals(1, runs.get(i), "index " + i);
    }
    assertTrue(
        threads.size() <= parallelism,
        threads.size() + " threads for a parallelism of " + parallelism);
    assertTrue(
        workers.get() <= parallelism,
        workers.get() + " workers for a parallelism of " + parallelism);
    if (parallelism == 1) {
      assertEquals(Set.of(Thread.currentThread()), threads);
    }
  }

  @Test
  void aWorkersFailureIsThrown() {
    IllegalStateException failure =
        assertThrows(
            IllegalStateException.class,
            () ->
                ParallelRanges.run(
                    1000,
                    2,
                    () ->
                        (start, end) -> {
                          if (start <= 500 && 500 < end) {
                            throw new IllegalStateException("row 500");
                          }
                        }));
    assertEquals("row 500", failure.getMessage());
  }

  @Test
  void theExecutorRejectsAParallelismBelowOne() {
    assertThrows(IllegalArgumentException.class, () -> new JvmKernelExecutor(0));
  }
}
