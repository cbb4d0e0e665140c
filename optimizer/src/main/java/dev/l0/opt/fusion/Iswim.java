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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * ISWIM, Interchange Scan With Inner Maps (thesis §8.3), at any depth (Fig. 36, which the thesis
 * did not implement). A scan (or a scanomap) whose operator is a nest of {@code d} maps over its
 * parameters, {@code scan(fn xs ys => map^d(⊕, xs, ys), ne, a)} with {@code a : [n][m1]..[md]α},
 * becomes a nest of {@code d} maps over the neutral rows and the inputs with the scanned dimension
 * moved innermost, each innermost thread scanning its column with {@code ⊕}, and the result moved
 * back:
 *
 * <pre>
 *   let at = transpose(0, d, a)                 // [m1]..[md][n]α
 *   let y = map^d(fn e c => scan(⊕, e, c), ne, at)
 *   in transpose(d, -d, y)                      // [n][m1]..[md]α
 * </pre>
 *
 * The scan is then the innermost SOAC of its kernel and the outer maps give the parallelism; every
 * column is scanned in its own order, so no operation is reassociated and results are
 * bit-identical. Three rules ({@link FusionRule#ISWIM}, {@link FusionRule#FUSE_ISWIM_CONSUMER},
 * {@link FusionRule#FUSE_ISWIM_PRODUCER}) replace one statement by several (the transposes around
 * the nest), so {@link Fusion} applies them here rather than through {@link FusionRule#apply}.
 *
 * <p>The interchange needs the types to show that the neutral element's first {@code d} sizes are
 * the inputs' sizes {@code m1..md}: then the operator's own size checks (of its accumulator rows
 * against its input rows) always hold and are dropped, and an input with no rows, where the
 * operator never runs, fails neither before nor after. An operator that updates an accumulator in
 * place is not interchanged (its neutral rows would be consumed).
 */
public final class Iswim {
  private Iswim() {}

  /**
   * A scan or scanomap that ISWIM applies to: its statement, the depth {@code d} of the map nest of
   * its operator, its innermost operator (or combine and fold), and the types of its neutral
   * elements and inputs.
   */
  private record Nest(
      Stm stm, int depth, List<Lambda> innermost, List<Type> neutralTypes, List<Type> inputTypes) {

    Exp.Soac soac() {
      return (Exp.Soac) stm.exp();
    }

    /** Where the scan was written. */
    SourcePos pos() {
      return ((Exp.Screma) soac()).pos();
    }

    List<SubExp> neutral() {
      return ((Exp.Screma) soac()).neutral();
    }

    /** The innermost scan over one column of every input, {@code e} its neutral elements. */
    Exp.Soac innermostScan(List<SubExp> e, List<SubExp> columns) {
      if (soac() instanceof Exp.Screma s && s.isScan()) {
        return Exp.Screma.scan(innermost.get(0), e, columns, s.pos());
      }
      Exp.Screma s = (Exp.Screma) soac();
      return Exp.Screma.scanomap(innermost.get(0), innermost.get(1), e, columns, s.pos());
    }

    /** The types of one column's scan results, {@code [n]α} per accumulator. */
    List<Type> columnResultTypes() {
      Dim rows = ((Type.Array) inputTypes.get(0)).size();
      return innermost.get(0).returnTypes().stream()
          .map(t -> InternalTypes.arrayOf(t, rows))
          .toList();
    }
  }

  /**
   * {@code scan} interchanged with the maps of its operator ({@link FusionRule#ISWIM}, or {@link
   * FusionRule#FUSE_ISWIM_CONSUMER} where a producer was fused into it and it is a scanomap): the
   * statements binding its pattern; empty where it is not a scan of that form. {@code types} gives
   * the types of the names it reads.
   */
  public static Optional<List<Stm>> interchange(
      Stm scan, Map<String, Type> types, NameSource names) {
    return nestOf(scan, types)
        .map(
            nest -> {
              List<Stm> out = new ArrayList<>();
              List<SubExp> columns = transposedInputs(nest, out, names);
              List<Ident> swapped =
                  mapNest(
                      nest,
                      List.of(),
                      columns,
                      List.of(),
                      scan.certificates(),
                      (e, c) -> scanColumns(nest, e, c, names),
                      nest.columnResultTypes(),
                      out,
                      names);
              transposeBack(nest, swapped, scan.pattern(), out);
              return out;
            });
  }

  /**
   * The rule that {@link #interchange} applies to {@code scan}: {@link
   * FusionRule#FUSE_ISWIM_CONSUMER} for a scanomap (a map fused into a scan, now interchanged with
   * it), else {@link FusionRule#ISWIM}.
   */
  static FusionRule ruleOf(Stm scan) {
    return scan.exp() instanceof Exp.Screma s && s.fused()
        ? FusionRule.FUSE_ISWIM_CONSUMER
        : FusionRule.ISWIM;
  }

  /**
   * {@link FusionRule#FUSE_ISWIM_CONSUMER} applied alone: {@code producer}, a map whose outputs
   * only {@code scan} reads, composed into the scan's rows ({@link FusionRule#FUSE_MAP_SCAN}), the
   * maps of the composed fold fused level by level ({@link FusionRule#FUSE_MAP_MAP}), and the
   * scanomap interchanged; empty where the composed fold is not a map nest as deep as the scan's.
   */
  public static Optional<List<Stm>> fuseConsumer(
      Stm producer, Stm scan, Map<String, Type> types, NameSource names) {
    if (!scan.exp().isScan() || nestOf(scan, types).isEmpty()) {
      return Optional.empty();
    }
    return FusionRule.FUSE_MAP_SCAN
        .apply(producer, scan, names)
        .map(s -> s.withExp(Fusion.fusedInside((Exp.Screma) s.exp(), names)))
        .flatMap(s -> interchange(s, withProducerTypes(types, producer), names));
  }

  private static Map<String, Type> withProducerTypes(Map<String, Type> types, Stm producer) {
    Map<String, Type> out = new HashMap<>(types);
    producer.pattern().forEach(p -> out.put(p.name(), p.type()));
    return out;
  }

  /**
   * {@link FusionRule#FUSE_ISWIM_PRODUCER}: {@code scan} interchanged and {@code consumer}, a map
   * nest at least {@code d + 1} deep that reads the scan's results only as inputs, computed in the
   * same nest: each innermost thread maps the consumer's innermost function over the column it has
   * just scanned. The statements binding the consumer's pattern; empty where the two do not have
   * this form.
   */
  public static Optional<List<Stm>> fuseProducer(
      Stm scan, Stm consumer, Map<String, Type> types, NameSource names) {
    Optional<Nest> found = nestOf(scan, types);
    if (found.isEmpty() || !(consumer.exp() instanceof Exp.Screma c && c.isMap())) {
      return Optional.empty();
    }
    Nest nest = found.get();
    Optional<Lambda> elementwise = peel(List.of(c.function()), nest.depth()).map(l -> l.get(0));
    List<SubExp> others = new ArrayList<>();
    List<Type> otherTypes = new ArrayList<>();
    for (SubExp in : c.inputs()) {
      if (indexOf(scan.pattern(), in) < 0 && !others.contains(in)) {
        Type t = types.get(in.varName());
        if (t == null || !innerDimsMatch(t, nest)) {
          return Optional.empty();
        }
        others.add(in);
        otherTypes.add(t);
      }
    }
    if (elementwise.isEmpty()) {
      return Optional.empty();
    }
    Lambda h = elementwise.get();
    List<Stm> out = new ArrayList<>();
    List<SubExp> columns = transposedInputs(nest, out, names);
    List<SubExp> otherColumns = transposed(nest, others, otherTypes, out, names);
    Dim rows = ((Type.Array) nest.inputTypes().get(0)).size();
    List<Type> resultTypes =
        h.returnTypes().stream().map(t -> InternalTypes.arrayOf(t, rows)).toList();
    List<String> certs = new ArrayList<>(scan.certificates());
    consumer.certificates().stream().filter(x -> !certs.contains(x)).forEach(certs::add);
    List<Ident> swapped =
        mapNest(
            nest,
            otherTypes,
            columns,
            otherColumns,
            certs,
            (e, innermostColumns) -> {
              List<SubExp> scannedInputs = innermostColumns.subList(0, columns.size());
              List<SubExp> consumerInputs =
                  innermostColumns.subList(columns.size(), innermostColumns.size());
              Body scanned = scanColumns(nest, e, scannedInputs, names);
              List<SubExp> mapped = new ArrayList<>();
              for (SubExp in : c.inputs()) {
                int k = indexOf(scan.pattern(), in);
                mapped.add(
                    k >= 0 ? scanned.result().get(k) : consumerInputs.get(others.indexOf(in)));
              }
              List<Ident> results = new ArrayList<>();
              for (Type t : resultTypes) {
                results.add(new Ident(names.fresh("iswim_mapped"), t));
              }
              List<Stm> stms = new ArrayList<>(scanned.stms());
              stms.add(
                  new Stm(
                      results,
                      FusionRules.mergeDuplicateInputs(
                          Exp.Screma.map(h, mapped, c.pos()).fusedFrom(c))));
              return new Body(stms, results.stream().map(id -> (SubExp) id.var()).toList());
            },
            resultTypes,
            out,
            names);
    transposeBack(nest, swapped, consumer.pattern(), out);
    return Optional.of(out);
  }

  /** The ISWIM form of {@code stm}'s scan, where it has one. */
  private static Optional<Nest> nestOf(Stm stm, Map<String, Type> types) {
    List<Lambda> operators;
    List<SubExp> neutral;
    if (stm.exp() instanceof Exp.Screma s && s.isScan()) {
      operators = List.of(s.operator());
      neutral = s.neutral();
    } else if (stm.exp() instanceof Exp.Screma s && s.fused() && s.scans()) {
      operators = List.of(s.combine(), s.fold());
      neutral = s.neutral();
    } else {
      return Optional.empty();
    }
    Exp.Soac soac = (Exp.Soac) stm.exp();
    int depth = 0;
    List<Lambda> innermost = operators;
    for (Optional<List<Lambda>> next = peel(operators, 1);
        next.isPresent();
        next = peel(next.get(), 1)) {
      depth++;
      innermost = next.get();
    }
    if (depth == 0 || innermost.stream().anyMatch(l -> consumes(l))) {
      return Optional.empty();
    }
    List<Type> neutralTypes = typesOf(neutral, types);
    List<Type> inputTypes = typesOf(soac.inputs(), types);
    if (neutralTypes == null || inputTypes == null || inputTypes.isEmpty()) {
      return Optional.empty();
    }
    Nest nest = new Nest(stm, depth, innermost, neutralTypes, inputTypes);
    List<Dim> mapped = dims(inputTypes.get(0), 1, depth);
    if (mapped == null || mapped.stream().anyMatch(d -> d instanceof Dim.Unknown)) {
      return Optional.empty();
    }
    for (Type t : neutralTypes) {
      if (!mapped.equals(dims(t, 0, depth))) {
        return Optional.empty();
      }
    }
    return inputTypes.stream().allMatch(t -> innerDimsMatch(t, nest))
        ? Optional.of(nest)
        : Optional.empty();
  }

  private static boolean consumes(Lambda l) {
    return !Analysis.consumedNames(l.body()).isEmpty();
  }

  /** Whether {@code t}'s dimensions 1 to {@code d} are the nest's mapped sizes. */
  private static boolean innerDimsMatch(Type t, Nest nest) {
    List<Dim> mapped = dims(nest.inputTypes().get(0), 1, nest.depth());
    return mapped.equals(dims(t, 1, nest.depth()));
  }

  /** Dimensions {@code from} to {@code from + count - 1} of {@code t}; null where it has fewer. */
  private static List<Dim> dims(Type t, int from, int count) {
    List<Dim> out = new ArrayList<>();
    Type cur = t;
    for (int k = 0; k < from + count; k++) {
      if (!(cur instanceof Type.Array a)) {
        return null;
      }
      if (k >= from) {
        out.add(a.size());
      }
      cur = a.element();
    }
    return out;
  }

  private static List<Type> typesOf(List<SubExp> xs, Map<String, Type> types) {
    List<Type> out = new ArrayList<>();
    for (SubExp x : xs) {
      Type t = x.varName() == null ? null : types.get(x.varName());
      if (t == null) {
        return null;
      }
      out.add(t);
    }
    return out;
  }

  /**
   * The functions of the maps that {@code fs}'s bodies are, {@code levels} levels down, each with
   * its parameters in its parent's order; empty where any level of any function is not one map over
   * all its parameters (each read once) preceded only by size checks that nothing but the map's
   * certificates reads.
   */
  static Optional<List<Lambda>> peel(List<Lambda> fs, int levels) {
    List<Lambda> cur = fs;
    for (int level = 0; level < levels; level++) {
      List<Lambda> next = new ArrayList<>();
      for (Lambda f : cur) {
        Optional<Lambda> inner = innerMap(f);
        if (inner.isEmpty()) {
          return Optional.empty();
        }
        next.add(inner.get());
      }
      cur = next;
    }
    return Optional.of(cur);
  }

  private static Optional<Lambda> innerMap(Lambda f) {
    List<Stm> stms = f.body().stms();
    if (stms.isEmpty() || !(stms.get(stms.size() - 1).exp() instanceof Exp.Screma m && m.isMap())) {
      return Optional.empty();
    }
    Stm last = stms.get(stms.size() - 1);
    List<SubExp> results = last.pattern().stream().map(id -> (SubExp) id.var()).toList();
    if (!results.equals(f.body().result()) || m.inputs().size() != f.params().size()) {
      return Optional.empty();
    }
    List<Ident> params = new ArrayList<>();
    for (Ident p : f.params()) {
      int j = m.inputs().indexOf(p.var());
      if (j < 0 || m.inputs().lastIndexOf(p.var()) != j) {
        return Optional.empty();
      }
      params.add(m.function().params().get(j));
    }
    Set<String> local = new HashSet<>();
    f.params().forEach(p -> local.add(p.name()));
    stms.forEach(stm -> stm.pattern().forEach(p -> local.add(p.name())));
    for (Stm check : stms.subList(0, stms.size() - 1)) {
      if (!isSizeCheck(check.exp())) {
        return Optional.empty();
      }
    }
    Set<String> read = new HashSet<>(Analysis.useCounts(m.function().body()).keySet());
    read.addAll(Analysis.sizesIn(m.function().params()));
    read.addAll(
        Analysis.sizesIn(m.function().returnTypes().stream().map(t -> new Ident("", t)).toList()));
    if (read.stream().anyMatch(local::contains) || !local.containsAll(last.certificates())) {
      return Optional.empty();
    }
    Lambda g = m.function();
    return Optional.of(new Lambda(params, g.body(), g.returnTypes()));
  }

  /** A size, a comparison of sizes or an assertion of one: a zip's check of its rows' sizes. */
  private static boolean isSizeCheck(Exp e) {
    return e instanceof Exp.Size
        || e instanceof Exp.BinOp b && !b.mayFailItself()
        || e instanceof Exp.Assert;
  }

  /** One {@code transpose(0, d, a)} per input of the nest's scan, added to {@code out}. */
  private static List<SubExp> transposedInputs(Nest nest, List<Stm> out, NameSource names) {
    return transposed(nest, nest.soac().inputs(), nest.inputTypes(), out, names);
  }

  private static List<SubExp> transposed(
      Nest nest, List<SubExp> arrays, List<Type> types, List<Stm> out, NameSource names) {
    int depth = nest.depth();
    List<SubExp> columns = new ArrayList<>();
    for (int j = 0; j < arrays.size(); j++) {
      Ident t = new Ident(names.fresh("iswim_columns"), outerMovedIn(types.get(j), depth));
      out.add(new Stm(List.of(t), new Exp.Transpose(0, depth, arrays.get(j), nest.pos())));
      columns.add(t.var());
    }
    return columns;
  }

  /** {@code [n][m1]..[md]β} as {@code [m1]..[md][n]β}. */
  private static Type outerMovedIn(Type t, int depth) {
    List<Dim> all = dims(t, 0, depth + 1);
    Type cur = t;
    for (int k = 0; k <= depth; k++) {
      cur = InternalTypes.row(cur);
    }
    cur = InternalTypes.arrayOf(cur, all.get(0));
    for (int k = depth; k >= 1; k--) {
      cur = InternalTypes.arrayOf(cur, all.get(k));
    }
    return cur;
  }

  /** The innermost body of the plain interchange: one scan of the columns. */
  private static Body scanColumns(
      Nest nest, List<SubExp> e, List<SubExp> columns, NameSource names) {
    List<Ident> scanned = new ArrayList<>();
    for (Type t : nest.columnResultTypes()) {
      scanned.add(new Ident(names.fresh("iswim_scanned"), t));
    }
    return new Body(
        List.of(new Stm(scanned, nest.innermostScan(e, columns))),
        scanned.stream().map(id -> (SubExp) id.var()).toList());
  }

  /**
   * The nest of {@code d} maps over the neutral elements, {@code columns} (the scan's transposed
   * inputs) and {@code otherColumns} (transposed arrays of {@code otherTypes} before transposing)
   * whose innermost function has the body {@code innermost} of its neutral elements and columns,
   * returning one {@code innermostTypes} value per result; its statement is added to {@code out},
   * and its results returned.
   */
  private static List<Ident> mapNest(
      Nest nest,
      List<Type> otherTypes,
      List<SubExp> columns,
      List<SubExp> otherColumns,
      List<String> certificates,
      BiFunction<List<SubExp>, List<SubExp>, Body> innermost,
      List<Type> innermostTypes,
      List<Stm> out,
      NameSource names) {
    int d = nest.depth();
    List<Type> columnTypes = new ArrayList<>();
    nest.inputTypes().forEach(t -> columnTypes.add(outerMovedIn(t, d)));
    otherTypes.forEach(t -> columnTypes.add(outerMovedIn(t, d)));
    List<Dim> mapped = dims(nest.inputTypes().get(0), 1, d);
    Lambda function = null;
    List<Type> returns = innermostTypes;
    for (int level = d; level >= 1; level--) {
      List<Ident> eParams = new ArrayList<>();
      for (Type t : nest.neutralTypes()) {
        eParams.add(new Ident(names.fresh("iswim_ne"), peelType(t, level)));
      }
      List<Ident> cParams = new ArrayList<>();
      for (Type t : columnTypes) {
        cParams.add(new Ident(names.fresh("iswim_col"), peelType(t, level)));
      }
      List<SubExp> e = eParams.stream().map(id -> (SubExp) id.var()).toList();
      List<SubExp> c = cParams.stream().map(id -> (SubExp) id.var()).toList();
      Body body;
      if (function == null) {
        body = innermost.apply(e, c);
      } else {
        List<Ident> results = new ArrayList<>();
        for (Type t : function.returnTypes()) {
          results.add(
              new Ident(names.fresh("iswim_rows"), InternalTypes.arrayOf(t, mapped.get(level))));
        }
        List<SubExp> inputs = new ArrayList<>(e);
        inputs.addAll(c);
        body =
            new Body(
                List.of(new Stm(results, Exp.Screma.map(function, inputs, nest.pos()))),
                results.stream().map(id -> (SubExp) id.var()).toList());
        returns = results.stream().map(Ident::type).toList();
      }
      List<Ident> params = new ArrayList<>(eParams);
      params.addAll(cParams);
      function = new Lambda(params, body, returns);
    }
    List<Ident> swapped = new ArrayList<>();
    for (Type t : function.returnTypes()) {
      swapped.add(new Ident(names.fresh("iswim_swapped"), InternalTypes.arrayOf(t, mapped.get(0))));
    }
    List<SubExp> inputs = new ArrayList<>(nest.neutral());
    inputs.addAll(columns);
    inputs.addAll(otherColumns);
    out.add(new Stm(swapped, certificates, Exp.Screma.map(function, inputs, nest.pos())));
    return swapped;
  }

  private static Type peelType(Type t, int levels) {
    Type cur = t;
    for (int k = 0; k < levels; k++) {
      cur = InternalTypes.row(cur);
    }
    return cur;
  }

  /**
   * {@code pattern = transpose(d, -d, swapped)}, one statement per result, added to {@code out}.
   */
  private static void transposeBack(
      Nest nest, List<Ident> swapped, List<Ident> pattern, List<Stm> out) {
    int depth = nest.depth();
    for (int t = 0; t < swapped.size(); t++) {
      out.add(
          new Stm(
              List.of(pattern.get(t)),
              new Exp.Transpose(depth, -depth, swapped.get(t).var(), nest.pos())));
    }
  }

  private static int indexOf(List<Ident> pattern, SubExp x) {
    for (int k = 0; k < pattern.size(); k++) {
      if (pattern.get(k).var().equals(x)) {
        return k;
      }
    }
    return -1;
  }
}
