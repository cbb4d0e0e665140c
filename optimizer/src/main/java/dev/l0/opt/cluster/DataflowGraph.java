package dev.l0.opt.cluster;

import dev.l0.ir.Dim;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Stm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dataflow graph of one body's SOACs (seed 002 §4.1, Fig. 6): a node per SOAC statement, in
 * program order (a topological order), and an edge from a SOAC to each later SOAC that reads its
 * results, directly or through scalar code between them.
 *
 * <p>An edge is <em>fusible</em> where the consumer reads the producer's arrays only as its input
 * arrays, one row per iteration, and the producer makes one row per row it reads or keeps: a map, a
 * filter or a filtermap. Every other edge is <em>fusion-preventing</em>: a reduction's result is
 * known only at its end, a scan's prefixes are read by passes of their own, an array read as a free
 * variable is read at random, and a value that reaches the consumer through other statements (a
 * call, a loop, an index) is one of them (the paper's {@code external}).
 *
 * <p>Each node has an iteration size, the size of its first input. A map's or scan's results have
 * its iteration size; a filter's (or filtermap's) results get a size of their own, {@code k'} in
 * the paper (§3.5): the filter is a transducer from its iteration size to that one (§3.6). Arrays
 * from outside the body have the size their type names, or a size of their own.
 */
public final class DataflowGraph {
  /** Whether the consumer of an edge may run in the producer's loop. */
  public enum EdgeKind {
    FUSIBLE,
    PREVENTING
  }

  /**
   * A SOAC: its statement, its iteration size, and, for a filter or filtermap, the new size of its
   * results ({@code null} for the others).
   */
  public record Node(Stm statement, String iterationSize, String outputSize) {
    /** The first name it binds, as diagnostics name it. */
    public String name() {
      return statement.pattern().get(0).name();
    }

    /** Whether it changes the size of what it reads (a filter or filtermap: a transducer). */
    public boolean transducer() {
      return outputSize != null;
    }
  }

  /** An edge from node {@code from} to the later node {@code to}. */
  public record Edge(int from, int to, EdgeKind kind) {}

  private final List<Node> nodes;
  private final List<Edge> edges;
  private final List<Set<String>> inputs;

  private DataflowGraph(List<Node> nodes, List<Edge> edges, List<Set<String>> inputs) {
    this.nodes = List.copyOf(nodes);
    this.edges = List.copyOf(edges);
    this.inputs = List.copyOf(inputs);
  }

  public List<Node> nodes() {
    return nodes;
  }

  public List<Edge> edges() {
    return edges;
  }

  /** Whether nodes {@code i} and {@code j} read an input array in common. */
  public boolean shareInput(int i, int j) {
    return inputs.get(i).stream().anyMatch(inputs.get(j)::contains);
  }

  /**
   * The graph of the SOACs of {@code stms}, in order; {@code types} gives the types of the arrays
   * bound outside them (a function's parameters), whose sizes their types name.
   */
  public static DataflowGraph of(List<Stm> stms, Map<String, Type> types) {
    List<Node> nodes = new ArrayList<>();
    List<Set<String>> inputs = new ArrayList<>();
    Map<String, Integer> producedBy = new HashMap<>();
    Map<String, Set<Integer>> reachesThrough = new HashMap<>();
    Map<String, String> sizeOf = new HashMap<>();
    Map<Long, Edge> edges = new LinkedHashMap<>();
    for (Stm stm : stms) {
      Set<String> free = Analysis.freeVariables(stm);
      if (!(stm.exp() instanceof Exp.Soac soac) || soac.inputs().isEmpty()) {
        Set<Integer> sources = new HashSet<>();
        for (String v : free) {
          if (producedBy.containsKey(v)) {
            sources.add(producedBy.get(v));
          }
          sources.addAll(reachesThrough.getOrDefault(v, Set.of()));
        }
        for (Ident id : stm.pattern()) {
          reachesThrough.put(id.name(), sources);
          sizeOf.put(id.name(), declaredSize(id.name(), id.type()));
        }
        continue;
      }
      int index = nodes.size();
      String iteration =
          sizeOf.computeIfAbsent(
              soac.inputs().get(0).varName(), v -> declaredSize(v, types.get(v)));
      boolean transducer = soac instanceof Exp.FilterMap;
      String output = transducer ? outputSize(stm, 0) : null;
      nodes.add(new Node(stm, iteration, output));
      Set<String> read = new LinkedHashSet<>();
      soac.inputs().forEach(in -> read.add(in.varName()));
      inputs.add(read);
      Map<String, Integer> uses = new HashMap<>(Analysis.useCounts(stm.exp()));
      stm.certificates().forEach(c -> uses.merge(c, 1, Integer::sum));
      // A size its result's type names is its iteration size, not a value it reads.
      free.retainAll(uses.keySet());
      for (String v : free) {
        Integer producer = producedBy.get(v);
        if (producer != null) {
          long asInput = soac.inputs().stream().filter(in -> v.equals(in.varName())).count();
          boolean rowwise =
              uses.getOrDefault(v, 0) == asInput && makesRows(nodes.get(producer).statement());
          addEdge(edges, producer, index, rowwise ? EdgeKind.FUSIBLE : EdgeKind.PREVENTING);
        }
        for (int source : reachesThrough.getOrDefault(v, Set.of())) {
          addEdge(edges, source, index, EdgeKind.PREVENTING);
        }
      }
      for (int k = 0; k < stm.pattern().size(); k++) {
        Ident id = stm.pattern().get(k);
        producedBy.put(id.name(), index);
        if (id.type() instanceof Type.Array) {
          sizeOf.put(
              id.name(),
              isReduction(soac, k)
                  ? declaredSize(id.name(), id.type())
                  : transducer ? outputSize(stm, k) : iteration);
        }
      }
    }
    return new DataflowGraph(nodes, new ArrayList<>(edges.values()), inputs);
  }

  /**
   * The new size of result {@code k} of a filter or filtermap: {@code k'} named by the first result
   * of its filter (a filtermap of several filters gives each a size of its own).
   */
  private static String outputSize(Stm transducer, int k) {
    Exp.FilterMap f = (Exp.FilterMap) transducer.exp();
    int first = f.firstResult(f.filterOf(k));
    return "k'" + transducer.pattern().get(first).name();
  }

  /**
   * Whether result {@code k} of {@code soac} is a reduction's final accumulator (of a reduce,
   * redomap or a filtermap's accumulators): one value, whose rows, where it is an array, are its
   * own and not the SOAC's iterations.
   */
  private static boolean isReduction(Exp.Soac soac, int k) {
    boolean reduces = soac instanceof Exp.FilterMap || soac instanceof Exp.Screma s && !s.scans();
    return reduces && k < soac.accumulators();
  }

  private static boolean makesRows(Stm producer) {
    Exp e = producer.exp();
    return e.isMap() || e instanceof Exp.FilterMap;
  }

  /** A fusion-preventing edge wins over a fusible one between the same two nodes. */
  private static void addEdge(Map<Long, Edge> edges, int from, int to, EdgeKind kind) {
    long key = (long) from << 32 | to;
    Edge old = edges.get(key);
    if (old == null || kind == EdgeKind.PREVENTING) {
      edges.put(key, new Edge(from, to, kind));
    }
  }

  /** The size the array type {@code type} of {@code name} names, or a size of its own. */
  private static String declaredSize(String name, Type type) {
    if (type instanceof Type.Array a) {
      if (a.size() instanceof Dim.Named n) {
        return n.variable();
      }
      if (a.size() instanceof Dim.Const c) {
        return Long.toString(c.size());
      }
    }
    return "|" + name + "|";
  }
}
