package dev.l0.spark.plan;

import dev.l0.spark.pipeline.ExecutionSettings;
import dev.l0.spark.pipeline.PartitionRunner;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One task's {@link PartitionRunner}, used under this executor's GPU slots where it may run on
 * CUDA; closing it (once, at the end of the partition or when the task completes, whichever comes
 * first) adds its statistics to the node's metrics.
 */
final class PartitionRun implements AutoCloseable {
  private final ExecutorRuntime executor;
  private final ExecutionSettings settings;
  private final PartitionRunner runner;
  private final PipelineMetrics metrics;
  private boolean closed;

  private PartitionRun(
      ExecutorRuntime executor,
      ExecutionSettings settings,
      PartitionRunner runner,
      PipelineMetrics metrics) {
    this.executor = executor;
    this.settings = settings;
    this.runner = runner;
    this.metrics = metrics;
  }

  static PartitionRun open(PipelineSpec spec, ExecutionSettings settings, PipelineMetrics metrics) {
    ExecutorRuntime executor = ExecutorRuntime.get();
    PartitionRunner runner =
        executor.withGpuSlot(settings.device(), () -> PartitionRunner.open(spec, settings));
    return new PartitionRun(executor, settings, runner, metrics);
  }

  /** {@code call} applied to the runner, holding a GPU slot where the runner may use the GPU. */
  <T> T call(Function<PartitionRunner, T> call) {
    return executor.withGpuSlot(settings.device(), () -> call.apply(runner));
  }

  /** {@code action} applied to the runner, holding a GPU slot where the runner may use the GPU. */
  void run(Consumer<PartitionRunner> action) {
    call(
        runner -> {
          action.accept(runner);
          return runner;
        });
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        metrics.record(runner.statistics());
      } finally {
        runner.close();
      }
    }
  }
}
