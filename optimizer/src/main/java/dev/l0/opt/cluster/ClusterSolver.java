package dev.l0.opt.cluster;

import dev.l0.ir.L0ConfigurationError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the clustering of a {@link DataflowGraph} that minimises seed 002's objective (§4.4-4.5):
 * {@code N²} for each pair of nodes that could share a loop, share an input or an edge, and do not
 * (memory traffic), {@code N} for each array not fully contracted (an intermediate array), and 1
 * for each other pair that could share a loop and does not (loop overhead), {@code N} being the
 * number of nodes. A clustering is valid when (§4.3) no two nodes of a loop have a
 * fusion-preventing path between them, the loops can run in some order (the graph of loops is
 * acyclic), and every node of a loop iterates over the loop's size, or over the output size of a
 * filter in the same loop that does (the paper's parent transducers, made transitive).
 *
 * <p>Up to {@link Settings#exactLimit} nodes it solves exactly, by branch and bound over the
 * assignments of nodes, in program order, to an earlier node's loop or a new one, from the greedy
 * clustering as the first bound. Its budget has two bounds. The deterministic one counts steps:
 * past {@link Settings#maxSteps} it keeps the best clustering found so far ({@link
 * Clustering.Solution#BEST_WITHIN_STEPS}), the same on every machine and under any load. The other,
 * {@link Settings#maxMillis} of wall-clock time, is a safety net for a machine so slow or loaded
 * that the steps would take too long: past it the search gives up and returns the greedy clustering
 * ({@link Clustering.Solution#GREEDY_PAST_TIME_CAP}), not the best found by then, so that what it
 * returns does not depend on how far the search got. Beyond the exact limit it is greedy: each node
 * joins the loop that costs least. Where the clustering is not proved minimal, the {@code
 * dev.l0.opt.cluster.ClusterSolver} logger says why, and {@code explain} notes it.
 */
public final class ClusterSolver {
  private static final System.Logger LOG = System.getLogger(ClusterSolver.class.getName());

  /**
   * The notes already logged at INFO in this JVM: a program compiled again (on every executor task
   * that runs it, say) gives the same note, which is logged once; {@code l0 explain} shows it for
   * each program. A clustering cut short by the time cap is a WARNING every time.
   */
  private static final Set<String> NOTED = ConcurrentHashMap.newKeySet();

  /** The search steps between two looks at the clock. */
  private static final long STEPS_PER_CLOCK_READING = 1024;

  /**
   * The solver's limits: the largest graph it solves exactly ({@code l0.opt.cluster.exactLimit},
   * default 30 SOACs), the search steps it may take ({@code l0.opt.cluster.maxSteps}, default
   * 200000, the deterministic bound) and the wall-clock time it may take ({@code
   * l0.opt.cluster.maxMillis}, default 20000 ms, a safety net above what the default steps take:
   * 2.9 to 3.9 s on a 30-SOAC graph that uses them all, on 2 cores at a load average of 14).
   */
  public record Settings(int exactLimit, long maxSteps, long maxMillis) {
    public static final Settings DEFAULT = new Settings(30, 200_000, 20_000);

    /** The settings the system properties give, each defaulting to {@link #DEFAULT}'s. */
    public static Settings fromSystemProperties() {
      return new Settings(
          L0ConfigurationError.intProperty(
              "l0.opt.cluster.exactLimit",
              DEFAULT.exactLimit,
              0,
              "the most SOACs a filter clustering is solved exactly for"),
          L0ConfigurationError.longProperty(
              "l0.opt.cluster.maxSteps",
              DEFAULT.maxSteps,
              1,
              "search steps of the exact filter clustering"),
          L0ConfigurationError.longProperty(
              "l0.opt.cluster.maxMillis",
              DEFAULT.maxMillis,
              1,
              "milliseconds the exact filter clustering may take"));
    }
  }

  private final DataflowGraph graph;
  private final int n;
  private final boolean[][] edge;
  private final boolean[][] possible;
  private final long[][] weight;
  private final boolean[] preventsContraction;

  private ClusterSolver(DataflowGraph graph) {
    this.graph = graph;
    this.n = graph.nodes().size();
    edge = new boolean[n][n];
    boolean[][] preventingPath = new boolean[n][n];
    boolean[][] path = new boolean[n][n];
    preventsContraction = new boolean[n];
    for (DataflowGraph.Edge e : graph.edges()) {
      edge[e.from()][e.to()] = true;
      path[e.from()][e.to()] = true;
      if (e.kind() == DataflowGraph.EdgeKind.PREVENTING) {
        preventingPath[e.from()][e.to()] = true;
        preventsContraction[e.from()] = true;
      }
    }
    // Edges go forward in program order, so one pass from the last node closes both relations.
    for (int i = n - 1; i >= 0; i--) {
      for (int j = i + 1; j < n; j++) {
        if (!path[i][j]) {
          continue;
        }
        for (int k = j + 1; k < n; k++) {
          if (path[j][k]) {
            path[i][k] = true;
            preventingPath[i][k] |= preventingPath[i][j] || preventingPath[j][k];
          }
        }
      }
    }
    possible = new boolean[n][n];
    weight = new long[n][n];
    long traffic = (long) n * n;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        boolean ok = !preventingPath[i][j];
        possible[i][j] = possible[j][i] = ok;
        long w = edge[i][j] || graph.shareInput(i, j) ? traffic : 1;
        weight[i][j] = weight[j][i] = ok ? w : 0;
      }
    }
  }

  /** The clustering of {@code graph} under {@code settings}. */
  public static Clustering solve(DataflowGraph graph, Settings settings) {
    ClusterSolver solver = new ClusterSolver(graph);
    int[] greedy = solver.greedy();
    Clustering best =
        solver.n <= settings.exactLimit()
            ? new Search(solver, greedy, settings).run()
            : solver.greedyClustering(greedy, Clustering.Solution.GREEDY_BEYOND_LIMIT);
    Optional<String> broken = violation(graph, best);
    if (broken.isPresent()) {
      throw new IllegalStateException(
          "the clustering solver made an invalid clustering: " + broken.get());
    }
    boolean pastTimeCap = best.solution() == Clustering.Solution.GREEDY_PAST_TIME_CAP;
    best.notProvedMinimal(settings)
        .map(why -> "the clustering of " + solver.n + " SOACs " + why)
        .ifPresent(
            message -> {
              if (pastTimeCap) {
                LOG.log(System.Logger.Level.WARNING, message);
              } else if (NOTED.add(message)) {
                LOG.log(System.Logger.Level.INFO, message);
              }
            });
    return best;
  }

  private Clustering greedyClustering(int[] greedy, Clustering.Solution solution) {
    return new Clustering(Clustering.decode(greedy), cost(greedy), solution);
  }

  /**
   * What makes {@code clustering} invalid for {@code graph} (§4.3), or empty where it is valid: the
   * check the decoded clusters pass again, since the paper's variables need not be transitive.
   */
  public static Optional<String> violation(DataflowGraph graph, Clustering clustering) {
    ClusterSolver solver = new ClusterSolver(graph);
    int[] clusterOf = new int[solver.n];
    for (int k = 0; k < clustering.clusters().size(); k++) {
      for (int node : clustering.clusters().get(k)) {
        clusterOf[node] = k;
      }
    }
    for (int node = 0; node < solver.n; node++) {
      Optional<String> why = solver.cannotJoin(clusterOf, node, clusterOf[node]);
      if (why.isPresent()) {
        return why;
      }
    }
    return Optional.empty();
  }

  /**
   * Why {@code node} cannot be in cluster {@code c} with the nodes before it, as {@code clusterOf}
   * assigns them; empty where it can.
   */
  private Optional<String> cannotJoin(int[] clusterOf, int node, int c) {
    List<DataflowGraph.Node> nodes = graph.nodes();
    for (int i = 0; i < node; i++) {
      if (clusterOf[i] == c && !possible[i][node]) {
        return Optional.of(
            nodes.get(i).name()
                + " and "
                + nodes.get(node).name()
                + " share a loop across a fusion-preventing path");
      }
    }
    if (!sameRootSize(clusterOf, node, c)) {
      return Optional.of(nodes.get(node).name() + " iterates over another size than its loop");
    }
    if (cyclic(clusterOf, node)) {
      return Optional.of("the loops up to " + nodes.get(node).name() + " cannot be ordered");
    }
    return Optional.empty();
  }

  /** Whether every node of cluster {@code c} up to {@code last} has one root size. */
  private boolean sameRootSize(int[] clusterOf, int last, int c) {
    String root = null;
    for (int i = 0; i <= last; i++) {
      if (clusterOf[i] == c) {
        String r = rootSize(clusterOf, last, c, i);
        if (root != null && !root.equals(r)) {
          return false;
        }
        root = r;
      }
    }
    return true;
  }

  /**
   * The size node {@code i} iterates over, taken back through the filters of cluster {@code c}
   * whose output size it is.
   */
  private String rootSize(int[] clusterOf, int last, int c, int i) {
    String size = graph.nodes().get(i).iterationSize();
    for (boolean changed = true; changed; ) {
      changed = false;
      for (int f = 0; f <= last; f++) {
        DataflowGraph.Node filter = graph.nodes().get(f);
        if (clusterOf[f] == c && filter.transducer() && filter.outputSize().equals(size)) {
          size = filter.iterationSize();
          changed = true;
        }
      }
    }
    return size;
  }

  /** Whether the loops of nodes {@code 0..last} have a cycle. */
  private boolean cyclic(int[] clusterOf, int last) {
    int loops = 0;
    for (int i = 0; i <= last; i++) {
      loops = Math.max(loops, clusterOf[i] + 1);
    }
    boolean[][] after = new boolean[loops][loops];
    for (DataflowGraph.Edge e : graph.edges()) {
      if (e.to() <= last && clusterOf[e.from()] != clusterOf[e.to()]) {
        after[clusterOf[e.from()]][clusterOf[e.to()]] = true;
      }
    }
    int[] state = new int[loops];
    for (int k = 0; k < loops; k++) {
      if (state[k] == 0 && cycleFrom(k, after, state)) {
        return true;
      }
    }
    return false;
  }

  private static boolean cycleFrom(int k, boolean[][] after, int[] state) {
    state[k] = 1;
    for (int next = 0; next < after.length; next++) {
      if (after[k][next]
          && (state[next] == 1 || state[next] == 0 && cycleFrom(next, after, state))) {
        return true;
      }
    }
    state[k] = 2;
    return false;
  }

  /**
   * What putting {@code node} in cluster {@code c} adds to the objective, given the clusters of the
   * nodes before it.
   */
  private long added(int[] clusterOf, int node, int c) {
    long cost = 0;
    for (int i = 0; i < node; i++) {
      if (clusterOf[i] != c) {
        cost += weight[i][node];
      }
    }
    return cost;
  }

  /** The objective of a complete assignment (§4.4). */
  long cost(int[] clusterOf) {
    long cost = 0;
    for (int j = 0; j < n; j++) {
      cost += added(clusterOf, j, clusterOf[j]);
    }
    for (int i = 0; i < n; i++) {
      if (!contracted(clusterOf, i)) {
        cost += n;
      }
    }
    return cost;
  }

  /**
   * Whether node {@code i}'s arrays need no memory: every consumer is in its loop (a node with a
   * fusion-preventing consumer or none counts as contracted: the paper's {@code c_i} is a constant
   * there).
   */
  private boolean contracted(int[] clusterOf, int i) {
    if (preventsContraction[i]) {
      return true;
    }
    for (DataflowGraph.Edge e : graph.edges()) {
      if (e.from() == i && clusterOf[e.to()] != clusterOf[i]) {
        return false;
      }
    }
    return true;
  }

  /** Each node, in order, joins the valid loop that adds least to the objective, or a new one. */
  private int[] greedy() {
    int[] clusterOf = new int[n];
    int loops = 0;
    for (int node = 0; node < n; node++) {
      int best = loops;
      clusterOf[node] = loops;
      long bestCost = added(clusterOf, node, loops);
      for (int c = 0; c < loops; c++) {
        clusterOf[node] = c;
        long cost = added(clusterOf, node, c);
        if (cost < bestCost && cannotJoin(clusterOf, node, c).isEmpty()) {
          best = c;
          bestCost = cost;
        }
      }
      clusterOf[node] = best;
      loops = Math.max(loops, best + 1);
    }
    return clusterOf;
  }

  /** The branch and bound (the paper solves an ILP; this enumerates the same valid partitions). */
  private static final class Search {
    private final ClusterSolver solver;
    private final int[] greedy;
    private final long maxSteps;
    private final long start;
    private final long capNanos;
    private final int[] clusterOf;
    private int[] best;
    private long bestCost;
    private Clustering.Solution stopped;
    private long steps;

    Search(ClusterSolver solver, int[] greedy, Settings settings) {
      this.solver = solver;
      this.greedy = greedy;
      this.maxSteps = settings.maxSteps();
      this.start = System.nanoTime();
      this.capNanos =
          settings.maxMillis() >= Long.MAX_VALUE / 1_000_000
              ? Long.MAX_VALUE
              : settings.maxMillis() * 1_000_000;
      this.clusterOf = new int[solver.n];
      this.best = greedy.clone();
      this.bestCost = solver.cost(greedy);
    }

    Clustering run() {
      extend(0, 0, 0);
      if (stopped == Clustering.Solution.GREEDY_PAST_TIME_CAP) {
        return solver.greedyClustering(greedy, stopped);
      }
      Clustering.Solution solution = stopped == null ? Clustering.Solution.EXACT : stopped;
      return new Clustering(Clustering.decode(best), bestCost, solution);
    }

    /**
     * A lower bound on what the nodes from {@code node} on add to the objective through their pairs
     * with the nodes before it: each pays its weights to every cluster but the one it gains most by
     * joining (or none, in a loop of its own), whether or not it may join it.
     */
    private long stillToPay(int node, int loops) {
      long bound = 0;
      long[] gain = new long[loops];
      for (int t = node; t < solver.n; t++) {
        Arrays.fill(gain, 0);
        long total = 0;
        for (int i = 0; i < node; i++) {
          total += solver.weight[i][t];
          gain[clusterOf[i]] += solver.weight[i][t];
        }
        long most = 0;
        for (long g : gain) {
          most = Math.max(most, g);
        }
        bound += total - most;
      }
      return bound;
    }

    /**
     * Assigns node {@code node} and the later ones, with {@code loops} clusters used so far and
     * {@code cost} the pair costs so far (a lower bound: no term of the objective is negative).
     */
    private void extend(int node, int loops, long cost) {
      if (stopped != null || cost + stillToPay(node, loops) >= bestCost) {
        return;
      }
      if (++steps > maxSteps) {
        stopped = Clustering.Solution.BEST_WITHIN_STEPS;
        return;
      }
      if (steps % STEPS_PER_CLOCK_READING == 0 && System.nanoTime() - start > capNanos) {
        stopped = Clustering.Solution.GREEDY_PAST_TIME_CAP;
        return;
      }
      if (node == solver.n) {
        long total = solver.cost(clusterOf);
        if (total < bestCost) {
          bestCost = total;
          best = clusterOf.clone();
        }
        return;
      }
      List<long[]> choices = new ArrayList<>();
      for (int c = 0; c <= loops; c++) {
        clusterOf[node] = c;
        if (c == loops || solver.cannotJoin(clusterOf, node, c).isEmpty()) {
          choices.add(new long[] {solver.added(clusterOf, node, c), c});
        }
      }
      choices.sort((a, b) -> Long.compare(a[0], b[0]));
      for (long[] choice : choices) {
        int c = (int) choice[1];
        clusterOf[node] = c;
        extend(node + 1, Math.max(loops, c + 1), cost + choice[0]);
      }
      Arrays.fill(clusterOf, node, solver.n, 0);
    }
  }
}
