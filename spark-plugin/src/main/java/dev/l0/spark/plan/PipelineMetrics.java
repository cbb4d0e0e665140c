package dev.l0.spark.plan;

import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.pipeline.RunStatistics;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The SQL metrics of one pipeline node (created on the driver, updated by its tasks): rows in and
 * out, how the scalar inputs were read (Spark's arrays in place, copied from them, or copied
 * through getters: {@link InputPaths}), the runtime's counters (kernel time, transfers,
 * compilation, cache hits), and where the tasks ran ({@link TasksRun}: on the GPU, on the JVM
 * backend, and of those the fallbacks, tasks assigned a GPU that could not be used), with the
 * fallbacks' reasons in a named accumulator (Spark UI) that {@link FallbackLog} logs on the driver.
 */
final class PipelineMetrics implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long UNSET = -1L;

  private final SQLMetric outputRows;
  private final SQLMetric inputRows;
  private final SQLMetric kernelTime;
  private final SQLMetric transferBytes;
  private final SQLMetric transferTime;
  private final SQLMetric compileTime;
  private final SQLMetric compileCacheHits;
  private final SQLMetric tasksOnGpu;
  private final SQLMetric tasksOnJvm;
  private final SQLMetric fallbacks;
  private final SQLMetric slicesInPlace;
  private final SQLMetric slicesArrayCopied;
  private final SQLMetric slicesGetterCopied;
  private final FallbackReasons fallbackReasons = new FallbackReasons();

  PipelineMetrics(SparkContext context) {
    outputRows = SQLMetrics.createMetric(context, "number of output rows");
    inputRows = SQLMetrics.createMetric(context, "number of input rows");
    kernelTime = SQLMetrics.createNanoTimingMetric(context, "kernel time", UNSET);
    transferBytes = SQLMetrics.createSizeMetric(context, "transfer bytes", UNSET);
    transferTime = SQLMetrics.createNanoTimingMetric(context, "transfer time", UNSET);
    compileTime = SQLMetrics.createNanoTimingMetric(context, "compile time", UNSET);
    compileCacheHits = SQLMetrics.createMetric(context, "compile cache hits");
    tasksOnGpu = SQLMetrics.createMetric(context, "tasks on the GPU");
    tasksOnJvm = SQLMetrics.createMetric(context, "tasks on the JVM backend");
    fallbacks =
        SQLMetrics.createMetric(context, "fallbacks (tasks on the JVM backend assigned a GPU)");
    slicesInPlace = SQLMetrics.createMetric(context, "input slices read in place");
    slicesArrayCopied = SQLMetrics.createMetric(context, "input slices copied from on-heap arrays");
    slicesGetterCopied = SQLMetrics.createMetric(context, "input slices copied through getters");
    context.register(fallbackReasons, FallbackReasons.NAME);
    FallbackLog.watch(context, fallbackReasons);
  }

  /** The metrics by name, as {@code SparkPlan.metrics()} returns them. */
  scala.collection.immutable.Map<String, SQLMetric> byName() {
    Map<String, SQLMetric> metrics = new LinkedHashMap<>();
    metrics.put("numOutputRows", outputRows);
    metrics.put("numInputRows", inputRows);
    metrics.put("kernelTime", kernelTime);
    metrics.put("transferBytes", transferBytes);
    metrics.put("transferTime", transferTime);
    metrics.put("compileTime", compileTime);
    metrics.put("compileCacheHits", compileCacheHits);
    metrics.put("tasksOnGpu", tasksOnGpu);
    metrics.put("tasksOnJvm", tasksOnJvm);
    metrics.put("fallbacks", fallbacks);
    metrics.put("inputSlicesInPlace", slicesInPlace);
    metrics.put("inputSlicesArrayCopied", slicesArrayCopied);
    metrics.put("inputSlicesGetterCopied", slicesGetterCopied);
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(metrics));
  }

  void addInputRows(long rows) {
    inputRows.add(rows);
  }

  void addOutputRows(long rows) {
    outputRows.add(rows);
  }

  /** Adds how one partition's scalar input slices were read. */
  void addInputPaths(InputPaths paths) {
    slicesInPlace.add(paths.slices(InputPaths.Path.IN_PLACE));
    slicesArrayCopied.add(paths.slices(InputPaths.Path.ARRAY_COPY));
    slicesGetterCopied.add(paths.slices(InputPaths.Path.GETTER_COPY));
  }

  /** Where the tasks that recorded their runners so far ran. */
  TasksRun tasksRun() {
    return new TasksRun(tasksOnGpu.value(), tasksOnJvm.value(), fallbacks.value());
  }

  /**
   * Adds one task's runner: its counters, and the task to those on its backend (to none where it
   * ran no program) and, where it fell back, to the fallbacks (once, however many of its programs
   * fell back).
   */
  void record(RunStatistics statistics) {
    kernelTime.add(statistics.kernelNanos());
    transferBytes.add(statistics.transferBytes());
    transferTime.add(statistics.transferNanos());
    compileTime.add(statistics.compileNanos());
    compileCacheHits.add(statistics.compileCacheHits());
    statistics
        .backend()
        .ifPresent(backend -> (backend == DeviceKind.CUDA ? tasksOnGpu : tasksOnJvm).add(1));
    if (statistics.fallbacks() > 0) {
      fallbacks.add(1);
    }
    statistics.fallbackReasons().forEach(fallbackReasons::add);
  }
}
