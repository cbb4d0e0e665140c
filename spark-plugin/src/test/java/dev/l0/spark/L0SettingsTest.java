package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.runtime.DeviceKind;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class L0SettingsTest {

  @Test
  void absentKeysTakeTheirDefaults() {
    assertEquals(
        new L0Settings(DeviceKind.AUTO, 1_048_576, 4_096, 1, Optional.empty(), 256),
        L0Settings.of(Map.of()));
  }

  @Test
  void everyKeyIsRead() {
    L0Settings settings =
        L0Settings.of(
            Map.of(
                L0Settings.DEVICE,
                "JVM",
                L0Settings.BATCH_ROWS,
                "4096",
                L0Settings.JVM_BATCH_ROWS,
                "2048",
                L0Settings.GPU_CONCURRENT_TASKS,
                "3",
                L0Settings.KERNEL_CACHE_DIR,
                "/tmp/l0-kernels",
                L0Settings.PROGRAM_CACHE_MAX_PROGRAMS,
                "32"));
    assertEquals(
        new L0Settings(DeviceKind.JVM, 4096, 2048, 3, Optional.of("/tmp/l0-kernels"), 32),
        settings);
  }

  /**
   * Spark keeps any key; a misspelt or wrongly cased L0 key would silently leave its setting at the
   * default, so it fails naming the key (and the key it meant where only the case differs).
   */
  @Test
  void aKeyThatIsNoL0SettingFailsNamingItAndTheKeyItResembles() {
    assertEquals(
        "spark.l0.batchrows is not an L0 setting (keys are case-sensitive: spark.l0.batchRows)",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of("spark.l0.batchrows", "16")))
            .getMessage());
    String unknown =
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(new SparkConf(false).set("Spark.L0.batchRow", "16")))
            .getMessage();
    assertTrue(
        unknown.startsWith(
            "Spark.L0.batchRow is not an L0 setting (the settings are spark.l0.device,"
                + " spark.l0.batchRows,"),
        unknown);
    assertEquals(
        DeviceKind.JVM,
        L0Settings.of(new SparkConf(false).set("spark.l0x", "1").set("spark.l0.device", "jvm"))
            .device());
  }

  @Test
  void badValuesNameTheirKey() {
    assertEquals(
        "spark.l0.device: unknown device 'gpu'; expected one of auto, cuda, jvm",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.DEVICE, "gpu")))
            .getMessage());
    assertEquals(
        "spark.l0.batchRows must be a whole number from 1 to 2147483647, not '1M'",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.BATCH_ROWS, "1M")))
            .getMessage());
    // A whole number too large for an int is not called "not a whole number".
    assertEquals(
        "spark.l0.programCache.maxPrograms must be a whole number from 1 to 2147483647, not"
            + " '3000000000'",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.PROGRAM_CACHE_MAX_PROGRAMS, "3000000000")))
            .getMessage());
    assertEquals(
        "spark.l0.jvm.batchRows must be at least 1, not 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.JVM_BATCH_ROWS, "0")))
            .getMessage());
    assertEquals(
        "spark.l0.gpu.concurrentTasks must be at least 1, not 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.GPU_CONCURRENT_TASKS, "0")))
            .getMessage());
    assertEquals(
        "spark.l0.programCache.maxPrograms must be at least 1, not 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> L0Settings.of(Map.of(L0Settings.PROGRAM_CACHE_MAX_PROGRAMS, "0")))
            .getMessage());
  }

  @Test
  void theAggregateIsFusedUnlessSwitchedOff() {
    assertTrue(L0Settings.aggregateFused(key -> Optional.empty()));
    assertFalse(
        L0Settings.aggregateFused(
            key -> Optional.ofNullable(Map.of(L0Settings.AGGREGATE_FUSED, " FALSE").get(key))));
    assertEquals(
        "spark.l0.aggregate.fused must be true or false, not 'off'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    L0Settings.aggregateFused(
                        key ->
                            Optional.ofNullable(
                                Map.of(L0Settings.AGGREGATE_FUSED, "off").get(key))))
            .getMessage());
  }

  @Test
  void theDriverPassesOnOnlyL0Entries() {
    SparkConf conf =
        new SparkConf(false).set(L0Settings.DEVICE, "cuda").set("spark.executor.memory", "2g");
    assertEquals(Map.of(L0Settings.DEVICE, "cuda"), L0Settings.entriesOf(conf));
  }
}
