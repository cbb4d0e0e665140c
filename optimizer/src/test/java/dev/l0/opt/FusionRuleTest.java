package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Type;
import dev.l0.opt.fusion.FusionRule;
import dev.l0.opt.fusion.OuterSizes;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.IrChecker;
import dev.l0.opt.ir.Stm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each fusion rule (thesis §7.3, and horizontal fusion) applied alone to the one pair of SOACs of a
 * flattened program: it fuses the pair it names into a well-formed program, and no other rule
 * matches that pair; {@code explain} names the rules that made each kernel.
 */
class FusionRuleTest {
  private static final String MAP_MAP =
      """
      fun [real] main([real] a) = map(fn real (real x) => x * 2.0, map(fn real (real x) => x + 1.0, a))
      """;
  private static final String MAP_REDUCE =
      """
      fun real main([real] a) = reduce(op +, 0.0, map(fn real (real x) => x * x, a))
      """;
  private static final String MAP_SCAN =
      """
      fun [real] main([real] a) = scan(op +, 0.0, map(fn real (real x) => x * 0.5, a))
      """;
  private static final String FILTER_FILTER =
      """
      fun [real] main([real] a) = filter(fn bool (real x) => x < 9.0, filter(fn bool (real x) => 0.0 < x, a))
      """;
  private static final String TWO_REDUCTIONS =
      """
      fun {real, real} main([real] a) = {reduce(op +, 0.0, a), reduce(op *, 1.0, a)}
      """;

  /** Reductions of two arrays whose sizes the zip's assertion shows equal. */
  private static final String TWO_REDUCTIONS_OF_ONE_SIZE =
      """
      fun {real, real, real} main([real] a, [real] b) =
        let z = zip(a, b) in
        let {x, y} = z[0] in
        {reduce(op +, 0.0, a), reduce(op *, 1.0, b), x + y}
      """;

  private static final String FILTER_REDUCE =
      """
      fun real main([real] a) = reduce(op +, 0.0, filter(fn bool (real x) => 0.0 < x, a))
      """;

  /**
   * The program of {@code source} with its one producer fused into its consumer by {@code rule}
   * alone, which knows the outer sizes that the statements before the consumer show; empty where it
   * does not match.
   */
  private static Optional<InternalProgram> fusedAlone(FusionRule rule, String source) {
    return fusedAlone(rule, source, true);
  }

  /**
   * As {@link #fusedAlone(FusionRule, String)}; where not {@code sizesInScope}, the rule knows only
   * that an array has one outer size with itself.
   */
  private static Optional<InternalProgram> fusedAlone(
      FusionRule rule, String source, boolean sizesInScope) {
    Internal p = Internal.of(source);
    List<Stm> stms = p.topLevel();
    List<Integer> soacs = new ArrayList<>();
    for (int k = 0; k < stms.size(); k++) {
      if (stms.get(k).exp() instanceof Exp.Soac) {
        soacs.add(k);
      }
    }
    assertEquals(
        2,
        soacs.size(),
        () -> "the test program should have one producer and one consumer: " + stms);
    Stm producer = stms.get(soacs.get(0));
    Stm consumer = stms.get(soacs.get(1));
    OuterSizes sizes =
        sizesInScope
            ? OuterSizes.of(typesIn(p), stms.subList(0, soacs.get(1)))
            : OuterSizes.OF_ONE_ARRAY;
    return rule.apply(producer, consumer, sizes, p.names())
        .map(
            fused -> {
              List<Stm> out = new ArrayList<>(stms);
              out.set(soacs.get(1), fused);
              out.remove((int) soacs.get(0));
              Body body = new Body(out, p.main().body().result());
              return new InternalProgram(List.of(p.main().withBody(body)));
            });
  }

  /** The types of {@code main}'s parameters and of the names its statements bind. */
  private static Map<String, Type> typesIn(Internal p) {
    Map<String, Type> types = new HashMap<>();
    p.main().params().forEach(id -> types.put(id.name(), id.type()));
    p.everywhere().forEach(stm -> stm.pattern().forEach(id -> types.put(id.name(), id.type())));
    return types;
  }

