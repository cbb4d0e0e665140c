package dev.l0.spark.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The final combination of per-partition partials, run on one task or the driver. Partials are
 * combined left to right in partition order, so the result is deterministic for a partitioning
 * (and, for exact float sums, whatever the partitioning: they merge exactly and round once here).
 */
public final class PartialCombiner {
  private PartialCombiner() {}

  /**
   * REDUCE: the one output row from every partition's partial, in partition order (no partitions:
   * the neutral result).
   */
  public static ColumnBatch finish(
      PipelineSpec spec, List<PartialResult> inPartitionOrder, ExecutionSettings settings) {
    requireKind(spec, PipelineKind.REDUCE, "finish");
    try (PartitionRunner runner = PartitionRunner.open(spec, settings)) {
      PartialResult total = inPartitionOrder.isEmpty() ? runner.partial() : inPartitionOrder.get(0);
      for (int p = 1; p < inPartitionOrder.size(); p++) {
        total = runner.combine(total, inPartitionOrder.get(p));
      }
      return new ColumnBatch(
          1, runner.resultValues(total).stream().map(BatchColumns::oneRow).toList());
    }
  }

  /**
   * SCAN: element p is the carry into partition p (the combination of totals 0..p-1), empty for p =
   * 0.
   */
  public static List<Optional<PartialResult>> scanCarries(
      PipelineSpec spec, List<PartialResult> totalsInPartitionOrder, ExecutionSettings settings) {
    requireKind(spec, PipelineKind.SCAN, "scanCarries");
    List<Optional<PartialResult>> carries = new ArrayList<>();
    if (totalsInPartitionOrder.isEmpty()) {
      return carries;
    }
    carries.add(Optional.empty());
    try (PartitionRunner runner = PartitionRunner.open(spec, settings)) {
      PartialResult sum = null;
      for (int p = 1; p < totalsInPartitionOrder.size(); p++) {
        PartialResult previous = totalsInPartitionOrder.get(p - 1);
        sum = sum == null ? previous : runner.combine(sum, previous);
        carries.add(Optional.of(sum));
      }
    }
    return carries;
  }

  private static void requireKind(PipelineSpec spec, PipelineKind kind, String operation) {
    if (spec.kind() != kind) {
      throw new IllegalArgumentException(
          operation
              + " is for "
              + kind
              + " pipelines, but "
              + spec.summary()
              + " is "
              + spec.kind());
    }
  }
}
