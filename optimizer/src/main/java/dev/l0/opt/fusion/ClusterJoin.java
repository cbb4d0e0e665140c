package dev.l0.opt.fusion;

import dev.l0.ir.Type;
import dev.l0.opt.cluster.ClusterSolver;
import dev.l0.opt.cluster.Clustering;
import dev.l0.opt.cluster.DataflowGraph;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Realises seed 002's clustering of a kernel-level body ({@link ClusterSolver}) where the fusion
 * rules have not: two maps the clustering puts in one loop, with no edge between them, over rows of
 * one size (where both may fail, as {@link Fusion}'s note on failures says), become one map ({@link
 * FusionRule#FUSE_CLUSTER}); so do two filters of scalar rows, into one filtermap of both ({@link
 * FusionRule#FUSE_CLUSTER_FILTERS}). Producer-consumer pairs of a cluster are fused by the T2 rules
 * themselves, filters by {@link FusionRule#FUSE_MAP_FILTER} and {@link FusionRule#FUSE_FILTER_MAP}.
 */
final class ClusterJoin {
  private ClusterJoin() {}

  /**
   * Joins the first pair of maps, or of filters, that one cluster of {@code stms} holds, {@code
   * types} giving the types of the names bound outside them and {@code around} the outer sizes that
   * the bodies around show; returns whether it did.
   */
  static boolean joinOnePair(
      List<Stm> stms,
      Map<String, Type> types,
      OuterSizes around,
      NameSource names,
      FusionHistory history) {
    if (stms.stream().filter(s -> s.exp().isMap()).count() < 2
        && stms.stream().filter(s -> FilterClusterRules.filterCluster(s.exp())).count() < 2) {
      return false;
    }
    DataflowGraph graph = DataflowGraph.of(stms, types);
    ClusterSolver.Settings settings = ClusterSolver.Settings.fromSystemProperties();
    Clustering clustering = ClusterSolver.solve(graph, settings);
    clustering
        .notProvedMinimal(settings)
        .ifPresent(why -> history.note("a filter clustering " + why));
    for (List<Integer> cluster : clustering.clusters()) {
      for (int a = 0; a < cluster.size(); a++) {
        for (int b = a + 1; b < cluster.size(); b++) {
          DataflowGraph.Node first = graph.nodes().get(cluster.get(a));
          DataflowGraph.Node second = graph.nodes().get(cluster.get(b));
          if (joinable(graph, cluster.get(a), cluster.get(b))
              && join(stms, first.statement(), second.statement(), around, names, history)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean joinable(DataflowGraph graph, int a, int b) {
    DataflowGraph.Node first = graph.nodes().get(a);
    DataflowGraph.Node second = graph.nodes().get(b);
    return first.iterationSize().equals(second.iterationSize())
        && graph.edges().stream().noneMatch(e -> e.from() == a && e.to() == b);
  }

  /**
   * Joins {@code first} and {@code second} at the second's place where their inputs have one outer
   * size by the types and statements in scope there ({@link OuterSizes}), as the joined SOAC's
   * inputs must: the clustering's sizes are the graph's, which knows that the results of one filter
   * (or of one map over them) have one size where their types may name two ({@code size(0, a)} and
   * {@code size(0, b)} of a filter's two results).
   */
  private static boolean join(
      List<Stm> stms,
      Stm first,
      Stm second,
      OuterSizes around,
      NameSource names,
      FusionHistory history) {
    int i = stms.indexOf(first);
    int j = stms.indexOf(second);
    if (!around.after(stms.subList(0, j)).shareOne((Exp.Soac) first.exp(), (Exp.Soac) second.exp())
        || Fusion.readBetween(stms, i, j, first)
        || Fusion.consumedBetween(stms, i, j, first)
        || !Fusion.joinAdmitted(stms, i, j, history)) {
      return false;
    }
    FusionRule rule =
        first.exp().isMap() ? FusionRule.FUSE_CLUSTER : FusionRule.FUSE_CLUSTER_FILTERS;
    return rule.apply(first, second, names)
        .map(
            joined -> {
              history.moved(first, stms.subList(i + 1, j + 1));
              history.record(rule, first, second, joined);
              stms.set(j, joined);
              stms.remove(i);
              return true;
            })
        .orElse(false);
  }

  /**
   * {@code first} and {@code second}, two filters or filtermaps of one size, as one filtermap of
   * their filters binding both patterns.
   */
  static Stm joinFilters(Stm first, Stm second) {
    Exp.FilterMap f = (Exp.FilterMap) first.exp();
    Exp.FilterMap g = (Exp.FilterMap) second.exp();
    List<SubExp> inputs = new ArrayList<>(f.inputs());
    inputs.addAll(g.inputs());
    List<Integer> filters = new ArrayList<>(f.filters());
    filters.addAll(g.filters());
    Exp.FilterMap joined =
        new Exp.FilterMap(FusionRules.joined(f.function(), 0, g.function(), 0), inputs, filters);
    return new Stm(
        concat(first.pattern(), second.pattern()),
        certificatesOf(first, second),
        FusionRules.mergeDuplicateInputs(joined));
  }

  /** {@code first} and {@code second}, two maps of one size, as one map binding both patterns. */
  static Stm joinMaps(Stm first, Stm second) {
    Exp.Screma f = (Exp.Screma) first.exp();
    Exp.Screma g = (Exp.Screma) second.exp();
    List<SubExp> inputs = new ArrayList<>(f.inputs());
    inputs.addAll(g.inputs());
    Exp.Screma joined =
        Exp.Screma.map(FusionRules.joined(f.function(), 0, g.function(), 0), inputs, f.pos())
            .fusedFrom(g);
    return new Stm(
        concat(first.pattern(), second.pattern()),
        certificatesOf(first, second),
        FusionRules.mergeDuplicateInputs(joined));
  }

  private static List<Ident> concat(List<Ident> first, List<Ident> second) {
    List<Ident> out = new ArrayList<>(first);
    out.addAll(second);
    return out;
  }

  /** The certificates of both statements, each once. */
  private static List<String> certificatesOf(Stm first, Stm second) {
    List<String> certs = new ArrayList<>(first.certificates());
    second.certificates().stream().filter(c -> !certs.contains(c)).forEach(certs::add);
    return certs;
  }
}
