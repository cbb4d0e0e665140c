package dev.l0.opt.fusion;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Substitution;
import dev.l0.opt.pass.Renamer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fusion algebra of thesis §7.1–7.3 that the {@link FusionRule}s share: given a producer SOAC
 * whose outputs only the consumer reads, and a rule that matched them, the single SOAC that
 * computes the consumer's results. Every composition keeps the sequential evaluation order of each
 * row's work, so results are bit-identical:
 *
 * <ul>
 *   <li>map→map: {@code map(g, map(f, a)) = map(g∘f, a)} (§7.2.1)
 *   <li>map→reduce: {@code reduce(⊕, ne, map(f, a)) = redomap(⊕, fn acc x => acc ⊕ f(x), ne, a)}
 *   <li>map→redomap: the map's function composed into the fold
 *   <li>map→scan: {@code scan(⊕, ne, map(f, a)) = scanomap(⊕, fn acc x => acc ⊕ f(x), ne, a)}, and
 *       map→scanomap
 *   <li>filter→filter: {@code filter(q, filter(p, a)) = filter(fn x => if p(x) then q(x) else
 *       false, a)}
 *   <li>filter→reduce, filter→redomap: {@code fold' = fn acc x => if p(x) then fold(acc, x) else
 *       acc}
 * </ul>
 *
 * A consumer may have inputs the producer does not make (partial fusion); they stay inputs. Inputs
 * that appear twice are merged afterwards, which is what lets one producer feed several consumers
 * once they are fused together (Fig. 24).
 */
final class FusionRules {
  private FusionRules() {}

  /**
   * The fused statement binding {@code consumer}'s pattern, where a {@link FusionRule} matched the
   * pair; else empty.
   */
  static Optional<Stm> fuse(Stm producer, Stm consumer, NameSource names) {
    Exp p = producer.exp();
    Exp c = consumer.exp();
    List<String> certs = new ArrayList<>(producer.certificates());
    consumer.certificates().stream().filter(x -> !certs.contains(x)).forEach(certs::add);
    Exp fused = null;
    List<Ident> pattern = consumer.pattern();
    if (p instanceof Exp.Screma pm && pm.isMap()) {
      fused = mapInto(pm, producer.pattern(), (Exp.Soac) c, names);
    } else if (p instanceof Exp.FilterMap pf && pf.isFilter()) {
      fused = filterInto(pf, producer.pattern(), (Exp.Soac) c, consumer.pattern(), names);
      if (c instanceof Exp.FilterMap q && q.isFilter()) {
        pattern = filterPattern(producer.pattern(), q.inputs(), consumer.pattern());
      }
    }
    if (fused == null) {
      return Optional.empty();
    }
    return Optional.of(new Stm(pattern, certs, mergeDuplicateInputs((Exp.Soac) fused)));
  }

  // ---- map producer ----

  /**
   * map→map, map→reduce, map→redomap, map→scan, map→scanomap: the map's function runs first in the
   * consumer's.
   */
  private static Exp mapInto(
      Exp.Screma producer, List<Ident> outputs, Exp.Soac consumer, NameSource names) {
    if (consumer instanceof Exp.FilterMap f && !f.keepsScalars()) {
      return null;
    }
    // A reduce's or scan's operator also stays the combining operator, so the fold gets a renamed
    // copy.
    boolean operatorServesTwice = consumer.isReduce() || consumer.isScan();
    Lambda f =
        operatorServesTwice ? Renamer.fresh(consumer.rowFunction(), names) : consumer.rowFunction();
    Composed k = compose(producer, outputs, f, consumer.accumulators(), consumer.inputs());
    Exp.Soac fused = consumer.withRowFunction(k.function, k.inputs);
    return fused instanceof Exp.Screma s ? s.fusedFrom(producer) : fused;
  }

  private record Composed(Lambda function, List<SubExp> inputs) {}

  /**
   * {@code consumer}'s function with the producer's function computed first: the consumer's
   * parameters for the producer's outputs become the producer's per-row results. The first {@code
   * accumulators} parameters of the consumer are accumulators and stay in front.
   */
  private static Composed compose(
      Exp.Screma producer,
      List<Ident> outputs,
      Lambda consumer,
      int accumulators,
      List<SubExp> consumerInputs) {
    Lambda f = producer.function();
    Map<String, SubExp> perRow = new HashMap<>();
    List<Ident> params = new ArrayList<>(consumer.params().subList(0, accumulators));
    params.addAll(f.params());
    List<SubExp> inputs = new ArrayList<>(producer.inputs());
    for (int j = 0; j < consumerInputs.size(); j++) {
      Ident param = consumer.params().get(accumulators + j);
      int k = indexOf(outputs, consumerInputs.get(j));
      if (k >= 0) {
        perRow.put(param.name(), f.body().result().get(k));
      } else {
        params.add(param);
        inputs.add(consumerInputs.get(j));
      }
    }
    Body g = new Substitution(perRow).apply(consumer.body());
    List<Stm> stms = new ArrayList<>(f.body().stms());
    stms.addAll(g.stms());
    return new Composed(
        new Lambda(params, new Body(stms, g.result()), consumer.returnTypes()), inputs);
  }

