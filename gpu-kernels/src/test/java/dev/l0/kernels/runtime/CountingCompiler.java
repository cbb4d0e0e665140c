package dev.l0.kernels.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link PtxCompiler} for cache tests: its "PTX" names the source, options and target it was
 * given (padded to a chosen size), and it counts how often it was asked.
 */
final class CountingCompiler implements PtxCompiler {
  private final String identity;
  private final int paddingBytes;
  private final AtomicInteger compilations = new AtomicInteger();

  CountingCompiler(String identity, int paddingBytes) {
    this.identity = identity;
    this.paddingBytes = paddingBytes;
  }

  CountingCompiler(String identity) {
    this(identity, 0);
  }

  int compilations() {
    return compilations.get();
  }

  static String expectedPtx(
      String source, List<String> options, ComputeCapability target, int paddingBytes) {
    return "// ptx of "
        + source
        + " with "
        + options
        + " for "
        + target
        + "\n"
        + "x".repeat(paddingBytes);
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public Ptx compile(String source, List<String> options, ComputeCapability target) {
    compilations.incrementAndGet();
    return new Ptx(expectedPtx(source, options, target, paddingBytes));
  }
}
