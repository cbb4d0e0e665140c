package dev.l0.spark;

import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.spark.pipeline.ProgramCache;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.internal.SQLConf;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code spark.l0.*} configuration keys, their defaults, and the one place that reads them.
 * Pipelines read the session's SQL configuration when a query runs (so {@code spark.conf().set}
 * takes effect per query); the executor plugin reads the Spark configuration once per executor.
 *
 * @param device {@value #DEVICE}: where pipelines run
 * @param batchRows {@value #BATCH_ROWS}: the most rows one runtime call gets
 * @param jvmBatchRows {@value #JVM_BATCH_ROWS}: the most rows one runtime call of a per-row
 *     pipeline gets on the JVM
 * @param gpuConcurrentTasks {@value #GPU_CONCURRENT_TASKS}: the most tasks of one executor on its
 *     GPU at once
 * @param kernelCacheDirectory {@value #KERNEL_CACHE_DIR}: the disk cache of compiled kernels, where
 *     set
 * @param programCacheSize {@value #PROGRAM_CACHE_MAX_PROGRAMS}: the most compiled programs an
 *     executor keeps
 */
public record L0Settings(
    DeviceKind device,
    int batchRows,
    int jvmBatchRows,
    int gpuConcurrentTasks,
    Optional<String> kernelCacheDirectory,
    int programCacheSize) {

  /** {@code auto} (CUDA where it works, else the JVM; the default), {@code cuda} or {@code jvm}. */
  public static final String DEVICE = "spark.l0.device";

  /**
   * The most rows of a partition handed to the runtime in one call (default 1048576): a task holds
   * a few batches of this size, whatever the size of its partition.
   */
  public static final String BATCH_ROWS = "spark.l0.batchRows";

  /**
   * The most rows of a partition handed to the runtime in one call by a pipeline of per-row results
   * (not a reduce or scan, whose batches stay {@link #BATCH_ROWS}) where the executor runs
   * pipelines on the JVM backend ({@code spark.l0.device=jvm}, or no working CUDA; default 4096,
   * the rows of a batch of Spark's Parquet and ORC readers): a batch whose columns stay in the
   * core's caches from the copy out of Spark's vectors through the kernel to the rows Spark reads.
   */
  public static final String JVM_BATCH_ROWS = "spark.l0.jvm.batchRows";

  /** How many tasks of one executor may use its GPU at the same time (default 1). */
  public static final String GPU_CONCURRENT_TASKS = "spark.l0.gpu.concurrentTasks";

  /**
   * The folder of the disk cache of compiled kernels on every executor; where unset, the runtime's
   * default (the {@code L0_KERNEL_CACHE} environment variable, else {@code ~/.cache/l0/kernels}).
   */
  public static final String KERNEL_CACHE_DIR = "spark.l0.kernelCache.dir";

  /**
   * How many compiled programs one executor JVM keeps for later tasks (default 256); beyond that
   * the least recently used is dropped, and closed once no running task uses it.
   */
  public static final String PROGRAM_CACHE_MAX_PROGRAMS = "spark.l0.programCache.maxPrograms";

  /**
   * {@code true}: every reduce pipeline planned in the session sums its float sums exactly, as
   * {@code L0Pipeline.exactFloatSums()} asks for one pipeline (but without an error for a pipeline
   * that has none); default {@code false}. Read when a pipeline is planned ({@code df.transform}).
   */
  public static final String EXACT_FLOAT_SUMS = "spark.l0.exactFloatSums";

  /**
   * {@code true} (the default): a partial aggregate without grouping keys whose functions are all
   * {@code sum} or {@code avg} of a double column or {@code count}, directly over a pipeline's
   * columns, folds the pipeline's output batches itself (no rows in between), with Spark's own
   * results bit for bit; {@code false} keeps Spark's aggregate. Read when a query is planned.
   */
  public static final String AGGREGATE_FUSED = "spark.l0.aggregate.fused";

  /**
   * {@code true} (the default): a Parquet scan whose rows go straight into a pipeline reads its
   * files with L0's own Parquet reader where a file's columns allow (flat boolean, int, bigint,
   * float and double columns), and with Spark's reader where they do not; {@code false} keeps
   * Spark's reader for every file. Read when a query is planned.
   */
  public static final String PARQUET_OWN_READER = "spark.l0.parquet.ownReader";

  /** Every key, in the order the documentation lists them. */
  public static final List<String> KEYS =
      List.of(
          DEVICE,
          BATCH_ROWS,
          JVM_BATCH_ROWS,
          GPU_CONCURRENT_TASKS,
          KERNEL_CACHE_DIR,
          PROGRAM_CACHE_MAX_PROGRAMS,
          EXACT_FLOAT_SUMS,
          AGGREGATE_FUSED,
          PARQUET_OWN_READER);

  private static final String PREFIX = "spark.l0.";
  private static final DeviceKind DEFAULT_DEVICE = DeviceKind.AUTO;
  private static final int DEFAULT_BATCH_ROWS = 1 << 20;
  private static final int DEFAULT_JVM_BATCH_ROWS = 1 << 12;
  private static final int DEFAULT_GPU_CONCURRENT_TASKS = 1;
  private static final int DEFAULT_PROGRAM_CACHE_SIZE = ProgramCache.DEFAULT_CAPACITY;

  public L0Settings {
    if (batchRows < 1) {
      throw new IllegalArgumentException(BATCH_ROWS + " must be at least 1, not " + batchRows);
    }
    if (jvmBatchRows < 1) {
      throw new IllegalArgumentException(
          JVM_BATCH_ROWS + " must be at least 1, not " + jvmBatchRows);
    }
    if (gpuConcurrentTasks < 1) {
      throw new IllegalArgumentException(
          GPU_CONCURRENT_TASKS + " must be at least 1, not " + gpuConcurrentTasks);
    }
    if (programCacheSize < 1) {
      throw new IllegalArgumentException(
          PROGRAM_CACHE_MAX_PROGRAMS + " must be at least 1, not " + programCacheSize);
    }
  }

  /** The settings a configuration gives, defaults for absent keys; a bad value names its key. */
  public static L0Settings read(Function<String, Optional<String>> configuration) {
    DeviceKind device =
        configuration.apply(DEVICE).map(value -> parseDevice(value)).orElse(DEFAULT_DEVICE);
    int batchRows =
        configuration
            .apply(BATCH_ROWS)
            .map(value -> parseWholeNumber(BATCH_ROWS, value))
            .orElse(DEFAULT_BATCH_ROWS);
    int jvmBatchRows =
        configuration
            .apply(JVM_BATCH_ROWS)
            .map(value -> parseWholeNumber(JVM_BATCH_ROWS, value))
            .orElse(DEFAULT_JVM_BATCH_ROWS);
    int gpuTasks =
        configuration
            .apply(GPU_CONCURRENT_TASKS)
            .map(value -> parseWholeNumber(GPU_CONCURRENT_TASKS, value))
            .orElse(DEFAULT_GPU_CONCURRENT_TASKS);
    Optional<String> cache =
        configuration.apply(KERNEL_CACHE_DIR).map(String::strip).filter(value -> !value.isEmpty());
    int programs =
        configuration
            .apply(PROGRAM_CACHE_MAX_PROGRAMS)
            .map(value -> parseWholeNumber(PROGRAM_CACHE_MAX_PROGRAMS, value))
            .orElse(DEFAULT_PROGRAM_CACHE_SIZE);
    return new L0Settings(device, batchRows, jvmBatchRows, gpuTasks, cache, programs);
  }

  /** The settings of a Spark configuration (the executor plugin's view). */
  public static L0Settings of(SparkConf conf) {
    for (Tuple2<String, String> entry : conf.getAll()) {
      checkKnown(entry._1());
    }
    return read(key -> Optional.ofNullable(conf.get(key, null)));
  }

  /** The settings of a string map, as the driver plugin hands them to executors. */
  public static L0Settings of(Map<String, String> conf) {
    conf.keySet().forEach(L0Settings::checkKnown);
    return read(key -> Optional.ofNullable(conf.get(key)));
  }

  /**
   * The settings of the active session's SQL configuration (Spark configuration plus runtime
   * changes).
   */
  public static L0Settings ofActiveSession() {
    SQLConf conf = SQLConf.get();
    CollectionConverters.asJava(conf.getAllConfs()).keySet().forEach(L0Settings::checkKnown);
    return read(key -> Optional.ofNullable(conf.getConfString(key, null)));
  }

  /**
   * Fails on a key under {@value #PREFIX} (in any case) that is not one of {@link #KEYS}, which
   * Spark would otherwise keep without effect: a misspelt or wrongly cased key, naming the key it
   * resembles.
   */
  private static void checkKnown(String key) {
    if (!key.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) || KEYS.contains(key)) {
      return;
    }
    Optional<String> sameButCase =
        KEYS.stream().filter(known -> known.equalsIgnoreCase(key)).findFirst();
    throw new IllegalArgumentException(
        key
            + " is not an L0 setting"
            + sameButCase
                .map(known -> " (keys are case-sensitive: " + known + ")")
                .orElse(" (the settings are " + String.join(", ", KEYS) + ")"));
  }

  /** Every {@code spark.l0.*} entry set in {@code conf}, for the driver plugin to pass on. */
  public static Map<String, String> entriesOf(SparkConf conf) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (Tuple2<String, String> entry : conf.getAllWithPrefix(PREFIX)) {
      entries.put(PREFIX + entry._1(), entry._2());
    }
    return entries;
  }

  /**
   * Points the runtime's kernel cache at {@link #kernelCacheDirectory} (its system property {@value
   * KernelCache#DIRECTORY_PROPERTY}) in this JVM, where one is set.
   */
  public void applyKernelCacheDirectory() {
    kernelCacheDirectory.ifPresent(
        folder -> System.setProperty(KernelCache.DIRECTORY_PROPERTY, folder));
  }

  /**
   * {@value #EXACT_FLOAT_SUMS} of a configuration: {@code true} or {@code false} (the default where
   * unset).
   */
  public static boolean exactFloatSums(Function<String, Optional<String>> configuration) {
    return flag(configuration, EXACT_FLOAT_SUMS, false);
  }

  /**
   * {@value #AGGREGATE_FUSED} of a configuration: {@code true} (the default where unset) or {@code
   * false}.
   */
  public static boolean aggregateFused(Function<String, Optional<String>> configuration) {
    return flag(configuration, AGGREGATE_FUSED, true);
  }

  /**
   * {@value #PARQUET_OWN_READER} of a configuration: {@code true} (the default where unset) or
   * {@code false}.
   */
  public static boolean parquetOwnReader(Function<String, Optional<String>> configuration) {
    return flag(configuration, PARQUET_OWN_READER, true);
  }

  /** The {@code true} or {@code false} of {@code key}, {@code absent} where unset. */
  private static boolean flag(
      Function<String, Optional<String>> configuration, String key, boolean absent) {
    return configuration
        .apply(key)
        .map(
            value -> {
              String flag = value.strip();
              if (flag.equalsIgnoreCase("true") || flag.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(flag);
              }
              throw new IllegalArgumentException(
                  key + " must be true or false, not '" + value + "'");
            })
        .orElse(absent);
  }

  private static DeviceKind parseDevice(String value) {
    try {
      return DeviceKind.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(DEVICE + ": " + e.getMessage(), e);
    }
  }

  private static int parseWholeNumber(String key, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + " must be a whole number from 1 to " + Integer.MAX_VALUE + ", not '" + value + "'",
          e);
    }
  }
}
