package dev.l0.opt.fusion;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.ir.Traversal;
import dev.l0.opt.pass.Pass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Producer-consumer fusion by T2 graph reduction (thesis §7.4). In each body the SOACs form a
 * dataflow graph; a producer whose outputs have exactly one consumer — every use of every output is
 * an input array of one later SOAC in the same body — is merged into that consumer by the first
 * {@link FusionRule} that matches the pair (T2: a node with a single predecessor merges into it;
 * the {@link FusionHistory} records which rule), and the reduction repeats until no edge qualifies.
 * A producer is never fused when an output is used anywhere else (the infusible set: another SOAC,
 * a loop, a lambda's free variable, the result), when a name it reads is consumed by an in-place
 * update between it and the consumer (§7.1.2), or when its rows are arrays whose regularity check
 * fusion would skip. Fusion duplicates computation only where it is cheap: a map of straight-line
 * scalar code whose outputs several SOACs read fuses into every one of them ({@link
 * FusionRule#FUSE_DUPLICATE_CHEAP_PRODUCER}, cost bound in {@link DuplicationCost}). A producer
 * used only inside the branches of one {@code if} moves into the branches that use it (Fig. 25; a
 * copy in each, but one branch runs), where it can fuse with a consumer on each control-flow path.
 * {@code replicate} inputs become free variables of the consumer's function (replicate fusion).
 * Where a body's SOACs are kernels, independent reductions over arrays of one outer size ({@link
 * OuterSizes}: one array, or sizes one by their types, a binding or an assertion in scope) join
 * into one pass ({@link FusionRule#FUSE_HORIZONTAL}), as do a reduction and a map over arrays of
 * one outer size ({@link FusionRule#FUSE_HORIZONTAL_MAP}: one screma yielding accumulators and the
 * map's arrays), and the maps that seed 002's clustering puts in one loop join ({@link
 * ClusterJoin}), then maps of scalar rows of one outer size that it left apart ({@link
 * FusionRule#FUSE_HORIZONTAL_MAPS}); a filter fuses with its producer and its consumer into a
 * filtermap, its output's size read from the consumer ({@link FilterClusterRules}), and a reduction
 * of its kept values is folded in its pass ({@link FusionRule#FUSE_FILTERMAP_REDUCE}). A producer
 * whose outputs reach their consumer through transposes or reshapes fuses by the rules of thesis
 * ch. 8 ({@link IndexFunctionFusion}), tried first.
 *
 * <p>Failures: run apart, a SOAC runs over all its rows before the next starts, so where both fail
 * the first's error wins, whichever row fails; fused or joined, row by row, the second's error
 * could win where it fails on an earlier row, and a statement between them that fails would come
 * before the moved SOAC's failure. Every rule asks the {@link FusionHistory} whether the plan it
 * makes ({@link FailureOrder}) admits such a move ({@link FailureOrder#mayReorder}, the one place
 * that decides): the {@link FailureOrder#KEPT} plan refuses it, so that plan fails as the
 * interpreter does; the default {@link FailureOrder#FUSED} plan makes it and records it, and a
 * backend reruns a failing run with the kept plan. A joined SOAC that may fail must do so only in
 * its functions' code, whose errors name their own positions, not in the check of a map's array
 * rows, which names the map's: rows whose sizes are known outside the map ({@link #regularResults})
 * pass that check by construction. Index out of bounds, integer division by zero and failing
 * asserts in a map, filter or reduction are all such code.
 */
public final class Fusion implements Pass {
  private final FusionHistory history;

  /** The fusion pass of a compilation whose rules make the {@code failureOrder} plan. */
  public Fusion(FailureOrder failureOrder) {
    this.history = new FusionHistory(failureOrder);
  }

  @Override
  public String name() {
    return "fusion";
  }

  /** The rules this pass has applied, in every round of its fixpoint. */
  public FusionHistory history() {
    return history;
  }

  @Override
  public InternalProgram apply(InternalProgram program, NameSource names) {
    return new InternalProgram(
        program.functions().stream()
            .map(
                f -> {
                  Map<String, Type> types = Analysis.typesBound(f);
                  Walk walk =
                      new Walk(
                          names,
                          sizeNames(f.body()),
                          types,
                          OuterSizes.of(types, List.of()),
                          history,
                          true,
                          new Readers.Memo());
                  return f.withBody(walk.fuseBody(f.body()));
                })
            .toList());
  }

  /**
   * {@code scanomap} with the SOACs of its functions fused (what the fixpoint does to it), as
   * {@link Iswim#fuseConsumer} needs before it interchanges; the order of failures kept, since this
   * history is not the compilation's.
   */
  static Exp.Screma fusedInside(Exp.Screma scanomap, NameSource names) {
    Walk inside =
        new Walk(
            names,
            Set.of(),
            Map.of(),
            OuterSizes.OF_ONE_ARRAY,
            new FusionHistory(FailureOrder.KEPT),
            false,
            new Readers.Memo());
    return (Exp.Screma) scanomap.mapLambdas(l -> Traversal.withBody(l, inside.fuseBody(l.body())));
  }

  /**
   * The names bound to a {@code size}: never negative, so a {@code replicate} of that many cannot
   * fail.
   */
  private static Set<String> sizeNames(Body body) {
    Set<String> out = new HashSet<>();
    for (Stm stm : Traversal.statements(body)) {
      if (stm.exp() instanceof Exp.Size) {
        out.add(stm.pattern().get(0).name());
      }
    }
    return out;
  }

  /**
   * The fusion of the bodies of one function, whose names have {@code types}; {@code around} the
   * outer sizes that the statements of the bodies around the body show; {@code kernelLevel} where
   * the body's SOACs are kernels (not inside a SOAC's function), the only bodies where independent
   * reductions are joined and seed 002's clustering runs; {@code memo} the free variables of the
   * statements seen so far in any of them.
   */
  private record Walk(
      NameSource names,
      Set<String> sizes,
      Map<String, Type> types,
      OuterSizes around,
      FusionHistory history,
      boolean kernelLevel,
      Readers.Memo memo) {
    Body fuseBody(Body body) {
      List<Stm> stms = new ArrayList<>(body.stms());
      while (reduceOne(stms, memo.of(stms, body.result()))) {
        // T2 reduction: one edge at a time, until the graph is irreducible.
      }
      Walk inside = new Walk(names, sizes, types, around, history, false, memo);
      List<Stm> out = new ArrayList<>();
      for (int k = 0; k < stms.size(); k++) {
        List<Stm> before = stms.subList(0, k);
        out.add(
            Traversal.withExp(
                stms.get(k),
                Traversal.mapNested(
                    stms.get(k).exp(),
                    b -> withAround(around.after(before)).fuseBody(b),
                    l -> Traversal.withBody(l, inside.fuseBody(l.body())))));
      }
      return new Body(out, body.result());
    }

    /**
     * One step of the T2 reduction of {@code stms}, whose readers are {@code readers}: the first
     * rule that applies; whether one did.
     */
    private boolean reduceOne(List<Stm> stms, Readers readers) {
      return IndexFunctionFusion.fuseOne(stms, readers, names, history)
          || fuseOnePair(stms, readers, names, history)
          || FilterClusterRules.sizeFromConsumer(stms, readers)
          || fuseOneReplicate(stms, readers, sizes)
          || sinkIntoBranches(stms, readers, names, history)
          || duplicateOneCheapProducer(stms, readers, names, history)
          || kernelLevel && SiblingJoin.HORIZONTAL.joinOne(stms, around, names, history)
          || kernelLevel && SiblingJoin.HORIZONTAL_MAP.joinOne(stms, around, names, history)
          || kernelLevel && SiblingJoin.FILTERMAP_REDUCE.joinOne(stms, around, names, history)
          || kernelLevel && ClusterJoin.joinOnePair(stms, types, around, names, history)
          || kernelLevel && SiblingJoin.HORIZONTAL_MAPS.joinOne(stms, around, names, history)
          || interchangeOneScan(stms, readers, types, names, history);
    }

    private Walk withAround(OuterSizes outer) {
      return new Walk(names, sizes, types, outer, history, kernelLevel, memo);
    }
  }

  /**
   * The joins of two sibling statements into one pass, each the pair rule on the first pair of
   * statements where it applies ({@link #joinOnePair}): the second's place must pass {@code
   * joinsAt} (a cheap first test) and the pair {@code alsoRequires}.
   */
  private enum SiblingJoin {
    /**
     * Horizontal fusion ({@link FusionRule#FUSE_HORIZONTAL}): two reductions over arrays of one
     * outer size ({@link OuterSizes}) join at the second's place.
     */
    HORIZONTAL(
        FusionRule.FUSE_HORIZONTAL, Fusion::isReduction, (first, second) -> isReduction(first)),
    /**
     * Horizontal fusion of a map ({@link FusionRule#FUSE_HORIZONTAL_MAP}, seed 001): a reduction
     * and a map of rows regular by construction ({@link #regularResults}: scalars or arrays of
     * sizes known outside it) over arrays of one outer size, either first, join at the second's
     * place as one screma yielding the accumulators and the map's arrays.
     */
    HORIZONTAL_MAP(
        FusionRule.FUSE_HORIZONTAL_MAP,
        stm -> stm.exp() instanceof Exp.Screma,
        (first, second) -> true),
    /**
     * Horizontal fusion of maps ({@link FusionRule#FUSE_HORIZONTAL_MAPS}, seed 001): two maps of
     * scalar rows over arrays of one outer size that the clustering left apart join at the second's
     * place as one map.
     */
    HORIZONTAL_MAPS(
        FusionRule.FUSE_HORIZONTAL_MAPS, stm -> stm.exp().isMap(), (first, second) -> true),
    /**
     * Filter-reduce ({@link FusionRule#FUSE_FILTERMAP_REDUCE}): a reduction of the kept values of a
     * filter whose rows are also used elsewhere, reading the filter's results only as inputs, is
     * folded in the filter's pass, at the reduction's place.
     */
    FILTERMAP_REDUCE(
        FusionRule.FUSE_FILTERMAP_REDUCE,
        Fusion::isReduction,
        (producer, consumer) -> {
          Set<String> outputs = new HashSet<>();
          producer.pattern().forEach(p -> outputs.add(p.name()));
          return onlyInputUses(consumer, (Exp.Soac) consumer.exp(), outputs);
        });

    private final FusionRule rule;
    private final Predicate<Stm> joinsAt;
    private final BiPredicate<Stm, Stm> alsoRequires;

    SiblingJoin(FusionRule rule, Predicate<Stm> joinsAt, BiPredicate<Stm, Stm> alsoRequires) {
      this.rule = rule;
      this.joinsAt = joinsAt;
      this.alsoRequires = alsoRequires;
    }

    boolean joinOne(List<Stm> stms, OuterSizes around, NameSource names, FusionHistory history) {
      return joinOnePair(stms, around, names, history, rule, joinsAt, alsoRequires);
    }
  }

  /**
   * The pair rule {@code rule} on the first pair of statements {@code i < j} where {@code
   * joinsAt(j)} (a cheap first test), the rule matches (given the outer sizes at {@code j}'s place:
   * what {@code around}, the bodies around, and the statements before {@code j} show), {@code
   * alsoRequires} holds, the plan admits the move ({@link #joinAdmitted}), nothing between them
   * reads the first's results and nothing between them consumes what the first reads: the joined
   * statement takes the second's place and the first goes. Whether a pair was joined.
   */
  private static boolean joinOnePair(
      List<Stm> stms,
      OuterSizes around,
      NameSource names,
      FusionHistory history,
      FusionRule rule,
      Predicate<Stm> joinsAt,
      BiPredicate<Stm, Stm> alsoRequires) {
    for (int j = 1; j < stms.size(); j++) {
      Stm second = stms.get(j);
      if (!joinsAt.test(second)) {
        continue;
      }
      OuterSizes sizesAtSecond = around.after(stms.subList(0, j));
      for (int i = 0; i < j; i++) {
        Stm first = stms.get(i);
        if (!rule.matches(first.exp(), second.exp(), first.pattern(), sizesAtSecond)
            || !alsoRequires.test(first, second)
            || !joinAdmitted(stms, i, j, history)
            || readBetween(stms, i, j, first)
            || consumedBetween(stms, i, j, first)) {
          continue;
        }
        Stm joined = rule.apply(first, second, sizesAtSecond, names).orElseThrow();
        history.moved(first, stms.subList(i + 1, j + 1));
        history.record(rule, first, second, joined);
        stms.set(j, joined);
        stms.remove(i);
        return true;
      }
    }
    return false;
  }

  /**
   * ISWIM ({@link Iswim}): the last scan whose operator is a map nest is interchanged with it, and
   * where its results' one user is a map nest reading them only as inputs, nothing between them
   * consuming what the scan reads, that map is computed in the interchanged nest ({@link
   * FusionRule#FUSE_ISWIM_PRODUCER}).
   */
  private static boolean interchangeOneScan(
      List<Stm> stms,
      Readers readers,
      Map<String, Type> types,
      NameSource names,
      FusionHistory history) {
    for (int i = stms.size() - 1; i >= 0; i--) {
      Stm scan = stms.get(i);
      Optional<List<Stm>> swapped = Iswim.interchange(scan, types, names);
      if (swapped.isEmpty()) {
        continue;
      }
      Uses uses = usesOf(stms, readers, i);
      if (uses.onlyUser() >= 0
          && uses.onlyAsInputs()
          && !consumedBetween(stms, i, uses.onlyUser() + 1, scan)
          && history.admits(scan, stms.subList(i + 1, uses.onlyUser() + 1))) {
        Stm consumer = stms.get(uses.onlyUser());
        Optional<List<Stm>> fused = Iswim.fuseProducer(scan, consumer, types, names);
        if (fused.isPresent()) {
          history.moved(scan, stms.subList(i + 1, uses.onlyUser() + 1));
          Stm kernel = fused.get().get(fused.get().size() - consumer.pattern().size() - 1);
          history.record(Iswim.ruleOf(scan), scan, scan, kernel);
          history.record(FusionRule.FUSE_ISWIM_PRODUCER, kernel, consumer, kernel);
          stms.remove(uses.onlyUser());
          stms.addAll(uses.onlyUser(), fused.get());
          stms.remove(i);
          return true;
        }
      }
      Stm kernel = swapped.get().get(swapped.get().size() - scan.pattern().size() - 1);
      history.record(Iswim.ruleOf(scan), scan, scan, kernel);
      stms.remove(i);
      stms.addAll(i, swapped.get());
      return true;
    }
    return false;
  }

  /** A cheap first test, before the analyses: a reduce or a screma. */
  private static boolean isReduction(Stm stm) {
    return stm.exp().isReduce() || stm.exp() instanceof Exp.Screma s && s.fused();
  }

  /**
   * Whether the SOACs {@code stms[i]} and {@code stms[j]} ({@code i < j}) may run as one pass at
   * {@code j}'s place (the class's note on failures): the plan admits moving the first past the
   * statements up to the second ({@link FusionHistory#admits}), and each of the two that may fail
   * does so only in its functions' code, not in the check that a map's or scan's array rows are
   * regular (its rows are {@link #regularResults}).
   */
  static boolean joinAdmitted(List<Stm> stms, int i, int j, FusionHistory history) {
    Exp first = stms.get(i).exp();
    Exp second = stms.get(j).exp();
    return history.admits(stms.get(i), stms.subList(i + 1, j + 1))
        && (!Analysis.mayFail(first) || regularResults(first))
        && (!Analysis.mayFail(second) || regularResults(second));
  }

  /**
   * Whether the SOAC's accumulators are scalars and each of its rows is a scalar or an array whose
   * sizes are known outside it (constants or names bound outside the SOAC): such rows are regular
   * by construction, so no check of them can fail, and a pass that joins the SOAC writes them in
   * place.
   */
  static boolean regularResults(Exp soac) {
    List<Type> types = ((Exp.Soac) soac).rowFunction().returnTypes();
    int accumulators = ((Exp.Soac) soac).accumulators();
    Set<String> inside = Analysis.boundInside(soac);
    return types.subList(0, accumulators).stream().allMatch(t -> t.rank() == 0)
        && types.subList(accumulators, types.size()).stream()
            .allMatch(t -> allSizesKnown(t) && !sizeBoundIn(t, inside));
  }

  private static boolean sizeBoundIn(Type t, Set<String> names) {
    for (Type cur = t; cur instanceof Type.Array a; cur = a.element()) {
      if (a.size() instanceof Dim.Named n && names.contains(n.variable())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a statement strictly between {@code from} and {@code to} reads a result of {@code stm}.
   */
  static boolean readBetween(List<Stm> stms, int from, int to, Stm stm) {
    Set<String> outputs = new HashSet<>();
    stm.pattern().forEach(p -> outputs.add(p.name()));
    return stms.subList(from + 1, to).stream()
        .anyMatch(s -> Analysis.freeVariables(s).stream().anyMatch(outputs::contains));
  }

  /** Where the outputs of the statement at {@code producer} are used, later in the same body. */
  private record Uses(int onlyUser, boolean onlyAsInputs) {
    static final Uses NONE = new Uses(-1, false);
    static final Uses SCATTERED = new Uses(-2, false);
  }

  private static Uses usesOf(List<Stm> stms, Readers readers, int producer) {
    Set<String> outputs = new HashSet<>();
    stms.get(producer).pattern().forEach(p -> outputs.add(p.name()));
    if (readers.inResult(outputs)) {
      return Uses.SCATTERED;
    }
    List<Integer> users = readers.after(producer, outputs);
    if (users.size() > 1) {
      return Uses.SCATTERED;
    }
    if (users.isEmpty()) {
      return Uses.NONE;
    }
    Stm stm = stms.get(users.get(0));
    return new Uses(
        users.get(0), stm.exp() instanceof Exp.Soac soac && onlyInputUses(stm, soac, outputs));
  }

  static boolean onlyInputUses(Stm stm, Exp.Soac soac, Set<String> outputs) {
    Map<String, Integer> all = new HashMap<>(Analysis.useCounts(stm.exp()));
    stm.certificates().forEach(c -> all.merge(c, 1, Integer::sum));
    for (String o : outputs) {
      long asInput = soac.inputs().stream().filter(in -> o.equals(in.varName())).count();
      if (all.getOrDefault(o, 0) != asInput) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a statement strictly between {@code from} and {@code to} consumes a name {@code stm}
   * reads.
   */
  static boolean consumedBetween(List<Stm> stms, int from, int to, Stm stm) {
    Set<String> consumed = Analysis.consumedNames(new Body(stms.subList(from + 1, to), List.of()));
    return Analysis.freeVariables(stm).stream().anyMatch(consumed::contains);
  }

  /**
   * Maps, filters and filtermaps are producers. A map whose rows are arrays is one only where the
   * sizes of its rows are known outside it: then its rows are regular by construction and fusion
   * skips no run-time regularity check.
   */
  static boolean fusableProducer(Stm stm) {
    if (stm.exp() instanceof Exp.Screma m && m.isMap()) {
      return m.function().returnTypes().stream().allMatch(Fusion::allSizesKnown);
    }
    return stm.exp() instanceof Exp.FilterMap;
  }

  private static boolean allSizesKnown(Type t) {
    for (Type cur = t; cur instanceof Type.Array a; cur = a.element()) {
      if (a.size() instanceof Dim.Unknown) {
        return false;
      }
    }
    return true;
  }

  private static boolean fuseOnePair(
      List<Stm> stms, Readers readers, NameSource names, FusionHistory history) {
    for (int i = stms.size() - 1; i >= 0; i--) {
      Stm producer = stms.get(i);
      if (!fusableProducer(producer)) {
        continue;
      }
      Uses uses = usesOf(stms, readers, i);
      if (uses.onlyUser() < 0
          || !uses.onlyAsInputs()
          || consumedBetween(stms, i, uses.onlyUser() + 1, producer)
          || !history.admits(producer, stms.subList(i + 1, uses.onlyUser() + 1))) {
        continue;
      }
      Stm consumer = stms.get(uses.onlyUser());
      Optional<FusionRule> rule = FusionRule.matching(producer, consumer);
      Optional<Stm> fused = rule.flatMap(r -> r.apply(producer, consumer, names));
      if (fused.isPresent()) {
        history.moved(producer, stms.subList(i + 1, uses.onlyUser() + 1));
        history.record(rule.get(), producer, consumer, fused.get());
        stms.set(uses.onlyUser(), fused.get());
        stms.remove(i);
        return true;
      }
    }
    return false;
  }

  /**
   * {@link FusionRule#FUSE_DUPLICATE_CHEAP_PRODUCER}: the last cheap map whose outputs several
   * later SOACs read, each only as inputs, and that every one of them can fuse, is fused into each
   * (a fresh copy in each) and removed. A producer with any other use stays, as does one whose
   * reads a statement before its last consumer consumes.
   */
  private static boolean duplicateOneCheapProducer(
      List<Stm> stms, Readers readers, NameSource names, FusionHistory history) {
    for (int i = stms.size() - 1; i >= 0; i--) {
      Stm producer = stms.get(i);
      if (!producer.exp().isMap() || !fusableProducer(producer)) {
        continue;
      }
      List<Integer> consumers = inputOnlyConsumers(stms, readers, i);
      if (consumers.size() < 2
          || consumedBetween(stms, i, consumers.get(consumers.size() - 1) + 1, producer)) {
        continue;
      }
      List<Stm> fused = new ArrayList<>();
      for (int k : consumers) {
        FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER
            .apply(producer, stms.get(k), names)
            .ifPresent(fused::add);
      }
      if (fused.size() < consumers.size()) {
        continue;
      }
      for (int j = 0; j < consumers.size(); j++) {
        Stm consumer = stms.get(consumers.get(j));
        Stm withCopy = fused.get(j);
        FusionRule.producerConsumerRule(producer.exp(), consumer.exp(), producer.pattern())
            .ifPresent(rule -> history.record(rule, producer, consumer, withCopy));
        history.record(FusionRule.FUSE_DUPLICATE_CHEAP_PRODUCER, producer, withCopy, withCopy);
        stms.set(consumers.get(j), withCopy);
      }
      stms.remove(i);
      return true;
    }
    return false;
  }

  /**
   * The positions of the statements that read the outputs of the statement at {@code producer},
   * where every one is a SOAC reading them only as inputs; empty where any use is another kind (or
   * the body's result).
   */
  private static List<Integer> inputOnlyConsumers(List<Stm> stms, Readers readers, int producer) {
    Set<String> outputs = new HashSet<>();
    stms.get(producer).pattern().forEach(p -> outputs.add(p.name()));
    if (readers.inResult(outputs)) {
      return List.of();
    }
    List<Integer> consumers = readers.after(producer, outputs);
    for (int k : consumers) {
      Stm stm = stms.get(k);
      if (!(stm.exp() instanceof Exp.Soac soac && onlyInputUses(stm, soac, outputs))) {
        return List.of();
      }
    }
    return consumers;
  }

  /**
   * {@code map(f, a, replicate(n, v))}: the replicated rows are all {@code v}, a free variable of
   * {@code f}.
   */
  private static boolean fuseOneReplicate(List<Stm> stms, Readers readers, Set<String> sizes) {
    for (int i = 0; i < stms.size(); i++) {
      if (!(stms.get(i).exp() instanceof Exp.Replicate rep) || !cannotFail(rep, sizes)) {
        continue;
      }
      Uses uses = usesOf(stms, readers, i);
      if (uses.onlyUser() < 0 || !uses.onlyAsInputs()) {
        continue;
      }
      Stm consumer = stms.get(uses.onlyUser());
      SubExp replicated = stms.get(i).pattern().get(0).var();
      Optional<Exp.Soac> without = withoutInput((Exp.Soac) consumer.exp(), replicated, rep.value());
      if (without.isPresent()) {
        stms.set(uses.onlyUser(), consumer.withExp(without.get()));
        stms.remove(i);
        return true;
      }
    }
    return false;
  }

  /**
   * A replicate fails only for a negative count; a constant or a {@code size} is never negative.
   */
  private static boolean cannotFail(Exp.Replicate rep, Set<String> sizes) {
    if (rep.count() instanceof SubExp.Const c) {
      return ((ScalarValue.Int) c.value()).value() >= 0;
    }
    return sizes.contains(rep.count().varName());
  }

  private static Optional<Exp.Soac> withoutInput(Exp.Soac soac, SubExp input, SubExp row) {
    boolean ownFunction = soac.isMap() || soac instanceof Exp.Screma s && s.fused();
    if (!ownFunction || soac.inputs().stream().allMatch(input::equals)) {
      return Optional.empty();
    }
    Lambda f = soac.rowFunction();
    int accumulators = soac.accumulators();
    List<Ident> params = new ArrayList<>(f.params().subList(0, accumulators));
    List<SubExp> inputs = new ArrayList<>();
    Map<String, SubExp> rows = new HashMap<>();
    for (int j = 0; j < soac.inputs().size(); j++) {
      Ident param = f.params().get(accumulators + j);
      if (soac.inputs().get(j).equals(input)) {
        rows.put(param.name(), row);
      } else {
        params.add(param);
        inputs.add(soac.inputs().get(j));
      }
    }
    Lambda g = new Lambda(params, new Substitution(rows).apply(f.body()), f.returnTypes());
    return Optional.of(soac.withRowFunction(g, inputs));
  }

  /**
   * A SOAC whose outputs are used only inside the branches of one later {@code if} moves into each
   * branch that uses it (a fresh copy in the second), thesis Fig. 25; one branch runs, so the work
   * is done at most once. A producer that may fail moves only if both branches use it.
   */
  private static boolean sinkIntoBranches(
      List<Stm> stms, Readers readers, NameSource names, FusionHistory history) {
    for (int i = stms.size() - 1; i >= 0; i--) {
      Stm producer = stms.get(i);
      if (!fusableProducer(producer)) {
        continue;
      }
      Uses uses = usesOf(stms, readers, i);
      if (uses.onlyUser() < 0 || !(stms.get(uses.onlyUser()).exp() instanceof Exp.If branch)) {
        continue;
      }
      Stm ifStm = stms.get(uses.onlyUser());
      Set<String> outputs = new HashSet<>();
      producer.pattern().forEach(p -> outputs.add(p.name()));
      boolean inCondition =
          outputs.contains(branch.condition().varName())
              || ifStm.certificates().stream().anyMatch(outputs::contains);
      boolean inThen = usesAny(branch.thenBody(), outputs);
      boolean inElse = usesAny(branch.elseBody(), outputs);
      if (inCondition
          || consumedBetween(stms, i, uses.onlyUser(), producer)
          || ((!inThen || !inElse) && Analysis.mayFail(producer.exp()))
          || !history.admits(producer, stms.subList(i + 1, uses.onlyUser()))) {
        continue;
      }
      history.moved(producer, stms.subList(i + 1, uses.onlyUser()));
      Body thenBody = inThen ? prepend(producer, branch.thenBody()) : branch.thenBody();
      Body elseBody = branch.elseBody();
      if (inElse) {
        Stm copy = inThen ? FusionRules.freshCopy(producer, names) : producer;
        Substitution renaming = FusionRules.renamingOf(producer, copy);
        elseBody = prepend(copy, renaming.apply(elseBody));
      }
      stms.set(uses.onlyUser(), ifStm.withExp(new Exp.If(branch.condition(), thenBody, elseBody)));
      stms.remove(i);
      return true;
    }
    return false;
  }

  private static boolean usesAny(Body body, Set<String> names) {
    return Analysis.useCounts(body).keySet().stream().anyMatch(names::contains);
  }

  private static Body prepend(Stm stm, Body body) {
    List<Stm> stms = new ArrayList<>();
    stms.add(stm);
    stms.addAll(body.stms());
    return new Body(stms, body.result());
  }
}
