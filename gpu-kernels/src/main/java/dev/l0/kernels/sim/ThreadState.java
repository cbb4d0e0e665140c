package dev.l0.kernels.sim;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.Arrays;
import java.util.List;

/** One simulated thread: its program counter, its slots, and the barrier it waits at, if any. */
final class ThreadState implements Frame {
  private final KernelLaunch launch;
  private final List<Instruction> code;
  private final int block;
  private final int thread;
  private final ScalarValue[] slots;
  private final long[] iterations;
  private int pc;
  private long steps;
  private Instruction.Barrier waitingAt;

  ThreadState(
      KernelLaunch launch,
      List<Instruction> code,
      int block,
      int thread,
      ScalarValue[] slots,
      int barrierLoops) {
    this.launch = launch;
    this.code = code;
    this.block = block;
    this.thread = thread;
    this.slots = slots;
    this.iterations = new long[barrierLoops];
  }

  int block() {
    return block;
  }

  int thread() {
    return thread;
  }

  /**
   * Runs the thread from where it stopped up to its next barrier, its end, or past {@link
   * KernelLaunch#STEP_LIMIT} instructions in all.
   */
  void runToBarrierOrEnd() {
    waitingAt = null;
    while (waitingAt == null && pc < code.size() && steps <= KernelLaunch.STEP_LIMIT) {
      pc = code.get(pc).execute(this, pc);
      steps++;
    }
  }

  /** The instructions the thread has run so far in the launch. */
  long steps() {
    return steps;
  }

  /** The barrier the thread waits at, or null when it has finished. */
  Instruction.Barrier waitingAt() {
    return waitingAt;
  }

  void arriveAt(Instruction.Barrier barrier) {
    waitingAt = barrier;
  }

  void countIteration(int loop) {
    iterations[loop]++;
  }

  /** Whether this thread has run as many iterations of each barrier loop as {@code other}. */
  boolean sameIterations(ThreadState other) {
    return Arrays.equals(iterations, other.iterations);
  }

  /**
   * The iterations the thread has begun after the first of each loop whose body holds a barrier, as
   * {@code (2, 0)}: threads waiting at one barrier in the same dynamic instance of it agree.
   */
  String iterations() {
    StringBuilder text = new StringBuilder("(");
    for (int k = 0; k < iterations.length; k++) {
      text.append(k == 0 ? "" : ", ").append(iterations[k]);
    }
    return text.append(')').toString();
  }

  void setLocal(int slot, ScalarValue value) {
    slots[slot] = value;
  }

  void store(int buffer, long index, ScalarValue value) {
    launch.storeGlobal(this, buffer, index, value);
  }

  void sharedStore(int array, long index, ScalarValue value) {
    launch.storeShared(this, array, index, value);
  }

  void raise(int code, long[] values) {
    launch.raise(code, values);
  }

  @Override
  public ScalarValue local(int slot) {
    return slots[slot];
  }

  @Override
  public ScalarValue register(ThreadIndex index) {
    switch (index) {
      case THREAD_IDX:
        return ScalarValue.i64(thread);
      case BLOCK_IDX:
        return ScalarValue.i64(block);
      case BLOCK_DIM:
        return ScalarValue.i64(launch.blockDim());
      default:
        return ScalarValue.i64(launch.gridDim());
    }
  }

  @Override
  public ScalarValue load(int buffer, long index) {
    return launch.loadGlobal(this, buffer, index);
  }

  @Override
  public ScalarValue sharedLoad(int array, long index) {
    return launch.loadShared(this, array, index);
  }
}
