package dev.l0.opt.ir;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one supply of fresh names for a compilation: every name it hands out is {@code base_N} with a
 * counter shared by all passes, so names stay globally unique (ARCHITECTURE.md, "IR").
 */
public final class NameSource {
  private final AtomicInteger counter = new AtomicInteger();

  /** A fresh name derived from {@code base} (any earlier {@code _N} suffix is dropped). */
  public String fresh(String base) {
    String stem = withoutCounter(base);
    return (stem.isEmpty() ? "v" : stem) + "_" + counter.incrementAndGet();
  }

  /**
   * {@code base} less a trailing {@code _N}. Written without a regular expression: compiling one
   * deep in a pass's recursion could overflow the stack inside {@code Pattern}, which reports that
   * as a {@code PatternSyntaxException} instead of a {@code StackOverflowError}.
   */
  private static String withoutCounter(String base) {
    int digits = base.length();
    while (digits > 0 && base.charAt(digits - 1) >= '0' && base.charAt(digits - 1) <= '9') {
      digits--;
    }
    boolean counted = digits < base.length() && digits > 0 && base.charAt(digits - 1) == '_';
    return counted ? base.substring(0, digits - 1) : base;
  }
}
