package dev.l0.spark.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.l0.spark.cluster.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition streams through a pipeline batch by batch: 20M rows of eight columns in one partition
 * on {@code local[1]} go through a filter, map and reduce in a JVM with a 1 GiB heap (the issue's
 * driver heap), although the partition as primitive arrays alone would not fit in it.
 */
class LargePartitionMemoryTest {
  private static final long ROWS = 20_000_000;
  private static final Duration JOB_RUN = Duration.ofMinutes(5);

  @TempDir Path folder;

  @Test
  void twentyMillionRowsInOnePartitionGoThroughAOneGibibyteHeap() throws Exception {
    // A plain java command lacks the module flags spark-submit adds.
    List<String> jvmOptions =
        new ArrayList<>(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
    String sparkLocalDir = System.getProperty("spark.local.dir");
    if (sparkLocalDir != null) {
      jvmOptions.add("-Dspark.local.dir=" + sparkLocalDir);
    }
    jvmOptions.add("-Xmx1g");
    try (ChildJvm job =
        ChildJvm.start(
            "large-partition-job",
            jvmOptions,
            System.getProperty("java.class.path"),
            LargePartitionJob.class.getName(),
            List.of(Long.toString(ROWS)),
            Map.of(),
            folder)) {
      assertEquals(0, job.awaitExit(JOB_RUN), () -> "the job failed\n" + job.describe());
      String output = job.output();

      long maxHeap = Long.parseLong(valueAfter(LargePartitionJob.MAX_HEAP, output));
      long inputBytes = Long.parseLong(valueAfter(LargePartitionJob.INPUT_BYTES, output));
      assertTrue(
          inputBytes > maxHeap,
          "the partition ("
              + inputBytes
              + " bytes) must not fit in the heap ("
              + maxHeap
              + " bytes)");

      // Ids 0, 3, ..., 3(m - 1) are kept, m = ceil(ROWS / 3); the sum of 2 * 3j for j < m is 3m(m -
      // 1).
      long multiples = (ROWS + 2) / 3;
      assertEquals(
          3 * multiples * (multiples - 1),
          Long.parseLong(valueAfter(LargePartitionJob.SUM, output)));
    }
  }

  /** The text after {@code prefix} on the first line of {@code output} that starts with it. */
  private static String valueAfter(String prefix, String output) {
    return output
        .lines()
        .filter(line -> line.startsWith(prefix))
        .findFirst()
        .map(line -> line.substring(prefix.length()).trim())
        .orElseGet(
            () -> fail("no line starting with '" + prefix + "' in the job's output:\n" + output));
  }
}
