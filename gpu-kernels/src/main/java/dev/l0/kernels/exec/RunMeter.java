package dev.l0.kernels.exec;

import java.util.function.Supplier;

/**
 * The running totals of one host-runner call: nanoseconds in kernels, the bytes and nanoseconds of
 * host/device copies, the flat arrays host code had to box, and the launches a GPU executor gave to
 * the JVM backend. A call creates its own meter and fills it on its own thread, so calls running at
 * the same time never share one (not thread-safe). The host runner times each kernel; executors
 * report the copies they make ({@link #addTransfer}) and the time they wait for a device other
 * calls are using ({@link #addWait}), and the rest of the kernel's time is kernel time.
 */
public final class RunMeter {
  private long kernelNanos;
  private long transferBytes;
  private long transferNanos;
  private long waitNanos;
  private int boxedArrays;
  private int launchesPlacedOnJvm;

  /**
   * Records one copy between host and device memory of {@code bytes} bytes that took {@code nanos}.
   */
  public void addTransfer(long bytes, long nanos) {
    transferBytes += bytes;
    transferNanos += nanos;
  }

  /** Records {@code nanos} spent waiting for a device that other calls were using. */
  public void addWait(long nanos) {
    waitNanos += nanos;
  }

  /**
   * Records that a GPU executor gave a launch to the JVM backend because it has too few parallel
   * rows for the GPU.
   */
  public void addLaunchPlacedOnJvm() {
    launchesPlacedOnJvm++;
  }

  /** Records that host code needed a flat array's elements as interpreter values (boxed them). */
  void addBoxedArray() {
    boxedArrays++;
  }

  /**
   * Runs {@code kernel}; its time, less the copies and waits it reports meanwhile, is kernel time.
   */
  <T> T timeKernel(Supplier<T> kernel) {
    long start = System.nanoTime();
    long reportedBefore = transferNanos + waitNanos;
    T results = kernel.get();
    long elapsed = System.nanoTime() - start;
    kernelNanos += Math.max(0, elapsed - (transferNanos + waitNanos - reportedBefore));
    return results;
  }

  public long kernelNanos() {
    return kernelNanos;
  }

  public long transferBytes() {
    return transferBytes;
  }

  public long transferNanos() {
    return transferNanos;
  }

  /**
   * How many flat arrays this call boxed because host code (the evaluator, the simulator) needed
   * their elements as values.
   */
  public int boxedArrays() {
    return boxedArrays;
  }

  /**
   * How many launches of this call a GPU executor gave to the JVM backend as too narrow for the
   * GPU.
   */
  public int launchesPlacedOnJvm() {
    return launchesPlacedOnJvm;
  }
}
