package dev.l0.kernels.lower;

import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import java.util.ArrayList;
import java.util.List;

/**
 * The filters of a filtermap, as its lowerings (a kernel group, or a loop in a thread) read them.
 * {@code function} is what runs on each row: a plain filter's predicate, or the filtermap's
 * function. Where each filter's keep flag is among the function's results, where its results start
 * in the pattern, and how many it has; {@code mapsRows} where the function returns the values (a
 * filtermap), not only flags (a plain filter, whose results are its input rows, copied as they are,
 * arrays included); {@code accumulators} the number of a filtermap's accumulators, which lead its
 * function's results and its pattern.
 */
record FilterResults(
    Lambda function,
    List<Integer> flags,
    List<Integer> firstResults,
    List<Integer> sizes,
    boolean mapsRows,
    int accumulators) {
  static FilterResults of(Exp.FilterMap f) {
    if (f.isFilter()) {
      return new FilterResults(
          f.predicate(), List.of(0), List.of(0), List.of(f.inputs().size()), false, 0);
    }
    List<Integer> flags = new ArrayList<>();
    List<Integer> firsts = new ArrayList<>();
    for (int k = 0; k < f.filters().size(); k++) {
      flags.add(f.flagPosition(k));
      firsts.add(f.firstResult(k));
    }
    return new FilterResults(f.function(), flags, firsts, f.filters(), true, f.accumulators());
  }

  int count() {
    return flags.size();
  }

  /** The filter whose results include result {@code r}. */
  int filterOf(int r) {
    int k = 0;
    while (k + 1 < count() && firstResults.get(k + 1) <= r) {
      k++;
    }
    return k;
  }
}
