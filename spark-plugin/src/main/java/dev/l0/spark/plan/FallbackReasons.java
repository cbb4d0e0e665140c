package dev.l0.spark.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.util.AccumulatorV2;

/**
 * The distinct reasons why a pipeline node's work fell back (a GPU Spark assigned to a task that
 * could not be used, a kernel that did not run on its backend), gathered from its tasks in the
 * order they arrive, at most {@value #LIMIT}. Registered under {@link #NAME}, so the Spark UI shows
 * it with the stage, and {@link FallbackLog} logs it on the driver.
 */
final class FallbackReasons extends AccumulatorV2<String, List<String>> {
  private static final long serialVersionUID = 1L;

  /** The accumulator's name in the Spark UI and in stage information. */
  static final String NAME = "L0 fallback reasons";

  /**
   * The most reasons kept per node; later distinct ones are dropped (the metric still counts them).
   */
  static final int LIMIT = 64;

  private final Set<String> reasons = new LinkedHashSet<>();

  @Override
  public synchronized boolean isZero() {
    return reasons.isEmpty();
  }

  @Override
  public synchronized AccumulatorV2<String, List<String>> copy() {
    FallbackReasons copy = new FallbackReasons();
    copy.reasons.addAll(reasons);
    return copy;
  }

  @Override
  public synchronized void reset() {
    reasons.clear();
  }

  @Override
  public synchronized void add(String reason) {
    if (reasons.size() < LIMIT) {
      reasons.add(reason);
    }
  }

  @Override
  public void merge(AccumulatorV2<String, List<String>> other) {
    other.value().forEach(this::add);
  }

  @Override
  public synchronized List<String> value() {
    return List.copyOf(new ArrayList<>(reasons));
  }
}
