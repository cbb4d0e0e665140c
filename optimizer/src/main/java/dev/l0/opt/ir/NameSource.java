package dev.l0.opt.ir;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one supply of fresh names for a compilation: every name it hands out is {@code base_N} with
 * a counter shared by all passes, so names stay globally unique (ARCHITECTURE.md, "IR").
 */
public final class NameSource {
  private final AtomicInteger counter = new AtomicInteger();

  /** A fresh name derived from {@code base} (any earlier {@code _N} suffix is dropped). */
  public String fresh(String base) {
    String stem = base.replaceFirst("_[0-9]+$", "");
    return (stem.isEmpty() ? "v" : stem) + "_" + counter.incrementAndGet();
  }
}
