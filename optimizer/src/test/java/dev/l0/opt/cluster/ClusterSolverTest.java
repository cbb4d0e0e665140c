package dev.l0.opt.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.Type;
import dev.l0.opt.Optimizer;
import dev.l0.opt.flatten.TupleFlattener;
import dev.l0.opt.fusion.FailureOrder;
import dev.l0.opt.fusion.Fusion;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.PassManager;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's own examples (§1, §5, Fig. 7) written in L0, clustered before any fusion: the loop
 * counts the paper reports for its system (normalize2 2, closest points 3, quadtree 2), its
 * objective value for normalize2 (51), and the clusterings it names.
 */
class ClusterSolverTest {
  /** The body with the most SOACs of {@code source}'s program, simplified but not fused. */
  private static DataflowGraph graphOf(String source) {
    NameSource names = new NameSource();
    InternalProgram internal =
        TupleFlattener.flatten(TypeChecker.check(L0Parser.parse(source, "test.l0")), names);
    InternalProgram simplified =
        PassManager.runAll(
            Optimizer.pipeline(new Fusion(FailureOrder.FUSED)).subList(0, 2), internal, names);
    List<Body> bodies = new ArrayList<>();
    Map<String, Type> types = new HashMap<>();
    for (InternalFunction f : simplified.functions()) {
      collectBodies(f.body(), bodies);
      f.params().forEach(p -> types.put(p.name(), p.type()));
    }
    Body busiest =
        bodies.stream().max(Comparator.comparingLong(ClusterSolverTest::soacs)).orElseThrow();
    return DataflowGraph.of(busiest.stms(), types);
  }

  private static void collectBodies(Body body, List<Body> out) {
    out.add(body);
    for (Stm stm : body.stms()) {
      Traversal.nestedBodies(stm.exp()).forEach(b -> collectBodies(b, out));
    }
  }

  private static long soacs(Body body) {
    return body.stms().stream().filter(s -> s.exp() instanceof Exp.Soac).count();
  }

  private static List<List<String>> named(DataflowGraph graph, Clustering clustering) {
    return clustering.clusters().stream()
        .map(
            c ->
                c.stream()
                    .map(i -> graph.nodes().get(i).name().replaceAll("_[0-9]+$", ""))
                    .toList())
        .toList();
  }

