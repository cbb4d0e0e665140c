package dev.l0.kernels.sim;

import dev.l0.kernels.sim.SimulationIssue.RaceKind;
import java.util.Arrays;

/**
 * The race detector's record of one array during one launch. Threads are numbered across the launch
 * ({@code block * blockDim + thread}); an epoch numbers one barrier interval of one block (every
 * block start and every barrier opens a new one), so two accesses by different threads are ordered
 * exactly when they are in one block and in different epochs. Per element it keeps the last writer
 * and the first two distinct readers of the current interval, which finds every conflicting pair
 * within a block and read-after-write and write-after-write pairs across blocks.
 */
final class AccessTracker {
  private static final int NONE = -1;

  /** A conflicting earlier access by launch-wide thread {@code otherThread}. */
  record Conflict(RaceKind kind, int otherThread) {}

  private final int blockDim;
  private final int[] writer;
  private final long[] writeEpoch;
  private final int[] firstReader;
  private final int[] secondReader;
  private final long[] readEpoch;

  AccessTracker(int size, int blockDim) {
    this.blockDim = blockDim;
    this.writer = filled(size);
    this.writeEpoch = new long[size];
    this.firstReader = filled(size);
    this.secondReader = filled(size);
    this.readEpoch = new long[size];
  }

  private static int[] filled(int size) {
    int[] a = new int[size];
    Arrays.fill(a, NONE);
    return a;
  }

  /**
   * Whether any thread has written element {@code index} in this launch (for a shared array: in
   * this block).
   */
  boolean written(int index) {
    return writer[index] != NONE;
  }

  /** Records a read of {@code index}; the write it races with, or null. */
  Conflict read(int index, int thread, long epoch) {
    Conflict conflict =
        unordered(writer[index], writeEpoch[index], thread, epoch)
            ? new Conflict(RaceKind.READ_AFTER_WRITE, writer[index])
            : null;
    if (readEpoch[index] != epoch || firstReader[index] == NONE) {
      readEpoch[index] = epoch;
      firstReader[index] = thread;
      secondReader[index] = NONE;
    } else if (firstReader[index] != thread && secondReader[index] == NONE) {
      secondReader[index] = thread;
    }
    return conflict;
  }

  /** Records a write of {@code index}; the write or read it races with, or null. */
  Conflict write(int index, int thread, long epoch) {
    Conflict conflict = null;
    if (unordered(writer[index], writeEpoch[index], thread, epoch)) {
      conflict = new Conflict(RaceKind.WRITE_AFTER_WRITE, writer[index]);
    } else if (readEpoch[index] == epoch && firstReader[index] != NONE) {
      int other = firstReader[index] != thread ? firstReader[index] : secondReader[index];
      conflict = other == NONE ? null : new Conflict(RaceKind.WRITE_AFTER_READ, other);
    }
    writer[index] = thread;
    writeEpoch[index] = epoch;
    return conflict;
  }

  /**
   * Whether an earlier access by {@code earlier} in {@code earlierEpoch} is unordered with one by
   * {@code thread} in {@code epoch}.
   */
  private boolean unordered(int earlier, long earlierEpoch, int thread, long epoch) {
    return earlier != NONE
        && earlier != thread
        && (earlierEpoch == epoch || earlier / blockDim != thread / blockDim);
  }
}
