package dev.l0.opt.fusion;

import dev.l0.ir.Dim;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Fusion across transpose and reshape (thesis ch. 8): the rules PUSH-TRANSPOSE and PULL-TRANSPOSE
 * (§8.1), PULL-RESHAPE (§8.2), FUSE-TRANSPOSED-PRODUCER (§8.4) and FUSE-TRANSPOSED-CONSUMER /
 * FUSE-RESHAPED-CONSUMER. A transpose or reshape is a statement of its own here, an index function
 * that no rule materialises: it moves, to a consumer's result (push) or to a producer's inputs
 * (pull), so that the producer's outputs reach the consumer directly and a rule of §7.3 fuses the
 * pair. A rule applies only where that fusion then succeeds (the thesis's premise {@code soac_p ~>
 * soac_c => soac_r}); it never reorders a float operation.
 *
 * <p>Transpose depth (Fig. 33): {@code transpose(k, n, a)} moves dimension {@code k} to {@code k +
 * n}, so the deepest dimension it touches is {@code D(k, n) = k + n} for {@code n >= 0}, else
 * {@code k} (counted from 0); a perfect map nest of at least {@code D(k, n) + 1} levels never looks
 * at those dimensions, only at the elements below them, and commutes with the transposition. The
 * inverse (Fig. 34) is {@code transpose(k + n, -n, _)}.
 *
 * <p>Not done here: pushing a reshape (the thesis only pulls it, before rank-1 maps), and chains of
 * more than two index functions.
 */
public final class IndexFunctionFusion {
  /** The rules of this class, in the order {@link Fusion} tries them at each producer. */
  static final List<FusionRule> RULES =
      List.of(
          FusionRule.FUSE_TRANSPOSED_PRODUCER,
          FusionRule.PUSH_TRANSPOSE,
          FusionRule.PULL_TRANSPOSE,
          FusionRule.PULL_RESHAPE,
          FusionRule.FUSE_TRANSPOSED_CONSUMER,
          FusionRule.FUSE_RESHAPED_CONSUMER);

  private IndexFunctionFusion() {}

  /**
   * A producer at {@code producer}, for each of its outputs the index functions it passes through
   * on its way to the consumer (statement positions, in order), and the consumer's position.
   */
  private record Site(int producer, List<List<Integer>> chains, int consumer) {}

  /**
   * One application: the new statements of the body, the fused statement, and the rules that made
   * it, the ch. 8 rule first.
   */
  private record Rewrite(List<Stm> stms, Stm fused, List<FusionRule> rules) {}