  private static int indexOf(List<Ident> outputs, SubExp input) {
    for (int k = 0; k < outputs.size(); k++) {
      if (outputs.get(k).var().equals(input)) {
        return k;
      }
    }
    return -1;
  }

  // ---- filter producer ----

  private static Exp filterInto(
      Exp.FilterMap producer,
      List<Ident> outputs,
      Exp.Soac consumer,
      List<Ident> consumerPattern,
      NameSource names) {
    Lambda p = producer.predicate();
    if (consumer instanceof Exp.FilterMap q && q.isFilter()) {
      Body guarded =
          guarded(
              p,
              outputs,
              q.predicate(),
              0,
              q.inputs(),
              List.of(SubExp.constant(ScalarValue.bool(false))),
              names);
      return Exp.FilterMap.filter(
          new Lambda(p.params(), guarded, List.of(ScalarType.BOOL)), producer.inputs());
    }
    Lambda fold;
    Lambda combine;
    List<SubExp> neutral;
    if (consumer instanceof Exp.Screma r && r.isReduce()) {
      fold = Renamer.fresh(r.operator(), names);
      combine = r.operator();
      neutral = r.neutral();
    } else if (consumer instanceof Exp.Screma r && r.fused() && !r.scans()) {
      fold = r.fold();
      combine = r.combine();
      neutral = r.neutral();
    } else {
      return null;
    }
    List<Ident> accs = fold.params().subList(0, neutral.size());
    List<SubExp> unchanged = accs.stream().map(a -> (SubExp) a.var()).toList();
    Body guarded = guarded(p, outputs, fold, neutral.size(), consumer.inputs(), unchanged, names);
    List<Ident> params = new ArrayList<>(accs);
    params.addAll(p.params());
    return Exp.Screma.redomap(
            combine,
            new Lambda(params, guarded, fold.returnTypes()),
            neutral,
            producer.inputs(),
            ((Exp.Screma) consumer).pos())
        .fusedFrom(consumer);
  }

  /**
   * {@code let ok = p(x) in if ok then consumer(x) else otherwise}, over the producer's parameters.
   */
  private static Body guarded(
      Lambda p,
      List<Ident> outputs,
      Lambda consumer,
      int accumulators,
      List<SubExp> consumerInputs,
      List<SubExp> otherwise,
      NameSource names) {
    Map<String, SubExp> rowOf = new HashMap<>();
    for (int j = 0; j < consumerInputs.size(); j++) {
      int k = indexOf(outputs, consumerInputs.get(j));
      rowOf.put(consumer.params().get(accumulators + j).name(), p.params().get(k).var());
    }
    Body then = new Substitution(rowOf).apply(consumer.body());
    List<Type> types = consumer.returnTypes();
    List<Ident> results = new ArrayList<>();
    for (Type t : types) {
      results.add(new Ident(names.fresh("kept"), t));
    }
    List<Stm> stms = new ArrayList<>(p.body().stms());
    stms.add(
        new Stm(
            results, new Exp.If(p.body().result().get(0), then, new Body(List.of(), otherwise))));
    return new Body(stms, results.stream().map(id -> (SubExp) id.var()).toList());
  }

  /**
   * The fused filter binds one array per producer input: the consumer's names where it kept them,
   * the producer's elsewhere.
   */
  private static List<Ident> filterPattern(
      List<Ident> producerOutputs, List<SubExp> consumerInputs, List<Ident> consumerPattern) {
    List<Ident> out = new ArrayList<>(producerOutputs);
    for (int j = 0; j < consumerInputs.size(); j++) {
      out.set(indexOf(producerOutputs, consumerInputs.get(j)), consumerPattern.get(j));
    }
    return out;
  }

  /**
   * {@code first} and {@code second}, two independent SOACs of which at least one reduces (a
   * reduce, redomap or screma; the other may also be a map), as one pass binding both patterns: the
   * first's accumulators, then the second's, each with its own fold and combining operator, then
   * the first's values of each row, then the second's, over the inputs of both (an input they share
   * is read once). Two reductions give a redomap, a reduction and a map a screma whose map part
   * yields the map's values ({@link Exp.Screma#withMapOutputs}).
   */
  static Stm joinHorizontally(Stm first, Stm second, NameSource names) {
    Exp.Screma a = asRedomap((Exp.Soac) first.exp(), names);
    Exp.Screma b = asRedomap((Exp.Soac) second.exp(), names);
    Lambda combine = joined(a.combine(), a.accumulators(), b.combine(), b.accumulators());
    Lambda fold = joined(a.fold(), a.accumulators(), b.fold(), b.accumulators());
    List<SubExp> neutral = new ArrayList<>(a.neutral());
    neutral.addAll(b.neutral());
    List<SubExp> inputs = new ArrayList<>(a.inputs());
    inputs.addAll(b.inputs());
    List<Ident> pattern = new ArrayList<>(first.pattern().subList(0, a.accumulators()));
    pattern.addAll(second.pattern().subList(0, b.accumulators()));
    pattern.addAll(first.pattern().subList(a.accumulators(), first.pattern().size()));
    pattern.addAll(second.pattern().subList(b.accumulators(), second.pattern().size()));
    List<String> certs = new ArrayList<>(first.certificates());
    second.certificates().stream().filter(x -> !certs.contains(x)).forEach(certs::add);
    Exp.Screma pass =
        a.mapOutputs() + b.mapOutputs() == 0
            ? Exp.Screma.redomap(combine, fold, neutral, inputs, a.pos()).fusedFrom(a, b)
            : Exp.Screma.withMapOutputs(combine, fold, neutral, inputs, a.pos()).fusedFrom(a, b);
    return new Stm(pattern, certs, mergeDuplicateInputs(pass));
  }