  @Test
  void normalize2IsTwoLoopsWithThePapersObjective() {
    DataflowGraph graph =
        graphOf(
            """
        fun {[real], [real]} main([real] xs) =
          let sum1 = reduce(op +, 0.0, xs) in
          let gts = filter(fn bool (real x) => x > 0.0, xs) in
          let sum2 = reduce(op +, 0.0, gts) in
          let ys1 = map(fn real (real x) => x / sum1, xs) in
          let ys2 = map(fn real (real x) => x / sum2, xs) in
          {ys1, ys2}
        """);
    assertEquals(5, graph.nodes().size());
    Clustering clustering = ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT);
    assertEquals(
        List.of(List.of("sum1", "gts", "sum2"), List.of("ys1", "ys2")), named(graph, clustering));
    assertEquals(51, clustering.cost(), "§5.1: 25 x(sum1,ys2) + 25 x(gts,ys1) + 1 x(sum2,ys1)");
    assertTrue(clustering.exact());
  }

  @Test
  void quadtreeIsTwoLoops() {
    DataflowGraph graph = graphOf(TestPrograms.text(TestPrograms.ILP_QUADTREE));
    assertEquals(8, graph.nodes().size(), "Fig. 7: 8 loops unfused");
    Clustering clustering = ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT);
    assertEquals(2, clustering.loops(), () -> named(graph, clustering).toString());
    assertEquals(List.of(0, 1, 2, 3), clustering.clusters().get(0), "the four reductions");
  }

  @Test
  void closestPointsIsThreeLoops() {
    DataflowGraph graph = graphOf(TestPrograms.text(TestPrograms.ILP_CLOSEST_POINTS));
    assertEquals(6, graph.nodes().size(), "Fig. 7: 6 loops unfused");
    Clustering clustering = ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT);
    assertEquals(3, clustering.loops(), () -> named(graph, clustering).toString());
    assertEquals(List.of(0, 1), clustering.clusters().get(0), "both halves in one loop");
  }

  @Test
  void aMapFeedingAFilterFeedingAMapIsOneLoop() {
    DataflowGraph graph =
        graphOf(
            """
        fun [int] main([int] xs) =
          let ys = map(fn int (int x) => x * 3 + 1, xs) in
          let zs = filter(fn bool (int y) => y % 2 = 0, ys) in
          map(fn int (int z) => z - 7, zs)
        """);
    assertEquals(
        List.of(DataflowGraph.EdgeKind.FUSIBLE, DataflowGraph.EdgeKind.FUSIBLE),
        graph.edges().stream().map(DataflowGraph.Edge::kind).toList());
    assertEquals(1, ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT).loops());
  }

  @Test
  void aReductionsResultPreventsFusionWithItsReader() {
    DataflowGraph graph =
        graphOf(
            """
        fun [real] main([real] xs) =
          let s = reduce(op +, 0.0, xs) in
          map(fn real (real x) => x / s, xs)
        """);
    assertEquals(
        List.of(DataflowGraph.EdgeKind.PREVENTING),
        graph.edges().stream().map(DataflowGraph.Edge::kind).toList());
    Clustering clustering = ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT);
    assertEquals(2, clustering.loops());
    assertFalse(ClusterSolver.violation(graph, clustering).isPresent());
    Clustering together = new Clustering(List.of(List.of(0, 1)), 0, Clustering.Solution.EXACT);
    assertEquals(
        "s and main_res share a loop across a fusion-preventing path",
        ClusterSolver.violation(graph, together).orElseThrow().replaceAll("_[0-9]+", ""));
  }

  /** Ten groups of a sum, a map reading it and a filter of the map: 30 SOACs. */
  private static String thirtySoacs() {
    StringBuilder source = new StringBuilder();
    List<String> results = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      source.append(
          ("  let s%1$d = reduce(op +, %1$d.5, xs) in\n"
                  + "  let m%1$d = map(fn real (real x) => x * %1$d.0 + s%1$d, xs) in\n"
                  + "  let f%1$d = filter(fn bool (real x) => x > s%1$d, m%1$d) in\n")
              .formatted(k));
      results.add("f" + k);
      types.add("[real]");
    }
    return "fun {%s} main([real] xs) =\n%s  {%s}\n"
        .formatted(String.join(", ", types), source, String.join(", ", results));
  }

  /** Quadtree's shape at 30 SOACs: 15 reductions of one array, then 15 filters of it. */
  private static String fifteenSumsAndFifteenFilters() {
    StringBuilder source = new StringBuilder();
    List<String> sums = new ArrayList<>();
    List<String> filters = new ArrayList<>();
    for (int k = 0; k < 15; k++) {
      source.append("  let s%1$d = reduce(op +, %1$d.5, xs) in\n".formatted(k));
      sums.add("s" + k);
    }
    source.append("  let t = %s in\n".formatted(String.join(" + ", sums)));
    for (int k = 0; k < 15; k++) {
      filters.add("filter(fn bool (real x) => x * %d.0 > t, xs)".formatted(k));
    }
    return "fun {%s} main([real] xs) =\n%s  {%s}\n"
        .formatted(
            String.join(", ", Collections.nCopies(15, "[real]")),
            source,
            String.join(", ", filters));
  }

  @Test
  void thirtySoacsAreSolvedExactly() {
    DataflowGraph graph = graphOf(fifteenSumsAndFifteenFilters());
    assertEquals(30, graph.nodes().size());
    Clustering clustering = ClusterSolver.solve(graph, ClusterSolver.Settings.DEFAULT);
    assertTrue(clustering.exact(), "the branch and bound proved the clustering minimal");
    assertEquals(
        java.util.Optional.empty(), clustering.notProvedMinimal(ClusterSolver.Settings.DEFAULT));
    assertEquals(2, clustering.loops(), () -> named(graph, clustering).toString());
  }

  @Test
  void pastItsBudgetTheSearchKeepsTheBestClusteringFound() {
    DataflowGraph graph = graphOf(thirtySoacs());
    assertEquals(30, graph.nodes().size());
    Clustering clustering =
        ClusterSolver.solve(graph, new ClusterSolver.Settings(30, 5000, Long.MAX_VALUE));
    assertEquals(
        Clustering.Solution.BEST_WITHIN_STEPS,
        clustering.solution(),
        "this graph is not proved minimal in 5000 steps (the clock, read every 1024, has no cap)");
    assertEquals(
        clustering,
        ClusterSolver.solve(graph, new ClusterSolver.Settings(30, 5000, Long.MAX_VALUE)));
    assertEquals(java.util.Optional.empty(), ClusterSolver.violation(graph, clustering));
    assertTrue(clustering.loops() <= 3, () -> named(graph, clustering).toString());
  }

  @Test
  void beyondTheExactLimitTheClusteringIsGreedyAndStillValid() {
    DataflowGraph graph = graphOf(thirtySoacs());
    Clustering clustering = ClusterSolver.solve(graph, new ClusterSolver.Settings(29, 1000, 0));
    assertEquals(Clustering.Solution.GREEDY_BEYOND_LIMIT, clustering.solution());
    assertEquals(java.util.Optional.empty(), ClusterSolver.violation(graph, clustering));
    assertTrue(clustering.loops() < 30, () -> named(graph, clustering).toString());
  }

  /**
   * Past the time cap (here 0 ms) the search gives the greedy clustering, whatever it had found by
   * then, so the result does not depend on the machine's speed; it says why.
   */
  @Test
  void pastItsTimeCapTheSearchGivesTheGreedyClustering() {
    DataflowGraph graph = graphOf(thirtySoacs());
    ClusterSolver.Settings capped = new ClusterSolver.Settings(30, Long.MAX_VALUE, 0);
    Clustering clustering = ClusterSolver.solve(graph, capped);
    Clustering greedy = ClusterSolver.solve(graph, new ClusterSolver.Settings(29, 0, 0));
    assertEquals(Clustering.Solution.GREEDY_PAST_TIME_CAP, clustering.solution());
    assertEquals(greedy.clusters(), clustering.clusters());
    assertEquals(greedy.cost(), clustering.cost());
    assertEquals(
        "is the greedy one: the search ran past l0.opt.cluster.maxMillis = 0 ms",
        clustering.notProvedMinimal(capped).orElseThrow());
  }

  /**
   * A note that a clustering is not proved minimal is logged at INFO once per JVM however often the
   * same program is compiled (every task of a Spark job compiles its pipeline's program), and a
   * clustering past the time cap is a WARNING every time.
   */
  @Test
  void theSameNoteIsLoggedOnceAndTheTimeCapEveryTime() {
    Logger logger = Logger.getLogger(ClusterSolver.class.getName());
    List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            records.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    try {
      DataflowGraph graph = graphOf(thirtySoacs());
      // 29 SOACs at most solved exactly: this graph of 30 gets the greedy clustering, with a note
      ClusterSolver.Settings limited = new ClusterSolver.Settings(29, 200_000, 20_000);
      ClusterSolver.solve(graph, limited);
      ClusterSolver.solve(graph, limited);
      ClusterSolver.Settings capped = new ClusterSolver.Settings(30, Long.MAX_VALUE, 0);
      ClusterSolver.solve(graph, capped);
      ClusterSolver.solve(graph, capped);
    } finally {
      logger.removeHandler(handler);
    }
    List<String> notes =
        records.stream()
            .filter(r -> r.getLevel() == Level.INFO)
            .map(LogRecord::getMessage)
            .filter(m -> m.contains("more SOACs than l0.opt.cluster.exactLimit = 29"))
            .toList();
    assertTrue(notes.size() <= 1, notes.toString());
    long warnings =
        records.stream()
            .filter(r -> r.getLevel() == Level.WARNING)
            .filter(r -> r.getMessage().contains("l0.opt.cluster.maxMillis = 0 ms"))
            .count();
    assertEquals(2, warnings, records.stream().map(LogRecord::getMessage).toList().toString());
  }

  @Test
  void aSettingThatIsNotAnIntegerInRangeIsRefusedNamingIt() {
    String property = "l0.opt.cluster.maxSteps";
    System.setProperty(property, "200k");
    try {
      L0ConfigurationError e =
          assertThrows(L0ConfigurationError.class, ClusterSolver.Settings::fromSystemProperties);
      assertEquals(
          "the system property l0.opt.cluster.maxSteps must be an integer of at least 1 (search"
              + " steps of the exact filter clustering), not '200k'",
          e.getMessage());
      System.setProperty(property, " 1000 ");
      assertEquals(1000, ClusterSolver.Settings.fromSystemProperties().maxSteps());
    } finally {
      System.clearProperty(property);
    }
    assertEquals(ClusterSolver.Settings.DEFAULT, ClusterSolver.Settings.fromSystemProperties());
  }

  /**
   * A program with nothing to cluster never asked for the settings, so {@code bin/l0 run} took a
   * bad value without a word where README says it fails the optimisation.
   */
  @Test
  void aBadSettingFailsTheOptimisationOfAProgramWithNothingToCluster() {
    String property = "l0.opt.cluster.exactLimit";
    System.setProperty(property, "-1");
    try {
      TypedProgram typed =
          TypeChecker.check(L0Parser.parse("fun i32 main(i32 x) = x + 1", "one.l0"));
      L0ConfigurationError e =
          assertThrows(L0ConfigurationError.class, () -> Optimizer.optimize(typed));
      assertTrue(e.getMessage().contains("l0.opt.cluster.exactLimit"), e.getMessage());
      assertTrue(e.getMessage().endsWith("not '-1'"), e.getMessage());
    } finally {
      System.clearProperty(property);
    }
  }
}
