package dev.l0.opt.fusion;

import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.pass.RewriteRule;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The fusion rules, each a named unit that matches two SOACs and makes the one SOAC computing their
 * results: the producer-consumer rules of thesis §7.3 (their thesis names), which fuse a producer
 * into its consumer, horizontal fusion (seed 001's with-loop fusion), which joins two independent
 * siblings, and the duplication of a cheap producer into each of its consumers (§7.1.3, ch. 10);
 * {@link FusionRules} holds the function composition they share. {@link Fusion} tries them in this
 * order, and a test can apply one alone. No rule reassociates an operation: each keeps the
 * sequential order of every row's work, and a joined reduction keeps each accumulator's own fold
 * and combining order.
 */
public enum FusionRule implements RewriteRule {
  /** {@code map(g, map(f, a)) = map(g∘f, a)} (§7.2.1). */
  FUSE_MAP_MAP("FUSE-MAP-MAP") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer.isMap() && consumer.isMap();
    }
  },
  /**
   * {@code reduce(⊕, ne, map(f, a)) = redomap(⊕, fn acc x => acc ⊕ f(x), ne, a)}, and a map into a
   * redomap composes into its fold.
   */
  FUSE_MAP_REDOMAP("FUSE-MAP-REDOMAP") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer.isMap() && reduces(consumer);
    }
  },
  /**
   * {@code scan(⊕, ne, map(f, a)) = scanomap(⊕, fn acc x => acc ⊕ f(x), ne, a)}, and map into
   * scanomap.
   */
  FUSE_MAP_SCAN("FUSE-MAP-SCAN") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer.isMap() && consumer instanceof Exp.Screma s && s.scans();
    }
  },
  /** {@code filter(q, filter(p, a)) = filter(fn x => if p(x) then q(x) else false, a)}. */
  FUSE_FILTER_FILTER("FUSE-FILTER-FILTER") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer instanceof Exp.FilterMap p
          && p.isFilter()
          && consumer instanceof Exp.FilterMap f
          && f.isFilter()
          && allInputsFrom(f.inputs(), outputs);
    }
  },
  /**
   * A filter into a reduce or redomap: {@code fold' = fn acc x => if p(x) then fold(acc, x) else
   * acc} (the thesis's FUSE-FILTER-REDUCE).
   */
  FUSE_FILTER_REDOMAP("FUSE-FILTER-REDOMAP") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      boolean oneFilter =
          producer instanceof Exp.FilterMap f
              && (f.isFilter()
                  || f.filters().size() == 1 && f.accumulators() == 0 && scalarResults(consumer));
      return oneFilter
          && reducesOnly(consumer)
          && allInputsFrom(((Exp.Soac) consumer).inputs(), outputs);
    }

    @Override
    Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
      return !((Exp.FilterMap) producer.exp()).isFilter()
          ? FilterClusterRules.filterMapIntoReduction(producer, consumer, names)
          : FusionRules.fuse(producer, consumer, names);
    }
  },
  /**
   * Two reductions (reduce, redomap, or a screma with a map part) with scalar accumulators over
   * rows of arrays of one outer size ({@link OuterSizes}: one array, or arrays whose sizes are one
   * by their types or by a binding or assertion in scope), the second not reading the first's
   * results, become one redomap (or screma) over the inputs of both: the first's accumulators, then
   * the second's, folded in one pass; {@code min}, {@code max} and a sum of one array are one
   * kernel, and so are {@code reduce(+, 0.0, xs)} and {@code reduce(max, -1e308, ys)} where a
   * {@code zip(xs, ys)} has checked that their sizes are equal.
   */
  FUSE_HORIZONTAL("FUSE-HORIZONTAL") {
    @Override
    boolean matches(Exp first, Exp second, List<Ident> firstOutputs, OuterSizes sizes) {
      return reduces(first)
          && reduces(second)
          && independentOverOneSize(first, second, firstOutputs, sizes);
    }

    @Override
    Optional<Stm> fuse(Stm first, Stm second, NameSource names) {
      return Optional.of(FusionRules.joinHorizontally(first, second, names));
    }
  },
  /**
   * Horizontal fusion of a map with a reduction (seed 001's with-loop fusion: SOACs over one outer
   * size with no dependency between them are one pass): a reduction (reduce, redomap or screma)
   * with scalar accumulators and a map of scalar rows, or of array rows of sizes known outside it
   * ({@link Fusion#regularResults}), over rows of arrays of one outer size ({@link OuterSizes}),
   * either first, the second not reading the first's results, become one screma over the inputs of
   * both whose fold folds the accumulators and yields the map's values of each row ({@link
   * Exp.Screma#withMapOutputs}): {@code let s = reduce(+, 0.0, xs) in let ys = map(f, xs)} is
   * {@code screma(+, fn acc x => (acc + x, f(x)), {0.0}, xs)}, one kernel where there were two, and
   * with {@code map(f, zs)} over another array of that size, {@code screma(+, fn acc x z => (acc +
   * x, f(z)), {0.0}, xs, zs)}. The accumulators keep their fold and combining order, and each row's
   * map values are computed as the map computes them.
   */
  FUSE_HORIZONTAL_MAP("FUSE-HORIZONTAL-MAP") {
    @Override
    boolean matches(Exp first, Exp second, List<Ident> firstOutputs, OuterSizes sizes) {
      return (reduces(first) && second.isMap() || first.isMap() && reduces(second))
          && independentOverOneSize(first, second, firstOutputs, sizes);
    }

    @Override
    Optional<Stm> fuse(Stm first, Stm second, NameSource names) {
      return Optional.of(FusionRules.joinHorizontally(first, second, names));
    }
  },
  /**
   * Horizontal fusion of two maps (seed 001's with-loop fusion): maps of scalar rows over arrays of
   * one outer size ({@link OuterSizes}), the second not reading the first's results, become one map
   * binding the results of both: {@code map(f, xs)} and {@code map(g, ys)} are {@code map(fn x y =>
   * (f(x), g(y)), xs, ys)}, one kernel where there were two, an input they share read once. {@link
   * Fusion} tries it on the maps that seed 002's clustering has left apart ({@link #FUSE_CLUSTER}
   * joins those it puts in one loop). Each row's values are computed as each map computes them.
   */
  FUSE_HORIZONTAL_MAPS("FUSE-HORIZONTAL-MAPS") {
    @Override
    boolean matches(Exp first, Exp second, List<Ident> firstOutputs, OuterSizes sizes) {
      return first.isMap()
          && second.isMap()
          && scalarResults(first)
          && scalarResults(second)
          && independentOverOneSize(first, second, firstOutputs, sizes);
    }

    @Override
    Optional<Stm> fuse(Stm first, Stm second, NameSource names) {
      return Optional.of(ClusterJoin.joinMaps(first, second));
    }
  },
  /**
   * Cost-aware duplication (thesis §7.1.3 and ch. 10, which call refusing all duplication too
   * conservative; its R1 Fig. 42 and R2 Fig. 44 maps stay unfused for want of it): a map whose
   * function is cheap ({@link DuplicationCost}: straight-line scalar code that cannot fail, at most
   * {@link DuplicationCost#BOUND} scalar operations per element) fuses a fresh copy of itself into
   * one consumer by the producer-consumer rule that matches the pair; the producer stays. {@link
   * Fusion} applies it only to a producer with several consumers, to every one of them, and removes
   * the producer once none reads it. Each consumer recomputes the same operations in the same
   * order, so results are bit-identical.
   */
  FUSE_DUPLICATE_CHEAP_PRODUCER("FUSE-DUPLICATE-CHEAP-PRODUCER") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer instanceof Exp.Screma m
          && m.isMap()
          && DuplicationCost.cheap(m.function())
          && producerConsumerRule(producer, consumer, outputs).isPresent();
    }

    @Override
    Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
      Stm copy = FusionRules.freshCopy(producer, names);
      Stm readingCopy = FusionRules.renamingOf(producer, copy).apply(consumer);
      return producerConsumerRule(copy.exp(), readingCopy.exp(), copy.pattern())
          .orElseThrow()
          .apply(copy, readingCopy, names);
    }
  },
  // ---- filter clustering (seed 002): a filter fuses with its producer and its consumer ----
  /**
   * {@code filter(p, map(f, a)) = filtermap(fn x => let y = f(x) in (p(y), y), a)}: a map into a
   * filter (or into a filtermap) of scalar rows is one filter cluster ({@link FilterClusterRules}).
   */
  FUSE_MAP_FILTER("FUSE-MAP-FILTER") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return producer.isMap() && FilterClusterRules.filterCluster(consumer);
    }

    @Override
    Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
      return FilterClusterRules.mapIntoFilter(producer, consumer, names);
    }
  },
  /**
   * {@code map(g, filter(p, a)) = filtermap(fn x => (p(x), if p(x) then g(x) else 0), a)}: a map of
   * scalars reading only a filter's (or a filtermap's) kept rows runs in the filter's pass.
   */
  FUSE_FILTER_MAP("FUSE-FILTER-MAP") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return FilterClusterRules.filterCluster(producer)
          && !(producer instanceof Exp.FilterMap fm
              && (fm.filters().size() > 1 || fm.accumulators() > 0))
          && consumer instanceof Exp.Screma m
          && m.isMap()
          && m.function().returnTypes().stream().allMatch(t -> t.rank() == 0)
          && allInputsFrom(m.inputs(), outputs);
    }

    @Override
    Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
      return FilterClusterRules.filterIntoMap(producer, consumer, names);
    }
  },
  /**
   * Two maps that seed 002's clustering puts in one loop ({@link ClusterJoin}), over rows of one
   * size, the second not reading the first's results, become one map: {@code map(f, a)} and {@code
   * map(g, b)} are {@code map(fn x y => (f(x), g(y)), a, b)}, an input they share read once;
   * normalize2's {@code ys1} and {@code ys2} are one pass.
   */
  FUSE_CLUSTER("FUSE-CLUSTER") {
    @Override
    boolean matches(Exp first, Exp second, List<Ident> firstOutputs) {
      Set<String> read = Analysis.useCounts(second).keySet();
      return first.isMap()
          && second.isMap()
          && firstOutputs.stream().noneMatch(o -> read.contains(o.name()));
    }

    @Override
    Optional<Stm> fuse(Stm first, Stm second, NameSource names) {
      return Optional.of(ClusterJoin.joinMaps(first, second));
    }
  },
  /**
   * Two filters (or filtermaps) of scalar rows that seed 002's clustering puts in one loop ({@link
   * ClusterJoin}), over rows of one size, the second not reading the first's results, become one
   * filtermap of both: {@code filter(p, a)} and {@code filter(q, b)} are {@code filtermap(fn x y =>
   * (p(x), x, q(y), y), a, b)} with two filters, each keeping its own rows; closest points' halves
   * and quadtree's quarters are one pass.
   */
  FUSE_CLUSTER_FILTERS("FUSE-CLUSTER-FILTERS") {
    @Override
    boolean matches(Exp first, Exp second, List<Ident> firstOutputs) {
      Set<String> read = Analysis.useCounts(second).keySet();
      return FilterClusterRules.filterCluster(first)
          && FilterClusterRules.filterCluster(second)
          && ((Exp.Soac) first).accumulators() == 0
          && ((Exp.Soac) second).accumulators() == 0
          && firstOutputs.stream().noneMatch(o -> read.contains(o.name()));
    }

    @Override
    Optional<Stm> fuse(Stm first, Stm second, NameSource names) {
      return Optional.of(ClusterJoin.joinFilters(first, second));
    }
  },
  /**
   * A reduction (reduce or redomap, scalar accumulators; where both it and the filter may fail, as
   * {@link Fusion}'s note on failures says) of the kept values of one filter of a filter or
   * filtermap whose rows are also used elsewhere, folded in the filter's own pass (filter-reduce):
   * {@code let ws = filtermap(h, a) in {ws, reduce(⊕, ne, ws)}} is one filtermap with an
   * accumulator, {@code fn acc x => let (k, v) = h(x) in (if k then acc ⊕ v else acc, k, v)}, each
   * row folded in order, so one kernel where there were two.
   */
  FUSE_FILTERMAP_REDUCE("FUSE-FILTERMAP-REDUCE") {
    @Override
    boolean matches(Exp producer, Exp consumer, List<Ident> outputs) {
      return reducesOnly(consumer)
          && scalarResults(consumer)
          && FilterClusterRules.readsOneFilter(producer, outputs, ((Exp.Soac) consumer).inputs());
    }

    @Override
    Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
      return FilterClusterRules.reductionInFilterPass(producer, consumer, names);
    }
  },
  // ---- Across transpose and reshape (thesis ch. 8): applied by IndexFunctionFusion ----
  /**
   * {@code soac_p ~> map^D(g, transpose(k, n, os), c)} becomes {@code transpose(k, n, map^D(g, os,
   * transpose(k + n, -n, c)))}, and the producer fuses (§8.1.1; {@code D} the transpose depth).
   */
  PUSH_TRANSPOSE("PUSH-TRANSPOSE"),
  /**
   * {@code map^D(f, es) ~> soac_c(transpose(k, n, os))} becomes {@code map^D(f, transpose(k, n,
   * es)) ~> soac_c(os)}, and the pair fuses (§8.1.2).
   */
  PULL_TRANSPOSE("PULL-TRANSPOSE"),
  /**
   * {@code map(f, es) ~> soac_c(reshape(shape, os))}, {@code es} of rank 1, becomes {@code map^n(f,
   * reshape(shape, es)) ~> soac_c(os)}, and the pair fuses (§8.2).
   */
  PULL_RESHAPE("PULL-RESHAPE"),
  /** {@code soac_p ~> transpose(soac_c)}: fused as the pair, the transpose stays on the result. */
  FUSE_TRANSPOSED_CONSUMER("FUSE-TRANSPOSED-CONSUMER"),
  /**
   * {@code soac_p ~> reshape(shape, soac_c)}: fused as the pair, the reshape stays on the result.
   */
  FUSE_RESHAPED_CONSUMER("FUSE-RESHAPED-CONSUMER"),
  /**
   * {@code transpose(k, n, soac_p) ~> soac_c}: the transposition moves to the consumer's inputs,
   * where it cancels the consumer's inverse one, and the pair fuses (§8.4).
   */
  FUSE_TRANSPOSED_PRODUCER("FUSE-TRANSPOSED-PRODUCER"),
  /**
   * ISWIM, Interchange Scan With Inner Maps (§8.3, Fig. 35; at any depth, Fig. 36): {@code scan(fn
   * xs ys => map^d(⊕, xs, ys), ne, a) = transpose(d, -d, map^d(fn e c => scan(⊕, e, c), ne,
   * transpose(0, d, a)))}, so the scan is the innermost SOAC of its kernel ({@link Iswim}).
   */
  ISWIM("ISWIM"),
  /**
   * A map producer fused into a scan of rows as into its ISWIM form (§8.3): the map composes into
   * the scan's rows, and the scanomap it makes is interchanged ({@link Iswim#fuseConsumer}).
   */
  FUSE_ISWIM_CONSUMER("FUSE-ISWIM-CONSUMER"),
  /**
   * A scan of rows fused as a producer through its ISWIM form (§8.3): a consumer that maps over the
   * scan's elements runs in the interchanged nest, on each column just scanned ({@link
   * Iswim#fuseProducer}).
   */
  FUSE_ISWIM_PRODUCER("FUSE-ISWIM-PRODUCER");

  private final String ruleName;

  FusionRule(String ruleName) {
    this.ruleName = ruleName;
  }

  /** The thesis's name of the rule, e.g. {@code FUSE-MAP-REDOMAP}, as {@code explain} shows it. */
  @Override
  public String ruleName() {
    return ruleName;
  }

  /**
   * Whether this rule fuses {@code producer} directly into {@code consumer}; the rules across
   * transpose and reshape match no pair directly ({@link IndexFunctionFusion} applies them), and
   * the ISWIM rules never do, since each replaces one statement by several ({@link Iswim} applies
   * them).
   */
  boolean matches(Exp producer, Exp consumer, List<Ident> producerOutputs) {
    return false;
  }

  /**
   * Whether this rule fuses or joins {@code first} and {@code second}, where {@code sizes} says
   * which arrays have one outer size at {@code second}'s place; only the horizontal rules, which
   * join SOACs over arrays of one outer size, ask it.
   */
  boolean matches(Exp first, Exp second, List<Ident> firstOutputs, OuterSizes sizes) {
    return matches(first, second, firstOutputs);
  }

  /**
   * The statement binding {@code consumer}'s results with {@code producer} fused in, or empty where
   * this rule does not match; the horizontal rules join only SOACs that share an input array here.
   */
  public Optional<Stm> apply(Stm producer, Stm consumer, NameSource names) {
    return apply(producer, consumer, OuterSizes.OF_ONE_ARRAY, names);
  }

  /**
   * The statement binding the results of {@code first} and {@code second} as this rule fuses or
   * joins them, {@code sizes} saying which arrays have one outer size at {@code second}'s place;
   * empty where this rule does not match.
   */
  public Optional<Stm> apply(Stm first, Stm second, OuterSizes sizes, NameSource names) {
    if (!matches(first.exp(), second.exp(), first.pattern(), sizes)) {
      return Optional.empty();
    }
    return fuse(first, second, names);
  }

  /** The fused statement of a pair this rule matched. */
  Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
    return FusionRules.fuse(producer, consumer, names);
  }

  /**
   * The first rule, in order, that fuses {@code producer} into {@code consumer} (or joins the two);
   * empty where none does. {@link #FUSE_FILTERMAP_REDUCE}, which keeps the producer's rows, is left
   * to {@link Fusion}'s filter-reduce step, after the pair rules.
   */
  static Optional<FusionRule> matching(Stm producer, Stm consumer) {
    for (FusionRule rule : values()) {
      if (rule != FUSE_FILTERMAP_REDUCE
          && rule.matches(
              producer.exp(), consumer.exp(), producer.pattern(), OuterSizes.OF_ONE_ARRAY)) {
        return Optional.of(rule);
      }
    }
    return Optional.empty();
  }

  /**
   * The rule of §7.3 that fuses {@code producer} into {@code consumer} on its own; empty where none
   * does.
   */
  static Optional<FusionRule> producerConsumerRule(
      Exp producer, Exp consumer, List<Ident> outputs) {
    for (FusionRule rule :
        List.of(
            FUSE_MAP_MAP,
            FUSE_MAP_REDOMAP,
            FUSE_MAP_SCAN,
            FUSE_FILTER_FILTER,
            FUSE_FILTER_REDOMAP)) {
      if (rule.matches(producer, consumer, outputs)) {
        return Optional.of(rule);
      }
    }
    return Optional.empty();
  }

  private static boolean scalarResults(Exp soac) {
    return ((Exp.Soac) soac).rowFunction().returnTypes().stream().allMatch(t -> t.rank() == 0);
  }

  /**
   * Whether {@code first} and {@code second}, SOACs of scalar accumulators and rows that are
   * scalars or arrays of sizes known outside them ({@link Fusion#regularResults}), run over arrays
   * of one outer size ({@code sizes}) and the second reads none of the first's results.
   */
  private static boolean independentOverOneSize(
      Exp first, Exp second, List<Ident> firstOutputs, OuterSizes sizes) {
    if (!Fusion.regularResults(first) || !Fusion.regularResults(second)) {
      return false;
    }
    Set<String> read = Analysis.useCounts(second).keySet();
    return sizes.shareOne((Exp.Soac) first, (Exp.Soac) second)
        && firstOutputs.stream().noneMatch(o -> read.contains(o.name()));
  }

  /** Whether it is a reduction: a reduce, a redomap, or a screma with a map part. */
  private static boolean reduces(Exp consumer) {
    return consumer instanceof Exp.Screma s && s.folds() && !s.scans();
  }

  /**
   * Whether it is a reduction without a map part, whose results are its accumulators (the filter
   * rules fold only those into a filter's pass).
   */
  private static boolean reducesOnly(Exp consumer) {
    return reduces(consumer) && !((Exp.Screma) consumer).reducesAndMaps();
  }

  /**
   * Whether the consumer reads only the producer's outputs, each once: a filter changes the size,
   * so no other input may stay.
   */
  private static boolean allInputsFrom(List<SubExp> inputs, List<Ident> outputs) {
    List<SubExp> produced = outputs.stream().map(id -> (SubExp) id.var()).toList();
    return produced.containsAll(inputs) && inputs.stream().distinct().count() == inputs.size();
  }
}