  /**
   * A reduce as the redomap it is (a renamed copy of its operator folds), a redomap, screma or map
   * as itself.
   */
  static Exp.Screma asRedomap(Exp.Soac reduction, NameSource names) {
    if (reduction instanceof Exp.Screma r && r.isReduce()) {
      return Exp.Screma.redomap(
              r.operator(), Renamer.fresh(r.operator(), names), r.neutral(), r.inputs(), r.pos())
          .fusedFrom(r);
    }
    return (Exp.Screma) reduction;
  }

  /**
   * {@code f} and {@code g} side by side: the first {@code fAccs} (of {@code f}) and {@code gAccs}
   * (of {@code g}) parameters lead, then the rest of {@code f}'s and of {@code g}'s; both bodies
   * run, and their results are joined in the same order: the accumulators of both, then the rest of
   * {@code f}'s and of {@code g}'s.
   */
  static Lambda joined(Lambda f, int fAccs, Lambda g, int gAccs) {
    List<Ident> params = new ArrayList<>(f.params().subList(0, fAccs));
    params.addAll(g.params().subList(0, gAccs));
    params.addAll(f.params().subList(fAccs, f.params().size()));
    params.addAll(g.params().subList(gAccs, g.params().size()));
    List<Stm> stms = new ArrayList<>(f.body().stms());
    stms.addAll(g.body().stms());
    List<SubExp> results = accumulatorsFirst(f.body().result(), fAccs, g.body().result(), gAccs);
    List<Type> types = accumulatorsFirst(f.returnTypes(), fAccs, g.returnTypes(), gAccs);
    return new Lambda(params, new Body(stms, results), types);
  }

  /**
   * The first {@code fAccs} of {@code fs}, the first {@code gAccs} of {@code gs}, then the rest.
   */
  private static <T> List<T> accumulatorsFirst(List<T> fs, int fAccs, List<T> gs, int gAccs) {
    List<T> out = new ArrayList<>(fs.subList(0, fAccs));
    out.addAll(gs.subList(0, gAccs));
    out.addAll(fs.subList(fAccs, fs.size()));
    out.addAll(gs.subList(gAccs, gs.size()));
    return out;
  }

  /** {@code stm} with fresh names for its pattern and for everything bound inside it. */
  static Stm freshCopy(Stm stm, NameSource names) {
    Set<String> bound = Analysis.boundInside(stm.exp());
    stm.pattern().forEach(p -> bound.add(p.name()));
    return Renamer.freshNames(bound, names).apply(stm);
  }

  /** The substitution of {@code copy}'s pattern for {@code original}'s, name by name. */
  static Substitution renamingOf(Stm original, Stm copy) {
    Map<String, SubExp> renaming = new HashMap<>();
    for (int k = 0; k < original.pattern().size(); k++) {
      renaming.put(original.pattern().get(k).name(), copy.pattern().get(k).var());
    }
    return new Substitution(renaming);
  }

  /**
   * A map, screma or filtermap (not a plain filter, whose values are its rows) reading the same
   * array twice reads it once; the second parameter becomes the first.
   */
  static Exp.Soac mergeDuplicateInputs(Exp.Soac soac) {
    if (!(soac.isMap()
        || soac instanceof Exp.Screma s && s.fused()
        || soac instanceof Exp.FilterMap f && !f.isFilter())) {
      return soac;
    }
    Lambda f = soac.rowFunction();
    int accumulators = soac.accumulators();
    List<Ident> params = new ArrayList<>(f.params().subList(0, accumulators));
    List<SubExp> inputs = new ArrayList<>();
    Map<String, SubExp> merged = new HashMap<>();
    for (int j = 0; j < soac.inputs().size(); j++) {
      SubExp in = soac.inputs().get(j);
      Ident param = f.params().get(accumulators + j);
      int first = inputs.indexOf(in);
      if (first >= 0) {
        merged.put(param.name(), params.get(accumulators + first).var());
      } else {
        inputs.add(in);
        params.add(param);
      }
    }
    if (merged.isEmpty()) {
      return soac;
    }
    return soac.withRowFunction(
        new Lambda(params, new Substitution(merged).apply(f.body()), f.returnTypes()), inputs);
  }
}