  /**
   * {@link Fusion}'s step: the first rule that applies at the last producer where one does, its
   * rules recorded in {@code history}; whether one applied.
   */
  static boolean fuseOne(List<Stm> stms, Readers readers, NameSource names, FusionHistory history) {
    for (int i = stms.size() - 1; i >= 0; i--) {
      int producerAt = i;
      Optional<Site> site =
          candidate(stms, readers, i)
              .filter(
                  s ->
                      history.admits(
                          stms.get(producerAt), stms.subList(producerAt + 1, s.consumer() + 1)));
      for (FusionRule rule : site.isPresent() ? RULES : List.<FusionRule>of()) {
        Optional<Rewrite> rewrite = at(rule, stms, readers, site.get(), names);
        if (rewrite.isPresent()) {
          Stm producer = stms.get(i);
          Stm consumer = stms.get(site.get().consumer());
          history.moved(producer, stms.subList(i + 1, site.get().consumer() + 1));
          Stm fused = rewrite.get().fused();
          List<FusionRule> rules = rewrite.get().rules();
          history.record(rules.get(0), producer, consumer, fused);
          rules.subList(1, rules.size()).forEach(r -> history.record(r, fused, fused, fused));
          stms.clear();
          stms.addAll(rewrite.get().stms());
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@code body} with {@code rule} alone applied at the last producer of its top level where it
   * matches; empty where it matches nowhere. For tests of one rule.
   */
  public static Optional<Body> applyAlone(FusionRule rule, Body body, NameSource names) {
    if (!RULES.contains(rule)) {
      throw new IllegalArgumentException(rule.ruleName() + " is not a rule across index functions");
    }
    Readers readers = new Readers.Memo().of(body.stms(), body.result());
    for (int i = body.stms().size() - 1; i >= 0; i--) {
      Optional<Site> site = candidate(body.stms(), readers, i);
      Optional<Rewrite> rewrite = site.flatMap(s -> at(rule, body.stms(), readers, s, names));
      if (rewrite.isPresent()) {
        return Optional.of(new Body(rewrite.get().stms(), body.result()));
      }
    }
    return Optional.empty();
  }

  /**
   * The site of the producer at {@code producer}, where it is one that fusion may remove and no
   * statement up to its consumer consumes what it reads.
   */
  private static Optional<Site> candidate(List<Stm> stms, Readers readers, int producer) {
    if (!Fusion.fusableProducer(stms.get(producer))) {
      return Optional.empty();
    }
    return siteOf(stms, readers, producer)
        .filter(s -> !Fusion.consumedBetween(stms, producer, s.consumer() + 1, stms.get(producer)));
  }

  private static Optional<Rewrite> at(
      FusionRule rule, List<Stm> stms, Readers readers, Site s, NameSource names) {
    return switch (rule) {
      case FUSE_TRANSPOSED_PRODUCER -> transposedProducer(stms, s, names);
      case PUSH_TRANSPOSE -> pushTranspose(stms, s, names);
      case PULL_TRANSPOSE -> pullTranspose(stms, s, names);
      case PULL_RESHAPE -> pullReshape(stms, s, names);
      case FUSE_TRANSPOSED_CONSUMER, FUSE_RESHAPED_CONSUMER ->
          indexedConsumer(rule, stms, readers, s, names);
      default -> Optional.empty();
    };
  }

  /**
   * Where each output of the producer at {@code producer} goes: through at most two index functions
   * (each the only user of the name before it), all to one SOAC that reads them only as inputs;
   * empty also where no rule of this class could apply there ({@link #throughIndexFunctions}).
   */
  private static Optional<Site> siteOf(List<Stm> stms, Readers readers, int producer) {
    List<List<Integer>> chains = new ArrayList<>();
    List<String> reaching = new ArrayList<>();
    int consumer = -1;
    for (Ident output : stms.get(producer).pattern()) {
      List<Integer> chain = new ArrayList<>();
      String name = output.name();
      int user = readers.onlyUser(producer, name);
      while (user >= 0 && chain.size() < 2 && indexFunctionOf(stms.get(user), name)) {
        chain.add(user);
        name = stms.get(user).pattern().get(0).name();
        user = readers.onlyUser(user, name);
      }
      if (user < 0 || consumer >= 0 && user != consumer) {
        return Optional.empty();
      }
      consumer = user;
      chains.add(chain);
      reaching.add(name);
    }
    if (consumer < 0) {
      return Optional.empty();
    }
    Site site = new Site(producer, chains, consumer);
    Stm last = stms.get(consumer);
    if (!throughIndexFunctions(stms, readers, site)
        || !(last.exp() instanceof Exp.Soac soac)
        || reaching.stream().anyMatch(n -> !Fusion.onlyInputUses(last, soac, Set.of(n)))) {
      return Optional.empty();
    }
    return Optional.of(site);
  }

  /**
   * Whether an output of the site's producer reaches the consumer through an index function, or
   * every result of the consumer leaves it through one: where neither, no rule of this class
   * applies (a cheap test before the costlier ones, asked of every producer at every step of the
   * fusion).
   */
  private static boolean throughIndexFunctions(List<Stm> stms, Readers readers, Site s) {
    return s.chains().stream().anyMatch(c -> !c.isEmpty())
        || stms.get(s.consumer()).pattern().stream()
            .allMatch(
                r -> {
                  int user = readers.onlyUser(s.consumer(), r.name());
                  return user >= 0 && indexFunctionOf(stms.get(user), r.name());
                });
  }

  /** Whether {@code stm} transposes or reshapes the array {@code name} into one array. */
  private static boolean indexFunctionOf(Stm stm, String name) {
    SubExp of = new SubExp.Var(name);
    return stm.pattern().size() == 1
        && (stm.exp() instanceof Exp.Transpose t && t.array().equals(of)
            || stm.exp() instanceof Exp.Reshape r
                && r.array().equals(of)
                && !r.shape().contains(of));
  }

  // ---- FUSE-TRANSPOSED-PRODUCER (§8.4) ----

  /**
   * {@code transpose(k, n, soac_p) ~> soac_c}: the producer's transposition moves to the consumer's
   * inputs, where it meets the consumer's own inverse transposition ({@code transpose(k + n, -n,
   * _)}, as ISWIM leaves it) and both go; the pair then fuses as it is.
   */
  private static Optional<Rewrite> transposedProducer(List<Stm> stms, Site s, NameSource names) {
    Map<String, SubExp> direct = new HashMap<>();
    for (int j = 0; j < s.chains().size(); j++) {
      List<Integer> chain = s.chains().get(j);
      Ident output = stms.get(s.producer()).pattern().get(j);
      if (chain.size() != 2
          || !(stms.get(chain.get(0)).exp() instanceof Exp.Transpose first)
          || !(stms.get(chain.get(1)).exp() instanceof Exp.Transpose second)
          || !cancel(first, second, output.type().rank())) {
        return Optional.empty();
      }
      direct.put(stms.get(chain.get(1)).pattern().get(0).name(), output.var());
    }
    Stm consumer = new Substitution(direct).apply(stms.get(s.consumer()));
    return fusedPair(stms, s, stms.get(s.producer()), consumer, List.of(), List.of(), names)
        .map(r -> withRule(FusionRule.FUSE_TRANSPOSED_PRODUCER, r));
  }

  /**
   * Whether {@code second} undoes {@code first} on an array of rank {@code rank}: its inverse
   * {@code transpose(k + n, -n, _)}, or any transposition that moves the dimensions back.
   */
  private static boolean cancel(Exp.Transpose first, Exp.Transpose second, int rank) {
    List<Integer> order = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      order.add(d);
    }
    order.add(first.k() + first.n(), order.remove(first.k()));
    order.add(second.k() + second.n(), order.remove(second.k()));
    for (int d = 0; d < rank; d++) {
      if (order.get(d) != d) {
        return false;
      }
    }
    return true;
  }

  // ---- PUSH-TRANSPOSE and PULL-TRANSPOSE (§8.1) ----

  /**
   * The one {@code (k, n)} by which the consumer reads every output of the producer, through a
   * single transposition each; null where they differ or any is not so read.
   */
  private static int[] commonTransposition(List<Stm> stms, Site s) {
    int[] kn = null;
    for (List<Integer> chain : s.chains()) {
      if (chain.size() != 1 || !(stms.get(chain.get(0)).exp() instanceof Exp.Transpose t)) {
        return null;
      }
      if (kn != null && (kn[0] != t.k() || kn[1] != t.n())) {
        return null;
      }
      kn = new int[] {t.k(), t.n()};
    }
    return kn;
  }

  /**
   * Where the transpositions {@link #commonTransposition} found are written: the transposes that
   * PUSH-TRANSPOSE and PULL-TRANSPOSE move are reported there.
   */
  private static SourcePos transpositionPos(List<Stm> stms, Site s) {
    return ((Exp.Transpose) stms.get(s.chains().get(0).get(0)).exp()).pos();
  }

  /** Fig. 33: the deepest dimension, from 0, that {@code transpose(k, n, _)} moves. */
  static int depth(int k, int n) {
    return n >= 0 ? k + n : k;
  }

  /**
   * {@code soac_p ~> map^D(g, transpose(k, n, os), c)} becomes {@code transpose(k, n, map^D(g, os,
   * transpose(k + n, -n, c)))}: the consumer, a perfect map nest deep enough, runs on the
   * untransposed arrays (its other inputs get the inverse transposition), its results are
   * transposed after it, and the producer fuses into it.
   */
  private static Optional<Rewrite> pushTranspose(List<Stm> stms, Site s, NameSource names) {
    int[] kn = commonTransposition(stms, s);
    Stm consumer = stms.get(s.consumer());
    if (kn == null
        || !(consumer.exp() instanceof Exp.Screma map && map.isMap())
        || mapNestDepth(map) < depth(kn[0], kn[1]) + 1) {
      return Optional.empty();
    }
    int k = kn[0];
    int n = kn[1];
    SourcePos pos = transpositionPos(stms, s);
    Map<SubExp, Ident> untransposed = new HashMap<>();
    Stm producer = stms.get(s.producer());
    for (int j = 0; j < s.chains().size(); j++) {
      untransposed.put(
          stms.get(s.chains().get(j).get(0)).pattern().get(0).var(), producer.pattern().get(j));
    }
    Dim rows = outerDim(consumer.pattern().get(0).type());
    List<Stm> before = new ArrayList<>();
    List<SubExp> inputs = new ArrayList<>();
    List<Type> inputTypes = new ArrayList<>();
    for (int j = 0; j < map.inputs().size(); j++) {
      SubExp in = map.inputs().get(j);
      Ident direct = untransposed.get(in);
      if (direct != null) {
        inputs.add(direct.var());
        inputTypes.add(direct.type());
      } else {
        Type type = InternalTypes.arrayOf(map.function().params().get(j).type(), rows);
        Ident inverse =
            new Ident(names.fresh("untransposed"), InternalTypes.transposed(k + n, -n, type));
        before.add(new Stm(List.of(inverse), new Exp.Transpose(k + n, -n, in, pos)));
        inputs.add(inverse.var());
        inputTypes.add(inverse.type());
      }
    }
    List<Ident> results = new ArrayList<>();
    List<Stm> after = new ArrayList<>();
    for (Ident r : consumer.pattern()) {
      Ident untransposedResult =
          new Ident(names.fresh(r.name()), InternalTypes.transposed(k + n, -n, r.type()));
      results.add(untransposedResult);
      after.add(new Stm(List.of(r), new Exp.Transpose(k, n, untransposedResult.var(), pos)));
    }
    Exp.Screma pushed =
        retypedNest(
            map, inputs, inputTypes, results.stream().map(Ident::type).toList(), depth(k, n) + 1);
    Stm newConsumer = new Stm(results, consumer.certificates(), pushed);
    return fusedPair(stms, s, producer, newConsumer, before, after, names)
        .map(
            r ->
                new Rewrite(
                    r.stms(),
                    r.fused(),
                    concat(
                        List.of(FusionRule.PUSH_TRANSPOSE, FusionRule.FUSE_TRANSPOSED_CONSUMER),
                        r.rules())));
  }

  /**
   * {@code map^D(f, es) ~> soac_c(transpose(k, n, os))} becomes {@code map^D(f, transpose(k, n,
   * es)) ~> soac_c(os)}: the producer, a perfect map nest deep enough, reads its inputs transposed
   * and so makes the transposed arrays itself; then it fuses into the consumer.
   */
  private static Optional<Rewrite> pullTranspose(List<Stm> stms, Site s, NameSource names) {
    int[] kn = commonTransposition(stms, s);
    Stm producer = stms.get(s.producer());
    if (kn == null
        || !(producer.exp() instanceof Exp.Screma map && map.isMap())
        || mapNestDepth(map) < depth(kn[0], kn[1]) + 1) {
      return Optional.empty();
    }
    Dim rows = outerDim(producer.pattern().get(0).type());
    SourcePos pos = transpositionPos(stms, s);
    List<Stm> before = new ArrayList<>();
    List<SubExp> inputs = new ArrayList<>();
    for (int j = 0; j < map.inputs().size(); j++) {
      Type type = InternalTypes.arrayOf(map.function().params().get(j).type(), rows);
      Ident t = new Ident(names.fresh("transposed"), InternalTypes.transposed(kn[0], kn[1], type));
      before.add(new Stm(List.of(t), new Exp.Transpose(kn[0], kn[1], map.inputs().get(j), pos)));
      inputs.add(t.var());
    }
    List<Ident> outputs =
        s.chains().stream().map(c -> stms.get(c.get(0)).pattern().get(0)).toList();
    Exp.Screma pulled =
        retypedNest(
            map,
            inputs,
            before.stream().map(b -> b.pattern().get(0).type()).toList(),
            outputs.stream().map(Ident::type).toList(),
            depth(kn[0], kn[1]) + 1);
    Stm newProducer = new Stm(outputs, producer.certificates(), pulled);
    return fusedPair(stms, s, newProducer, stms.get(s.consumer()), before, List.of(), names)
        .map(r -> withRule(FusionRule.PULL_TRANSPOSE, r));
  }

  // ---- PULL-RESHAPE (§8.2) ----

  /**
   * {@code map(f, es) ~> soac_c(reshape((d1, ..., dn), os))}, every {@code es} of rank 1 and {@code
   * f} scalar code that cannot fail, becomes {@code map^n(f, reshape((d1, ..., dn), es)) ~>
   * soac_c(os)}; then the producer fuses. A reshape that fails fails the same way on {@code es},
   * which has the elements of {@code os}, and {@code f} has nothing that could fail first.
   */
  private static Optional<Rewrite> pullReshape(List<Stm> stms, Site s, NameSource names) {
    Stm producer = stms.get(s.producer());
    if (!(producer.exp() instanceof Exp.Screma map && map.isMap())
        || map.function().params().stream().anyMatch(p -> p.type().rank() > 0)
        || map.function().returnTypes().stream().anyMatch(t -> t.rank() > 0)
        || Analysis.mayFail(map.function().body())) {
      return Optional.empty();
    }
    Exp.Reshape shape = null;
    List<String> certs = new ArrayList<>();
    List<Ident> outputs = new ArrayList<>();
    for (List<Integer> chain : s.chains()) {
      if (chain.size() != 1 || !(stms.get(chain.get(0)).exp() instanceof Exp.Reshape r)) {
        return Optional.empty();
      }
      if (shape != null && !shape.shape().equals(r.shape())) {
        return Optional.empty();
      }
      shape = r;
      stms.get(chain.get(0)).certificates().stream()
          .filter(c -> !certs.contains(c))
          .forEach(certs::add);
      outputs.add(stms.get(chain.get(0)).pattern().get(0));
    }
    List<Stm> before = new ArrayList<>();
    for (int j = 0; j < map.inputs().size(); j++) {
      Type type = map.function().params().get(j).type();
      for (int d = shape.shape().size() - 1; d >= 0; d--) {
        type = InternalTypes.arrayOf(type, InternalTypes.dimOf(shape.shape().get(d)));
      }
      Ident reshaped = new Ident(names.fresh("reshaped"), type);
      before.add(
          new Stm(
              List.of(reshaped),
              certs,
              new Exp.Reshape(shape.shape(), map.inputs().get(j), shape.pos())));
    }
    Exp.Screma nest =
        nestAround(
            map.function(),
            before.stream().map(b -> (SubExp) b.pattern().get(0).var()).toList(),
            before.stream().map(b -> b.pattern().get(0).type()).toList(),
            outputs.stream().map(Ident::type).toList(),
            shape.shape().size(),
            map.pos(),
            names);
    Stm newProducer = new Stm(outputs, producer.certificates(), nest);
    return fusedPair(stms, s, newProducer, stms.get(s.consumer()), before, List.of(), names)
        .map(r -> withRule(FusionRule.PULL_RESHAPE, r));
  }

  /** {@code map(f, inputs)} nested {@code levels} deep, so {@code f} runs on the elements. */
  private static Exp.Screma nestAround(
      Lambda f,
      List<SubExp> inputs,
      List<Type> inputTypes,
      List<Type> outputTypes,
      int levels,
      SourcePos pos,
      NameSource names) {
    if (levels == 1) {
      return Exp.Screma.map(f, inputs, pos);
    }
    List<Ident> params = new ArrayList<>();
    for (Type t : inputTypes) {
      params.add(new Ident(names.fresh("row"), InternalTypes.row(t)));
    }
    List<Type> rowTypes = outputTypes.stream().map(InternalTypes::row).toList();
    List<Ident> rows = new ArrayList<>();
    for (Type t : rowTypes) {
      rows.add(new Ident(names.fresh("rows"), t));
    }
    Exp.Screma inner =
        nestAround(
            f,
            params.stream().map(p -> (SubExp) p.var()).toList(),
            params.stream().map(Ident::type).toList(),
            rowTypes,
            levels - 1,
            pos,
            names);
    Body body =
        new Body(List.of(new Stm(rows, inner)), rows.stream().map(r -> (SubExp) r.var()).toList());
    return Exp.Screma.map(new Lambda(params, body, rowTypes), inputs, pos);
  }

  // ---- FUSE-TRANSPOSED-CONSUMER and FUSE-RESHAPED-CONSUMER ----

  /**
   * {@code soac_p ~> transpose(soac_c)} (or {@code reshape(shape, soac_c)}): the producer fuses
   * into a consumer whose every result is read only through a transpose (a reshape), which stays on
   * the fused result.
   */
  private static Optional<Rewrite> indexedConsumer(
      FusionRule rule, List<Stm> stms, Readers readers, Site s, NameSource names) {
    if (s.chains().stream().anyMatch(c -> !c.isEmpty())) {
      return Optional.empty();
    }
    Stm consumer = stms.get(s.consumer());
    for (Ident r : consumer.pattern()) {
      int user = readers.onlyUser(s.consumer(), r.name());
      Exp e = user < 0 ? null : stms.get(user).exp();
      boolean indexed =
          rule == FusionRule.FUSE_TRANSPOSED_CONSUMER
              ? e instanceof Exp.Transpose
              : e instanceof Exp.Reshape;
      if (!indexed || !indexFunctionOf(stms.get(user), r.name())) {
        return Optional.empty();
      }
    }
    return fusedPair(stms, s, stms.get(s.producer()), consumer, List.of(), List.of(), names)
        .map(r -> withRule(rule, r));
  }

  // ---- shared ----

  /**
   * The body with {@code producer} fused into {@code consumer} by the rule of §7.3 that matches
   * them, at the consumer's place, {@code before} and {@code after} around it, and the site's
   * producer and index functions gone; empty where no rule fuses them.
   */
  private static Optional<Rewrite> fusedPair(
      List<Stm> stms,
      Site s,
      Stm producer,
      Stm consumer,
      List<Stm> before,
      List<Stm> after,
      NameSource names) {
    Optional<FusionRule> pairRule =
        FusionRule.producerConsumerRule(producer.exp(), consumer.exp(), producer.pattern());
    Optional<Stm> fused = pairRule.flatMap(r -> r.apply(producer, consumer, names));
    if (fused.isEmpty()) {
      return Optional.empty();
    }
    Set<Integer> removed = new HashSet<>();
    removed.add(s.producer());
    s.chains().forEach(removed::addAll);
    List<Stm> out = new ArrayList<>();
    for (int k = 0; k < stms.size(); k++) {
      if (k == s.consumer()) {
        out.addAll(before);
        out.add(fused.get());
        out.addAll(after);
      } else if (!removed.contains(k)) {
        out.add(stms.get(k));
      }
    }
    return Optional.of(new Rewrite(out, fused.get(), List.of(pairRule.get())));
  }

  private static Rewrite withRule(FusionRule rule, Rewrite r) {
    return new Rewrite(r.stms(), r.fused(), concat(List.of(rule), r.rules()));
  }

  private static List<FusionRule> concat(List<FusionRule> a, List<FusionRule> b) {
    List<FusionRule> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * How many levels of {@code map} form a perfect nest from {@code m} in: each level's function is
   * one inner map over exactly its parameters, which reads them nowhere else, and returns its
   * results.
   */
  static int mapNestDepth(Exp.Screma m) {
    Lambda f = m.function();
    if (f.body().stms().size() != 1) {
      return 1;
    }
    Stm only = f.body().stms().get(0);
    if (!(only.exp() instanceof Exp.Screma inner && inner.isMap())
        || !only.certificates().isEmpty()
        || inner.inputs().size() != f.params().size()
        || !new HashSet<>(inner.inputs())
            .equals(new HashSet<>(f.params().stream().map(p -> (SubExp) p.var()).toList()))
        || !f.body().result().equals(only.pattern().stream().map(p -> (SubExp) p.var()).toList())) {
      return 1;
    }
    Set<String> read = Analysis.useCounts(inner.function().body()).keySet();
    if (f.params().stream().anyMatch(p -> read.contains(p.name()))) {
      return 1;
    }
    return 1 + mapNestDepth(inner);
  }

  /**
   * The perfect nest {@code m} over {@code inputs} of {@code inputTypes}, making {@code
   * outputTypes}: the parameters and results of its outer {@code levels} levels take the rows of
   * those types; deeper levels see the same elements as before.
   */
  private static Exp.Screma retypedNest(
      Exp.Screma m,
      List<SubExp> inputs,
      List<Type> inputTypes,
      List<Type> outputTypes,
      int levels) {
    Lambda f = m.function();
    List<Ident> params = new ArrayList<>();
    for (int j = 0; j < f.params().size(); j++) {
      params.add(new Ident(f.params().get(j).name(), InternalTypes.row(inputTypes.get(j))));
    }
    List<Type> rowTypes = outputTypes.stream().map(InternalTypes::row).toList();
    Body body = f.body();
    if (levels > 1) {
      Stm only = body.stms().get(0);
      Exp.Screma inner = (Exp.Screma) only.exp();
      List<Type> innerInputTypes = new ArrayList<>();
      for (SubExp in : inner.inputs()) {
        innerInputTypes.add(
            params.stream().filter(p -> p.var().equals(in)).findFirst().orElseThrow().type());
      }
      List<Ident> pattern = new ArrayList<>();
      for (int r = 0; r < only.pattern().size(); r++) {
        pattern.add(new Ident(only.pattern().get(r).name(), rowTypes.get(r)));
      }
      Exp.Screma retyped =
          retypedNest(inner, inner.inputs(), innerInputTypes, rowTypes, levels - 1);
      body = new Body(List.of(new Stm(pattern, retyped)), body.result());
    }
    return Exp.Screma.map(new Lambda(params, body, rowTypes), inputs, m.pos()).fusedFrom(m);
  }

  private static Dim outerDim(Type t) {
    return ((Type.Array) t).size();
  }
}
