package dev.l0.opt;

import dev.l0.opt.ir.Exp;

/** The outermost SOAC of a kernel, as the kernel plan, the lowering and {@code explain} name it. */
public enum KernelKind {
  /** A {@link Exp.Screma} yielding each row's results. */
  MAP("map"),
  /** A {@link Exp.FilterMap} that is a plain filter. */
  FILTER("filter"),
  /** An unfused {@link Exp.Screma} yielding its final accumulators. */
  REDUCE("reduce"),
  /** An unfused {@link Exp.Screma} yielding every prefix. */
  SCAN("scan"),
  /** A fused {@link Exp.Screma} yielding its final accumulators. */
  REDOMAP("redomap"),
  /**
   * A fused {@link Exp.Screma} yielding its final accumulators and each row's values ({@link
   * Exp.Screma#reducesAndMaps}).
   */
  SCREMA("screma"),
  /** A fused {@link Exp.Screma} yielding every prefix. */
  SCANOMAP("scanomap"),
  /**
   * A {@link Exp.FilterMap} that is no plain filter: a filter cluster (flags, a scan of counts, a
   * scatter).
   */
  FILTERMAP("filtermap");

  private final String keyword;

  KernelKind(String keyword) {
    this.keyword = keyword;
  }

  /** The SOAC's keyword, e.g. {@code redomap}. */
  public String keyword() {
    return keyword;
  }

  @Override
  public String toString() {
    return keyword;
  }

  /** The kind of {@code soac}. */
  public static KernelKind of(Exp.Soac soac) {
    if (soac.isMap()) {
      return MAP;
    }
    if (soac instanceof Exp.FilterMap f) {
      return f.isFilter() ? FILTER : FILTERMAP;
    }
    if (soac.isReduce()) {
      return REDUCE;
    }
    if (soac.isScan()) {
      return SCAN;
    }
    Exp.Screma screma = (Exp.Screma) soac;
    if (screma.reducesAndMaps()) {
      return SCREMA;
    }
    return screma.scans() ? SCANOMAP : REDOMAP;
  }
}
