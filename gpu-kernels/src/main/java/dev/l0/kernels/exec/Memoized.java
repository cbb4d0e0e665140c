package dev.l0.kernels.exec;

import java.util.function.Supplier;

/**
 * A value computed on first use, once (a kernel prepared for a second executor or configuration
 * only when a call needs it); safe to share between threads.
 */
public final class Memoized<T> implements Supplier<T> {
  private final Supplier<T> compute;
  private T value;

  public Memoized(Supplier<T> compute) {
    this.compute = compute;
  }

  @Override
  public synchronized T get() {
    if (value == null) {
      value = compute.get();
    }
    return value;
  }
}
