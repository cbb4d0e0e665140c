package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A partition streams through a pipeline batch by batch: 20M rows of eight columns in one
 * partition on {@code local[1]} go through a filter, map and reduce in a JVM with a 1 GiB heap
 * (the driver heap), although the partition as primitive arrays alone would not fit in it.
 */
class LargePartitionMemoryTest {
  private static final long ROWS = 20_000_000;

  @Test
  void twentyMillionRowsInOnePartitionGoThroughAOneGibibyteHeap() throws Exception {
    ChildJvm.Result run = ChildJvm.run(LargePartitionJob.class, List.of("-Xmx1g"), List.of(Long.toString(ROWS)), Duration.ofMinutes(5));
    assertEquals(0, run.exitCode(), "the job failed:\n" + run.tail());

    long maxHeap = Long.parseLong(run.valueAfter(LargePartitionJob.MAX_HEAP));
    long inputBytes = Long.parseLong(run.valueAfter(LargePartitionJob.INPUT_BYTES));
    assertTrue(inputBytes > maxHeap, "the partition (" + inputBytes + " bytes) must not fit in the heap (" + maxHeap + " bytes)");

    // Ids 0, 3, ..., 3(m - 1) are kept, m = ceil(ROWS / 3); the sum of 2 * 3j for j < m is 3m(m - 1).
    long multiples = (ROWS + 2) / 3;
    assertEquals(3 * multiples * (multiples - 1), Long.parseLong(run.valueAfter(LargePartitionJob.SUM)));
  }
}
