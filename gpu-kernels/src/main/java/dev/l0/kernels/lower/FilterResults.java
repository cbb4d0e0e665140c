package dev.l0.kernels.lower;

import dev.l0.opt.ir.Exp;
import java.util.ArrayList;
import java.util.List;

/**
 * The filters of a filter or filtermap, as its lowerings (a kernel group, or a loop in a thread)
 * read them. Where each filter's keep flag is among the function's results, where its results start
 * in the pattern, and how many it has; {@code mapsRows} where the function returns the values (a
 * filtermap), not only flags (a filter, whose results are its input rows); {@code accumulators} the
 * number of a filtermap's accumulators, which lead its function's results and its pattern.
 */
record FilterResults(
    List<Integer> flags,
    List<Integer> firstResults,
    List<Integer> sizes,
    boolean mapsRows,
    int accumulators) {
  static FilterResults of(Exp.Soac soac, int results) {
    if (soac instanceof Exp.FilterMap f) {
      List<Integer> flags = new ArrayList<>();
      List<Integer> firsts = new ArrayList<>();
      for (int k = 0; k < f.filters().size(); k++) {
        flags.add(f.flagPosition(k));
        firsts.add(f.firstResult(k));
      }
      return new FilterResults(flags, firsts, f.filters(), true, f.accumulators());
    }
    return new FilterResults(List.of(0), List.of(0), List.of(results), false, 0);
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