  private static void assertOnlyRuleFuses(FusionRule rule, String source, String keyword) {
    InternalProgram fused =
        fusedAlone(rule, source)
            .orElseThrow(() -> new AssertionError(rule.ruleName() + " does not fuse " + source));
    assertEquals(Optional.empty(), IrChecker.problem(fused));
    List<Stm> soacs =
        fused.functions().get(0).body().stms().stream()
            .filter(s -> s.exp() instanceof Exp.Soac)
            .toList();
    assertEquals(1, soacs.size());
    assertEquals(keyword, ((Exp.Soac) soacs.get(0).exp()).keyword());
    // FUSE-FILTERMAP-REDUCE folds any reduction of one filter's kept values into the filter's pass,
    // keeping the rows: fusion tries it only where no pair rule fused the two. Two maps match
    // FUSE-CLUSTER, which joins any two independent maps the clustering puts in one loop (the
    // clustering has compared their sizes), and FUSE-MAP-MAP, which fusion applies only to a
    // producer and its one consumer: they match every pair FUSE-HORIZONTAL-MAPS does.
    for (FusionRule other : FusionRule.values()) {
      if (other != rule
          && other != FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER
          && other != FusionRule.FUSE_FILTERMAP_REDUCE
          && !(rule == FusionRule.FUSE_HORIZONTAL_MAPS
              && (other == FusionRule.FUSE_CLUSTER || other == FusionRule.FUSE_MAP_MAP))) {
        assertEquals(
            Optional.empty(),
            fusedAlone(other, source),
            other.ruleName() + " should not match " + source);
      }
    }
  }

  @Test
  void fuseClusterFilters() {
    assertOnlyRuleFuses(
        FusionRule.FUSE_CLUSTER_FILTERS,
        """
        fun {[int], [int]} main([int] xs) =
          {filter(fn bool (int x) => x > 0, xs), filter(fn bool (int x) => x < -2, xs)}
        """,
        "filtermap");
  }

  @Test
  void fuseMapMap() {
    assertOnlyRuleFuses(FusionRule.FUSE_MAP_MAP, MAP_MAP, "map");
  }

  @Test
  void fuseMapRedomap() {
    assertOnlyRuleFuses(FusionRule.FUSE_MAP_REDOMAP, MAP_REDUCE, "redomap");
  }

  @Test
  void fuseMapScan() {
    assertOnlyRuleFuses(FusionRule.FUSE_MAP_SCAN, MAP_SCAN, "scanomap");
  }

  @Test
  void fuseFilterFilter() {
    assertOnlyRuleFuses(FusionRule.FUSE_FILTER_FILTER, FILTER_FILTER, "filter");
  }

  @Test
  void fuseFilterRedomap() {
    assertOnlyRuleFuses(FusionRule.FUSE_FILTER_REDOMAP, FILTER_REDUCE, "redomap");
  }

  @Test
  void fuseHorizontal() {
    assertOnlyRuleFuses(FusionRule.FUSE_HORIZONTAL, TWO_REDUCTIONS, "redomap");
  }

  /**
   * Alone, the rule joins reductions of two arrays whose sizes an assertion in scope shows equal;
   * it does not where it knows only that an array has its own size, nor where nothing shows the
   * sizes equal.
   */
  @Test
  void fuseHorizontalOverArraysOfOneSize() {
    assertOnlyRuleFuses(FusionRule.FUSE_HORIZONTAL, TWO_REDUCTIONS_OF_ONE_SIZE, "redomap");
    assertEquals(
        Optional.empty(),
        fusedAlone(FusionRule.FUSE_HORIZONTAL, TWO_REDUCTIONS_OF_ONE_SIZE, false));
    assertEquals(
        Optional.empty(),
        fusedAlone(
            FusionRule.FUSE_HORIZONTAL,
            """
            fun {real, real} main([real] a, [real] b) = {reduce(op +, 0.0, a), reduce(op *, 1.0, b)}
            """));
  }

  @Test
  void fuseHorizontalMapOverArraysOfOneSize() {
    String reductionAndMap =
        """
        fun {real, [real], real} main([real] a, [real] b) =
          let z = zip(a, b) in
          let {x, y} = z[0] in
          {reduce(op +, 0.0, a), map(fn real (real v) => v * 2.0, b), x + y}
        """;
    assertOnlyRuleFuses(FusionRule.FUSE_HORIZONTAL_MAP, reductionAndMap, "screma");
    assertEquals(
        Optional.empty(), fusedAlone(FusionRule.FUSE_HORIZONTAL_MAP, reductionAndMap, false));
  }

  @Test
  void fuseHorizontalMaps() {
    String twoMaps =
        """
        fun {[real], [real], real} main([real] a, [real] b) =
          let z = zip(a, b) in
          let {x, y} = z[0] in
          {map(fn real (real v) => v * 2.0, a), map(fn real (real v) => v + 1.0, b), x + y}
        """;
    assertOnlyRuleFuses(FusionRule.FUSE_HORIZONTAL_MAPS, twoMaps, "map");
    assertEquals(Optional.empty(), fusedAlone(FusionRule.FUSE_HORIZONTAL_MAPS, twoMaps, false));
    assertEquals(
        Optional.empty(),
        fusedAlone(
            FusionRule.FUSE_HORIZONTAL_MAPS,
            """
            fun {[real], [real]} main([real] a, [real] b) =
              {map(fn real (real v) => v * 2.0, a), map(fn real (real v) => v + 1.0, b)}
            """));
  }

