package dev.l0.kernels.lower;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.ThreadPrivateParts;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Memory short-circuiting of a row update inside a kernel thread (thesis ch. 3: the update consumes
 * its array, so nothing else reads the row it overwrites): in {@code let r = map(f, xs) in let w2 =
 * w with [i1, ..., ik] <- r}, the map may write its rows straight into row {@code w[i1, ..., ik]}
 * instead of into a scratch array that the update then copies there. That gives the same values
 * where the map cannot read what it has already written: {@code w} is not the thread's own (the
 * update writes a fresh copy, which the map does not read), or row {@code j} of the map reads
 * {@code w} only at element {@code j} of its rows, before it writes element {@code j}. So the map
 * reads {@code w} only through inputs that are rows {@code w[a1, ..., ak]} (row {@code j} of such
 * an input is element {@code j} of that row, which is the updated row or another) and through
 * indexings {@code w[a1, ..., ak, p]} or {@code v[..., p]} of such a row {@code v}, {@code p} the
 * parameter of an {@code iota} input (row {@code j}'s own index); every other array it reads lies
 * in another part of the thread's memory ({@link ThreadPrivateParts}). The Brownian bridge of
 * FinPar's OptionPricing is this: {@code w[l] <- map(fn m => a * w[k, m] + b * z[t, m], iota(n))}.
 */
final class MapIntoUpdatedRow {
  /** An array that is a row of another: {@code root[i1, ..., i depth]}. */
  record RowOf(String root, int depth) {}

  private MapIntoUpdatedRow() {}

  /**
   * Whether {@code stm}, between a map and the update of its result, may run before the map
   * instead, so that the update's indices are known when the map writes: scalar code that cannot
   * fail (so no failure changes places with the map's) and does not read the map's result.
   */
  static boolean movesBefore(Stm stm, Stm mapStm) {
    Exp e = stm.exp();
    if (!stm.pattern().stream().allMatch(id -> id.type() instanceof ScalarType)
        || !e.lambdas().isEmpty()
        || !e.bodies().isEmpty()
        || Analysis.mayFail(e)) {
      return false;
    }
    Map<String, Integer> uses = Analysis.useCounts(e);
    return mapStm.pattern().stream().noneMatch(id -> uses.containsKey(id.name()));
  }

  /**
   * The update {@code next} makes with the single result of the map {@code mapStm} where that map
   * may write straight into the updated row; null otherwise. {@code uses} counts the uses of names
   * in the body holding both; {@code lookup} gives the bindings in scope; {@code owned} tells the
   * arrays the thread made and alone holds; {@code rowsOf} the arrays that are rows of others.
   */
  static Exp.Update updateOf(
      Stm mapStm,
      Stm next,
      Map<String, Integer> uses,
      Function<String, Binding> lookup,
      Set<String> owned,
      Map<String, RowOf> rowsOf,
      boolean rowsInterleave) {
    if (!(mapStm.exp() instanceof Exp.Screma map)
        || !map.isMap()
        || mapStm.pattern().size() != 1
        || !(next.exp() instanceof Exp.Update update)
        || !(update.value() instanceof SubExp.Var value)
        || !value.name().equals(mapStm.pattern().get(0).name())
        || uses.getOrDefault(value.name(), 0) != 1
        || !(map.function().returnTypes().get(0) instanceof ScalarType)
        || !(update.array() instanceof SubExp.Var updated)
        || !(lookup.apply(updated.name()) instanceof ArrayView view)
        || view.rank() != update.indices().size() + 1
        || (rowsInterleave && InterleavedRows.gains(map.function()))) {
      return null;
    }
    if (!owned.contains(updated.name())) {
      return update;
    }
    boolean threadPrivate =
        view.source() instanceof ArrayView.Memory memory && memory.buffer().isThreadPrivate();
    return threadPrivate
            && view.valid().equals(KernelExprs.TRUE)
            && readsOnlyOwnElements(map, updated.name(), view, lookup, rowsOf)
        ? update
        : null;
  }

  /**
   * Whether row {@code j} of {@code map} reads the array {@code updated} (viewed as {@code view}),
   * of which it updates a row, only at element {@code j} of its rows.
   */
  private static boolean readsOnlyOwnElements(
      Exp.Screma map,
      String updated,
      ArrayView view,
      Function<String, Binding> lookup,
      Map<String, RowOf> rowsOf) {
    int rowDepth = view.rank() - 1;
    Lambda f = map.function();
    Set<String> ownIndex = new HashSet<>();
    for (int i = 0; i < map.inputs().size(); i++) {
      if (!(map.inputs().get(i) instanceof SubExp.Var input)) {
        return false;
      }
      Integer depth = depthIn(input.name(), updated, rowsOf);
      Binding binding = lookup.apply(input.name());
      if (depth != null) {
        if (depth != rowDepth) {
          return false;
        }
      } else if (!apart(binding, view)) {
        return false;
      } else if (binding instanceof ArrayView in && isIota(in)) {
        ownIndex.add(f.params().get(i).name());
      }
    }
    Map<String, Integer> ownElementReads = new HashMap<>();
    for (Stm stm : Traversal.statements(f.body())) {
      if (!(stm.exp() instanceof Exp.Index index) || !(index.array() instanceof SubExp.Var array)) {
        continue;
      }
      Integer depth = depthIn(array.name(), updated, rowsOf);
      if (depth != null
          && depth + index.indices().size() == view.rank()
          && index.indices().get(index.indices().size() - 1) instanceof SubExp.Var last
          && ownIndex.contains(last.name())) {
        ownElementReads.merge(array.name(), 1, Integer::sum);
      }
    }
    Set<String> bound = Analysis.boundIn(f.body());
    f.params().forEach(p -> bound.add(p.name()));
    for (Map.Entry<String, Integer> use : Analysis.useCounts(f.body()).entrySet()) {
      String name = use.getKey();
      if (bound.contains(name)) {
        continue;
      }
      if (depthIn(name, updated, rowsOf) != null) {
        if (!use.getValue().equals(ownElementReads.get(name))) {
          return false;
        }
      } else if (!apart(lookup.apply(name), view)) {
        return false;
      }
    }
    return true;
  }

  /**
   * How many indices make {@code name} a row of {@code updated} (0 for {@code updated} itself);
   * null where it is not known to be one.
   */
  private static Integer depthIn(String name, String updated, Map<String, RowOf> rowsOf) {
    if (name.equals(updated)) {
      return 0;
    }
    RowOf row = rowsOf.get(name);
    return row != null && row.root().equals(updated) ? row.depth() : null;
  }

  /** Whether {@code binding} reads no element of {@code view}: a scalar, or another array. */
  private static boolean apart(Binding binding, ArrayView view) {
    if (!(binding instanceof ArrayView other)
        || !(other.source() instanceof ArrayView.Memory memory)) {
      return true;
    }
    return !memory.buffer().equals(view.buffer())
        || !ThreadPrivateParts.mayOverlap(view.buffer(), other.offset(), view.offset());
  }

  /** Whether row {@code j} of {@code view} is {@code j}: an {@code iota}. */
  private static boolean isIota(ArrayView view) {
    return view.source() instanceof ArrayView.Iota
        && view.offset().equals(KernelExprs.ZERO)
        && view.strides().equals(List.of(KernelExprs.ONE));
  }
}
