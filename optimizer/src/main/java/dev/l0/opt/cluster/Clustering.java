package dev.l0.opt.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * A clustering of a {@link DataflowGraph}'s nodes into loops: {@code clusters} lists each loop's
 * nodes in program order, loops ordered by their first node; {@code cost} is the paper's objective
 * (seed 002 §4.4) and {@code exact} says whether the solver proved it minimal. The paper's
 * variables {@code x(i,j)} need not be transitive; this one is a partition, decoded from the
 * solver's assignment and checked again by {@link ClusterSolver#violation}.
 */
public record Clustering(List<List<Integer>> clusters, long cost, boolean exact) {
  public Clustering {
    clusters = clusters.stream().map(List::copyOf).toList();
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
