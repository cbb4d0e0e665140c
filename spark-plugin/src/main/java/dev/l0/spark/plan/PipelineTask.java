package dev.l0.spark.plan;

import dev.l0.ir.L0RuntimeError;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.spark.pipeline.ColumnBatch;
import dev.l0.spark.pipeline.ExecutionSettings;
import dev.l0.spark.pipeline.PartialCombiner;
import dev.l0.spark.pipeline.PartialResult;
import dev.l0.spark.pipeline.PartitionRunner;
import dev.l0.spark.pipeline.PipelineKind;
import dev.l0.spark.pipeline.PipelineSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Tuple2;

/**
 * What the tasks of one pipeline node run, shipped to executors in their closures (small and
 * serializable: the spec, the settings read on the driver, the ordinals of the input columns read
 * and carried, and the metrics). ROWS and SCAN's second pass turn a partition's batches into output
 * batches ({@link OutputBatch}); REDUCE and SCAN's first pass fold a partition into one partial
 * result.
 */
final class PipelineTask implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * Partials are combined on the JVM: a few values per partition, not worth a device, and the
   * result is the same on every device.
   */
  private static final ExecutionSettings COMBINE_ON_JVM =
      new ExecutionSettings(DeviceKind.JVM, -1, 1);

  private final PipelineSpec spec;
  private final DeviceKind device;
  private final int batchRows;
  private final int jvmBatchRows;
  private final int[] topOrdinals;
  private final int[] carriedOrdinals;
  private final PipelineMetrics metrics;

  PipelineTask(
      PipelineSpec spec,
      DeviceKind device,
      int batchRows,
      int jvmBatchRows,
      int[] topOrdinals,
      int[] carriedOrdinals,
      PipelineMetrics metrics) {
    this.spec = spec;
    this.device = device;
    this.batchRows = batchRows;
    this.jvmBatchRows = jvmBatchRows;
    this.topOrdinals = topOrdinals.clone();
    this.carriedOrdinals = carriedOrdinals.clone();
    this.metrics = metrics;
  }

  /** ROWS: the output batches of one partition. */
  Iterator<ColumnarBatch> mapRows(int partition, Iterator<ColumnarBatch> input) {
    PartitionRun run = PartitionRun.open(spec, ExecutorRuntime.taskSettings(device), metrics);
    return outputBatches(
        run, partition, inputBatches(partition, input), PartitionRunner::mapNextRows);
  }

  /** REDUCE, and SCAN's first pass: the partition's index and its partial result. */
  Iterator<Tuple2<Integer, PartialResult>> fold(
      int partition, Iterator<ColumnarBatch> input, boolean countsInputRows) {
    try (PartitionRun run =
        PartitionRun.open(spec, ExecutorRuntime.taskSettings(device), metrics)) {
      InputBatches batches = inputBatches(partition, input);
      while (batches.hasNext()) {
        ColumnBatch batch = batches.next();
        located(
            run,
            partition,
            batches,
            batch,
            true,
            runner -> {
              runner.fold(batch);
              return batch;
            });
      }
      if (countsInputRows) {
        metrics.addInputRows(batches.rowsRead());
        metrics.addInputPaths(batches.paths());
      }
      return List.of(new Tuple2<>(partition, run.call(PartitionRunner::partial))).iterator();
    }
  }

  /** REDUCE: the one output row from all partitions' partials (all of them in this one task). */
  Iterator<ColumnarBatch> finishReduce(Iterator<Tuple2<Integer, PartialResult>> partials) {
    List<PartialResult> ordered = inPartitionOrder(partials);
    ColumnBatch result;
    try {
      result = PartialCombiner.finish(spec, ordered, COMBINE_ON_JVM);
    } catch (L0RuntimeError error) {
      throw PipelineRunException.combining(spec.callSite(), ordered.size(), spec.located(error));
    }
    metrics.addOutputRows(result.rows());
    return List.of(OutputBatch.of(result, spec.outputSchema())).iterator();
  }

  /**
   * SCAN's second pass: the output batches of one partition, starting from {@code carryIn} (null
   * for none).
   */
  Iterator<ColumnarBatch> scanRows(
      int partition, Iterator<ColumnarBatch> input, PartialResult carryIn) {
    PartitionRun run = PartitionRun.open(spec, ExecutorRuntime.taskSettings(device), metrics);
    run.run(runner -> runner.startScan(Optional.ofNullable(carryIn)));
    return outputBatches(run, partition, inputBatches(partition, input), PartitionRunner::scanRows);
  }

  /**
   * SCAN, on the driver: the carry into each partition from all partitions' totals; null for none.
   */
  List<PartialResult> scanCarries(List<Tuple2<Integer, PartialResult>> totals) {
    List<PartialResult> carries = new ArrayList<>();
    for (Optional<PartialResult> carry :
        PartialCombiner.scanCarries(spec, inPartitionOrder(totals.iterator()), COMBINE_ON_JVM)) {
      carries.add(carry.orElse(null));
    }
    return carries;
  }

  /**
   * The partition's runtime batches: of {@code jvmBatchRows} rows for a ROWS pipeline (per-row
   * results, which batching does not change) where the executor runs pipelines on the JVM, else of
   * {@code batchRows} (reductions and scans combine per batch, so their batches are the same on
   * every device). A ROWS pipeline's input columns are refilled for the next batch: Spark is done
   * with an output batch (which may hold an input column) when it asks for the next, as with the
   * vectors its own Parquet reader refills; partials and scan carries outlive their batch.
   */
  private InputBatches inputBatches(int partition, Iterator<ColumnarBatch> input) {
    boolean perRow = spec.kind() == PipelineKind.ROWS;
    int rows = perRow && ExecutorRuntime.get().runsOnJvm(device) ? jvmBatchRows : batchRows;
    return new InputBatches(
        input,
        spec.inputs(),
        topOrdinals,
        carriedOrdinals,
        rows,
        partition,
        perRow,
        spec.callSite());
  }

  private Iterator<ColumnarBatch> outputBatches(
      PartitionRun run,
      int partition,
      InputBatches batches,
      BiFunction<PartitionRunner, ColumnBatch, ColumnBatch> step) {
    TaskOutput output = TaskOutput.open(spec.outputSchema(), run::close);
    PipelineMetrics counted = metrics;
    return new Iterator<>() {
      private boolean exhausted;

      @Override
      public boolean hasNext() {
        boolean more = batches.hasNext();
        if (!more && !exhausted) {
          exhausted = true;
          counted.addInputPaths(batches.paths());
          run.close();
        }
        return more;
      }

      @Override
      public ColumnarBatch next() {
        ColumnBatch input = batches.next();
        ColumnBatch result =
            located(run, partition, batches, input, false, runner -> step.apply(runner, input));
        counted.addInputRows(input.rows());
        counted.addOutputRows(result.rows());
        return output.next(batches.carried(), result);
      }
    };
  }

  /**
   * {@code step} applied to the runner on {@code input}, the batch of {@code partition} that {@code
   * batches} gave last; an {@link L0RuntimeError} becomes a {@link PipelineRunException} naming the
   * call site, the partition and the failing row ({@code folding}: the step folds).
   */
  private <T> T located(
      PartitionRun run,
      int partition,
      InputBatches batches,
      ColumnBatch input,
      boolean folding,
      Function<PartitionRunner, T> step) {
    try {
      return run.call(step);
    } catch (L0RuntimeError error) {
      if (run.call(runner -> runner.failsWithoutRows(input, folding))) {
        throw PipelineRunException.withoutRows(spec.callSite(), partition, spec.located(error));
      }
      OptionalInt row = run.call(runner -> runner.firstFailingRow(input, folding));
      throw PipelineRunException.inRows(
          spec.callSite(),
          partition,
          batches.rowsRead() - input.rows(),
          input.rows(),
          row,
          spec.located(error));
    }
  }

  private static List<PartialResult> inPartitionOrder(
      Iterator<Tuple2<Integer, PartialResult>> partials) {
    List<Tuple2<Integer, PartialResult>> all = new ArrayList<>();
    partials.forEachRemaining(all::add);
    all.sort(Comparator.comparing(Tuple2::_1));
    List<PartialResult> ordered = new ArrayList<>(all.size());
    for (Tuple2<Integer, PartialResult> partial : all) {
      ordered.add(partial._2());
    }
    return ordered;
  }
}
