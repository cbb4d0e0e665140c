package dev.l0.spark.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.L0;
import dev.l0.spark.L0Extensions;
import dev.l0.spark.L0Plugin;
import dev.l0.spark.L0Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Local-mode sessions one after another in one JVM, as tests and notebooks start them: each
 * session's executor settings take effect (the executor runtime logs them when it starts for them),
 * whether the first task or the executor plugin starts the runtime, and the second session's
 * pipelines run where its own {@code spark.l0.device} puts them.
 */
class ExecutorRuntimeAcrossSessionsTest {

  @Test
  void eachSessionsExecutorSettingsTakeEffect() {
    List<String> started = new ArrayList<>();
    AbstractAppender appender =
        new AbstractAppender("runtime-starts", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            synchronized (started) {
              started.add(event.getMessage().getFormattedMessage());
            }
          }
        };
    appender.start();
    Logger logger = (Logger) LogManager.getLogger(ExecutorRuntime.class.getName());
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.addAppender(appender);
    try {
      String jvm =
          runIn(
              Map.of(L0Settings.DEVICE, "jvm", L0Settings.GPU_CONCURRENT_TASKS, "3"),
              started,
              () -> assertTrue(ExecutorRuntime.get().runsOnJvm(DeviceKind.AUTO)));
      assertTrue(jvm.contains("spark.l0.device=jvm, CUDA unavailable: not probed"), jvm);
      assertTrue(jvm.contains("3 GPU task(s) at once"), jvm);

      // where a GPU works, the auto session's pipelines now run on it
      boolean cudaWorks = CudaProbe.probe().isAvailable();
      String auto =
          runIn(
              Map.of(
                  L0Settings.DEVICE,
                  "auto",
                  L0Settings.PROGRAM_CACHE_MAX_PROGRAMS,
                  "7",
                  "spark.plugins",
                  L0Plugin.class.getName()),
              started,
              () -> assertEquals(!cudaWorks, ExecutorRuntime.get().runsOnJvm(DeviceKind.AUTO)));
      assertTrue(auto.contains("spark.l0.device=auto"), auto);
      assertTrue(!auto.contains("not probed"), auto);
      assertTrue(auto.contains("1 GPU task(s) at once, up to 7 compiled programs"), auto);

      // without the plugin, the new context's first task starts the runtime for its settings
      String again =
          runIn(
              Map.of(L0Settings.DEVICE, "jvm", L0Settings.PROGRAM_CACHE_MAX_PROGRAMS, "5"),
              started,
              () -> assertTrue(ExecutorRuntime.get().runsOnJvm(DeviceKind.AUTO)));
      assertTrue(again.contains("spark.l0.device=jvm"), again);
      assertTrue(again.contains("1 GPU task(s) at once, up to 5 compiled programs"), again);
    } finally {
      logger.removeAppender(appender);
      logger.setLevel(level);
    }
  }

  /**
   * Runs a pipeline on a new local session with {@code settings} (doubling 0..9 over 3 partitions,
   * checked) and then {@code inSession}, stops it, and returns the last line the executor runtime
   * logged.
   */
  private static String runIn(
      Map<String, String> settings, List<String> started, Runnable inSession) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("ExecutorRuntimeAcrossSessionsTest")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.extensions", L0Extensions.class.getName());
    settings.forEach(builder::config);
    SparkSession spark = builder.getOrCreate();
    try {
      List<Row> doubled =
          spark
              .range(0, 10, 1, 3)
              .selectExpr("cast(id as double) as x")
              .transform(
                  L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => v * 2.0, x)")
                      .on("x"))
              .collectAsList();
      List<Double> values = doubled.stream().map(row -> row.getDouble(0)).sorted().toList();
      assertEquals(List.of(0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0), values);
      inSession.run();
    } finally {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
    synchronized (started) {
      assertTrue(!started.isEmpty(), "the executor runtime never started");
      return started.get(started.size() - 1);
    }
  }
}
