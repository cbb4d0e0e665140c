package dev.l0.opt.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A clustering of a {@link DataflowGraph}'s nodes into loops: {@code clusters} lists each loop's
 * nodes in program order, loops ordered by their first node; {@code cost} is the paper's objective
 * (seed 002 §4.4) and {@code solution} says how the solver found it. The paper's variables {@code
 * x(i,j)} need not be transitive; this one is a partition, decoded from the solver's assignment and
 * checked again by {@link ClusterSolver#violation}.
 */
public record Clustering(List<List<Integer>> clusters, long cost, Solution solution) {
  /** How the {@link ClusterSolver} found a clustering. */
  public enum Solution {
    /** The branch and bound proved it minimal. */
    EXACT,
    /** The best the branch and bound found within its budget of steps. */
    BEST_WITHIN_STEPS,
    /** The greedy clustering: the branch and bound ran past its time cap. */
    GREEDY_PAST_TIME_CAP,
    /** The greedy clustering: the graph has more nodes than the solver solves exactly. */
    GREEDY_BEYOND_LIMIT
  }

  public Clustering {
    clusters = clusters.stream().map(List::copyOf).toList();
  }

  /** Whether the solver proved it minimal. */
  public boolean exact() {
    return solution == Solution.EXACT;
  }

  /**
   * Why this clustering is not proved minimal, with the limit of {@code settings} that stopped the
   * search, as a log or {@code explain} says it after "the clustering"; empty where it is.
   */
  public Optional<String> notProvedMinimal(ClusterSolver.Settings settings) {
    return switch (solution) {
      case EXACT -> Optional.empty();
      case BEST_WITHIN_STEPS ->
          Optional.of(
              "is the best found in l0.opt.cluster.maxSteps = "
                  + settings.maxSteps()
                  + " search steps, not proved minimal");
      case GREEDY_PAST_TIME_CAP ->
          Optional.of(
              "is the greedy one: the search ran past l0.opt.cluster.maxMillis = "
                  + settings.maxMillis()
                  + " ms");
      case GREEDY_BEYOND_LIMIT ->
          Optional.of(
              "is the greedy one: more SOACs than l0.opt.cluster.exactLimit = "
                  + settings.exactLimit());
    };
  }

  /** The number of loops. */
  public int loops() {
    return clusters.size();
  }

  /** The clusters of an assignment of each node to a cluster number. */
  static List<List<Integer>> decode(int[] clusterOf) {
    List<List<Integer>> out = new ArrayList<>();
    List<Integer> numbers = new ArrayList<>();
    for (int node = 0; node < clusterOf.length; node++) {
      int k = numbers.indexOf(clusterOf[node]);
      if (k < 0) {
        numbers.add(clusterOf[node]);
        out.add(new ArrayList<>());
        k = out.size() - 1;
      }
      out.get(k).add(node);
    }
    return out;
  }
}
