package dev.l0.spark.plan;

import java.util.EnumMap;
import java.util.Map;

/**
 * How a task's scalar input slices (one column's rows of one Spark batch) reached the runtime's
 * batches, counted per way: the node's metrics show them, and tests check which way was taken.
 */
final class InputPaths {
  /** The ways a slice of scalars is read ({@link ColumnReader}). */
  enum Path {
    /** Spark's on-heap value array is the batch's column itself: no copy. */
    IN_PLACE,
    /** One {@code arraycopy} from Spark's on-heap value array. */
    ARRAY_COPY,
    /** Spark's bulk getters (off-heap, Arrow or dictionary-encoded vectors): two copies. */
    GETTER_COPY
  }

  private final Map<Path, Long> slices = new EnumMap<>(Path.class);

  void count(Path path) {
    slices.merge(path, 1L, Long::sum);
  }

  /** The slices read {@code path}'s way so far. */
  long slices(Path path) {
    return slices.getOrDefault(path, 0L);
  }
}