  @Test
  void fuseHorizontalMap() {
    assertOnlyRuleFuses(
        FusionRule.FUSE_HORIZONTAL_MAP,
        """
        fun {real, [real]} main([real] a) = {reduce(op +, 0.0, a), map(fn real (real x) => x * 2.0, a)}
        """,
        "screma");
  }

  /**
   * A map whose rows are arrays of a size known outside it (the size of {@code ws}) joins a
   * reduction of the same array: the screma's map part yields those rows.
   */
  @Test
  void fuseHorizontalMapOfArrayRows() {
    assertOnlyRuleFuses(
        FusionRule.FUSE_HORIZONTAL_MAP,
        """
        fun {real, [[real]]} main([real] a, [real] ws) =
          {reduce(op +, 0.0, a), map(fn [real] (real x) => map(fn real (real w) => x * w, ws), a)}
        """,
        "screma");
  }

  /**
   * Alone, the duplicating rule fuses a copy of a cheap producer into one consumer by the pair's
   * own rule (the producer-consumer rules are checked above without it, as {@code Fusion} tries it
   * only for a producer with several consumers); it does not take a producer that is not cheap.
   */
  @Test
  void fuseDuplicateCheapProducer() {
    InternalProgram fused =
        fusedAlone(FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER, MAP_REDUCE).orElseThrow();
    assertEquals(Optional.empty(), IrChecker.problem(fused));
    List<Stm> soacs =
        fused.functions().get(0).body().stms().stream()
            .filter(s -> s.exp() instanceof Exp.Soac)
            .toList();
    assertEquals(
        List.of("redomap"), soacs.stream().map(s -> ((Exp.Soac) s.exp()).keyword()).toList());
    assertEquals(
        Optional.empty(),
        fusedAlone(
            FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER,
            """
        fun real main([real] a) = reduce(op +, 0.0, map(fn real (real x) => loop (s = x) = for i < 3 do s * 0.5 in s, a))
        """));
    assertEquals(
        Optional.empty(), fusedAlone(FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER, FILTER_REDUCE));
  }

  @Test
  void theRulesInTheOrderFusionTriesThem() {
    assertEquals(
        List.of(
            "FUSE-MAP-MAP",
            "FUSE-MAP-REDOMAP",
            "FUSE-MAP-SCAN",
            "FUSE-FILTER-FILTER",
            "FUSE-FILTER-REDOMAP",
            "FUSE-HORIZONTAL",
            "FUSE-HORIZONTAL-MAP",
            "FUSE-HORIZONTAL-MAPS",
            "FUSE-DUPLICATE-CHEAP-PRODUCER",
            "FUSE-MAP-FILTER",
            "FUSE-FILTER-MAP",
            "FUSE-CLUSTER",
            "FUSE-CLUSTER-FILTERS",
            "FUSE-FILTERMAP-REDUCE",
            "PUSH-TRANSPOSE",
            "PULL-TRANSPOSE",
            "PULL-RESHAPE",
            "FUSE-TRANSPOSED-CONSUMER",
            "FUSE-RESHAPED-CONSUMER",
            "FUSE-TRANSPOSED-PRODUCER",
            "ISWIM",
            "FUSE-ISWIM-CONSUMER",
            "FUSE-ISWIM-PRODUCER"),
        Arrays.stream(FusionRule.values()).map(FusionRule::ruleName).toList());
  }

  @Test
  void explainNamesTheRulesThatMadeEachKernel() {
    Compiled c =
        Compiled.of(
            """
        fun {real, [real]} main([real] a, [real] b) =
          {reduce(op +, 0.0, map(fn real (real x) => x * x, filter(fn bool (real x) => 0.0 < x, a))),
           map(fn real (real x) => x - 1.0, b)}
        """);
    List<String> kernelLines =
        c.optimized()
            .explain()
            .lines()
            .filter(l -> l.startsWith("kernel ") && !l.startsWith("kernels:"))
            .toList();
    assertEquals(2, kernelLines.size(), c.optimized().explain());
    assertTrue(
        kernelLines.get(0).startsWith("kernel 1: redomap in main: ")
            && kernelLines.get(0).endsWith("; fused by FUSE-MAP-REDOMAP, FUSE-FILTER-REDOMAP"),
        kernelLines.get(0));
    assertTrue(!kernelLines.get(1).contains("fused by"), kernelLines.get(1));
  }
}
