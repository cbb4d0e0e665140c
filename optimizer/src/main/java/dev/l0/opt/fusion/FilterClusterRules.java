package dev.l0.opt.fusion;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Shape;
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
import dev.l0.semantics.ArrayOperations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fusion algebra of a filter cluster (seed 002, {@code 002_a8fe81c0996bed27.txt} §3.6: a filter
 * is a transducer, which fuses with the nodes of its input size and with those of its output size).
 * Its one form is {@link Exp.FilterMap}: a keep flag and the values of a row.
 *
 * <ul>
 *   <li>{@code filter(p, a)} is {@code filtermap(fn x => (p(x), x), a)} ({@link
 *       Exp.FilterMap#filter});
 *   <li>map→filter: {@code filtermap(h, map(f, a)) = filtermap(h∘f, a)}, the map's function first;
 *   <li>filter→map: {@code map(g, filtermap(h, a)) = filtermap(fn x => let (k, v) = h(x) in (k, if
 *       k then g(v) else 0), a)}: {@code g} runs only on kept rows, as it did, so it fails where it
 *       did and does no other work.
 * </ul>
 *
 * Each row's work keeps its sequential order, so results are bit-identical.
 */
final class FilterClusterRules {
  private FilterClusterRules() {}

  /** Whether {@code e} is a filtermap keeping scalars only (one filter cluster). */
  static boolean filterCluster(Exp e) {
    return e instanceof Exp.FilterMap f && f.keepsScalars();
  }

  /** {@code FUSE-MAP-FILTER}: the map's function composed into the filter's. */
  static Optional<Stm> mapIntoFilter(Stm producer, Stm consumer, NameSource names) {
    return FusionRules.fuse(producer, consumer, names);
  }

  /**
   * {@code FUSE-FILTER-REDOMAP} of a filtermap of one filter: {@code redomap(⊕, fn acc x => let (k,
   * v) = h(x) in if k then fold(acc, v) else acc, ne, a)}.
   */
  static Optional<Stm> filterMapIntoReduction(Stm producer, Stm consumer, NameSource names) {
    Exp.FilterMap h = (Exp.FilterMap) producer.exp();
    Exp.Screma reduction = FusionRules.asRedomap((Exp.Soac) consumer.exp(), names);
    Lambda fold = foldKept(h, producer.pattern(), reduction, false, names);
    Exp.Screma fused =
        Exp.Screma.redomap(
                reduction.combine(), fold, reduction.neutral(), h.inputs(), reduction.pos())
            .fusedFrom(reduction);
    return Optional.of(new Stm(consumer.pattern(), certificatesOf(producer, consumer), fused));
  }

  /**
   * {@code FUSE-FILTERMAP-REDUCE}: a reduction of one filter's kept values folded in the filter's
   * pass: the filtermap gets the reduction's accumulators, folded over the rows in order, a row's
   * values only where its filter keeps it, and still keeps its rows; the pattern binds the
   * reduction's results, then the filtermap's.
   */
  static Optional<Stm> reductionInFilterPass(Stm producer, Stm consumer, NameSource names) {
    Exp.FilterMap h = (Exp.FilterMap) producer.exp();
    Exp.Screma reduction = FusionRules.asRedomap((Exp.Soac) consumer.exp(), names);
    Lambda fold = foldKept(h, producer.pattern(), reduction, true, names);
    List<Ident> pattern = new ArrayList<>(consumer.pattern());
    pattern.addAll(producer.pattern());
    Exp.FilterMap fused =
        new Exp.FilterMap(fold, h.inputs(), h.filters(), reduction.neutral(), reduction.combine());
    return Optional.of(new Stm(pattern, certificatesOf(producer, consumer), fused));
  }

  /**
   * Whether {@code inputs} are all kept values of one filter of {@code producer} (a filter of
   * scalar rows or a filtermap without accumulators), bound by {@code outputs}.
   */
  static boolean readsOneFilter(Exp producer, List<Ident> outputs, List<SubExp> inputs) {
    if (!filterCluster(producer) || producer instanceof Exp.FilterMap f && f.accumulators() > 0) {
      return false;
    }
    Exp.FilterMap h = (Exp.FilterMap) producer;
    List<SubExp> produced = outputs.stream().map(id -> (SubExp) id.var()).toList();
    Set<Integer> filters = new HashSet<>();
    for (SubExp in : inputs) {
      int r = produced.indexOf(in);
      if (r < 0) {
        return false;
      }
      filters.add(h.filterOf(r));
    }
    return filters.size() == 1;
  }

  /**
   * {@code fn acc x => let (flags, values) = h(x) in let acc' = if flag then fold(acc, values) else
   * acc in (acc', flags, values)}, the flag that of the filter whose values {@code reduction} reads
   * (through {@code outputs}, {@code h}'s pattern); without {@code h}'s flags and values after the
   * accumulators unless {@code keepRows}.
   */
  private static Lambda foldKept(
      Exp.FilterMap h,
      List<Ident> outputs,
      Exp.Screma reduction,
      boolean keepRows,
      NameSource names) {
    Lambda f = h.function();
    Lambda fold = reduction.fold();
    int accumulators = reduction.accumulators();
    List<SubExp> produced = outputs.stream().map(id -> (SubExp) id.var()).toList();
    Map<String, SubExp> rowOf = new HashMap<>();
    int filter = 0;
    for (int j = 0; j < reduction.inputs().size(); j++) {
      int r = produced.indexOf(reduction.inputs().get(j));
      filter = h.filterOf(r);
      rowOf.put(
          fold.params().get(accumulators + j).name(), f.body().result().get(h.valuePosition(r)));
    }
    List<Ident> accs = fold.params().subList(0, accumulators);
    List<Ident> folded = new ArrayList<>();
    List<SubExp> unchanged = new ArrayList<>();
    for (Ident acc : accs) {
      folded.add(new Ident(names.fresh("folded"), acc.type()));
      unchanged.add(acc.var());
    }
    List<Stm> stms = new ArrayList<>(f.body().stms());
    stms.add(
        new Stm(
            folded,
            new Exp.If(
                f.body().result().get(h.flagPosition(filter)),
                new Substitution(rowOf).apply(fold.body()),
                new Body(List.of(), unchanged))));
    List<SubExp> results = new ArrayList<>(folded.stream().map(Ident::var).toList());
    List<Type> types = new ArrayList<>(fold.returnTypes());
    if (keepRows) {
      results.addAll(f.body().result());
      types.addAll(f.returnTypes());
    }
    List<Ident> params = new ArrayList<>(accs);
    params.addAll(f.params());
    return new Lambda(params, new Body(stms, results), types);
  }

  private static List<String> certificatesOf(Stm producer, Stm consumer) {
    List<String> certs = new ArrayList<>(producer.certificates());
    consumer.certificates().stream().filter(c -> !certs.contains(c)).forEach(certs::add);
    return certs;
  }

  /** {@code FUSE-FILTER-MAP}: the map's function runs on the kept rows' values. */
  static Optional<Stm> filterIntoMap(Stm producer, Stm consumer, NameSource names) {
    Exp.FilterMap h = (Exp.FilterMap) producer.exp();
    Exp.Screma g = (Exp.Screma) consumer.exp();
    Lambda f = h.function();
    List<SubExp> values = f.body().result();
    Map<String, SubExp> rowOf = new HashMap<>();
    for (int j = 0; j < g.inputs().size(); j++) {
      int k = producer.pattern().stream().map(Ident::var).toList().indexOf(g.inputs().get(j));
      rowOf.put(g.function().params().get(j).name(), values.get(1 + k));
    }
    Body kept = new Substitution(rowOf).apply(g.function().body());
    List<Ident> mapped = new ArrayList<>();
    List<SubExp> zeros = new ArrayList<>();
    for (Type t : g.function().returnTypes()) {
      mapped.add(new Ident(names.fresh("mapped"), t));
      zeros.add(SubExp.constant((ScalarValue) ArrayOperations.zero(t, Shape.SCALAR)));
    }
    SubExp flag = values.get(0);
    List<Stm> stms = new ArrayList<>(f.body().stms());
    stms.add(new Stm(mapped, new Exp.If(flag, kept, new Body(List.of(), zeros))));
    List<SubExp> results = new ArrayList<>(List.of(flag));
    mapped.forEach(m -> results.add(m.var()));
    List<Type> types = new ArrayList<>(List.of(ScalarType.BOOL));
    types.addAll(g.function().returnTypes());
    List<String> certs = new ArrayList<>(producer.certificates());
    consumer.certificates().stream().filter(c -> !certs.contains(c)).forEach(certs::add);
    Lambda function = new Lambda(f.params(), new Body(stms, results), types);
    return Optional.of(new Stm(consumer.pattern(), certs, new Exp.FilterMap(function, h.inputs())));
  }

  /**
   * The new size of a filter's output (seed 002 §3.5: a filter's output size is a fresh {@code
   * k'}): where the outputs of the filter or filtermap at some position are read only by one map
   * over them and by {@code size(0, ...)} statements before it, and the map and the sizes read the
   * rows of one filter of a filtermap (not its accumulators), the size is read from the map's
   * result instead, after the map, which then no longer names it in its type (nor may the types of
   * the map's function's results or its inner dimensions name it: they are made before the size).
   * The map is then the filter's only consumer, and {@code FUSE-FILTER-MAP} can fuse the two.
   * Returns whether it changed {@code stms}.
   */
  static boolean sizeFromConsumer(List<Stm> stms, Readers readers) {
    for (int i = 0; i < stms.size(); i++) {
      if (!(stms.get(i).exp() instanceof Exp.FilterMap)) {
        continue;
      }
      Set<String> outputs = new HashSet<>();
      stms.get(i).pattern().forEach(p -> outputs.add(p.name()));
      if (readers.inResult(outputs)) {
        continue;
      }
      List<Integer> sizes = new ArrayList<>();
      int consumer = -1;
      boolean other = false;
      for (int k : readers.after(i, outputs)) {
        Stm stm = stms.get(k);
        if (consumer < 0 && stm.exp() instanceof Exp.Size size && size.dimension() == 0) {
          sizes.add(k);
        } else if (consumer < 0 && mapsOver(stm.exp(), outputs)) {
          consumer = k;
        } else {
          other = true;
          break;
        }
      }
      if (other || consumer < 0 || sizes.isEmpty()) {
        continue;
      }
      // each filter of a filtermap keeps rows of its own, and its accumulators are no rows: the map
      // gives the size only of the filter whose rows it runs over
      Exp.FilterMap h = (Exp.FilterMap) stms.get(i).exp();
      List<String> names = stms.get(i).pattern().stream().map(Ident::name).toList();
      Set<Integer> filtersRead = new HashSet<>();
      for (int k : sizes) {
        String array = ((Exp.Size) stms.get(k).exp()).array().varName();
        filtersRead.add(filterKeeping(h, names, array));
      }
      for (SubExp in : ((Exp.Screma) stms.get(consumer).exp()).inputs()) {
        if (outputs.contains(in.varName())) {
          filtersRead.add(filterKeeping(h, names, in.varName()));
        }
      }
      if (filtersRead.size() != 1 || filtersRead.contains(-1)) {
        continue;
      }
      Set<String> sizeNames = new HashSet<>();
      sizes.forEach(k -> sizeNames.add(stms.get(k).pattern().get(0).name()));
      Stm map = stms.get(consumer);
      boolean readBefore =
          stms.subList(sizes.get(0) + 1, consumer).stream()
              .anyMatch(s -> Analysis.freeVariables(s).stream().anyMatch(sizeNames::contains));
      Set<String> namedByResults =
          Analysis.sizesNamedBy(
              map.exp().lambdas().stream().flatMap(l -> l.returnTypes().stream()).toList());
      if (readBefore
          || Analysis.useCounts(map.exp()).keySet().stream().anyMatch(sizeNames::contains)
          || namedByResults.stream().anyMatch(sizeNames::contains)) {
        continue;
      }
      List<Ident> pattern = new ArrayList<>();
      for (Ident id : map.pattern()) {
        Type.Array a = (Type.Array) id.type();
        boolean named = a.size() instanceof Dim.Named n && sizeNames.contains(n.variable());
        pattern.add(named ? new Ident(id.name(), a.withSize(Dim.UNKNOWN)) : id);
      }
      Stm unsized = new Stm(pattern, map.certificates(), map.exp());
      if (Analysis.sizesIn(pattern).stream().anyMatch(sizeNames::contains)) {
        continue;
      }
      List<Stm> moved = new ArrayList<>();
      for (int k : sizes) {
        Stm size = stms.get(k);
        moved.add(size.withExp(new Exp.Size(0, pattern.get(0).var())));
      }
      stms.set(consumer, unsized);
      stms.addAll(consumer + 1, moved);
      for (int j = sizes.size() - 1; j >= 0; j--) {
        stms.remove((int) sizes.get(j));
      }
      return true;
    }
    return false;
  }

  /**
   * The filter of {@code h} whose kept values {@code name} binds ({@code names} is {@code h}'s
   * pattern), or -1 where it binds an accumulator.
   */
  private static int filterKeeping(Exp.FilterMap h, List<String> names, String name) {
    int r = names.indexOf(name);
    return r < h.accumulators() ? -1 : h.filterOf(r);
  }

  /**
   * Whether {@code exp} is a map over one of {@code outputs}: its rows are theirs, so its outer
   * size is their size (a map that only reads them inside its function has rows of its own).
   */
  private static boolean mapsOver(Exp exp, Set<String> outputs) {
    return exp instanceof Exp.Screma m
        && m.isMap()
        && m.inputs().stream().anyMatch(in -> outputs.contains(in.varName()));
  }
}
