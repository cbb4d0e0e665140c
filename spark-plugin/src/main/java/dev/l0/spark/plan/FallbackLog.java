package dev.l0.spark.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs on the driver, once each, the fallback reasons ({@link FallbackReasons}) that the tasks of
 * pipeline nodes reported, when a stage completes: e.g. {@code L0 fallback (stage 3, collect at
 * Job.java:41): main program: GPU 0 was assigned to the task, but jvm: no CUDA driver (...)}. One
 * listener per Spark context, watching the accumulators of that context's pipeline nodes (weakly: a
 * node's accumulator goes when its plan does).
 */
final class FallbackLog extends SparkListener {
  private static final Logger LOG = LoggerFactory.getLogger(FallbackLog.class);
  private static final Map<SparkContext, FallbackLog> LISTENERS = new WeakHashMap<>();

  private final Set<FallbackReasons> watched = Collections.newSetFromMap(new WeakHashMap<>());
  private final Set<String> logged = new HashSet<>();

  private FallbackLog() {}

  /** Logs the reasons {@code reasons} (registered with {@code context}) gathers from now on. */
  static void watch(SparkContext context, FallbackReasons reasons) {
    FallbackLog log;
    synchronized (LISTENERS) {
      log = LISTENERS.get(context);
      if (log == null) {
        log = new FallbackLog();
        LISTENERS.put(context, log);
        context.addSparkListener(log);
      }
    }
    synchronized (log) {
      log.watched.add(reasons);
    }
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted completed) {
    List<String> reasons = new ArrayList<>();
    synchronized (this) {
      watched.forEach(accumulator -> reasons.addAll(accumulator.value()));
      reasons.removeIf(reason -> !logged.add(reason));
    }
    for (String reason : reasons) {
      LOG.warn(
          "L0 fallback (stage {}, {}): {}",
          completed.stageInfo().stageId(),
          completed.stageInfo().name(),
          reason);
    }
  }
}
