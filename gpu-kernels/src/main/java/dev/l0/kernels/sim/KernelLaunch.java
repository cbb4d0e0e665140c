package dev.l0.kernels.sim;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.sim.SimulationIssue.Memory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One launch of a compiled kernel on {@code gridDim} blocks of {@code blockDim} threads, scheduled
 * as the package documentation describes: blocks in order, each block's threads one after another
 * from barrier to barrier. Collects the issues it finds; an out-of-bounds access, a failing
 * operation or a divergent barrier stops the launch, a race does not.
 */
final class KernelLaunch {
  /**
   * The most race and uninitialised-read reports one launch keeps (one defect usually shows on many
   * elements).
   */
  private static final int MAX_REPORTED = 20;

  /** The most instructions one thread may run in a launch before it is taken to loop forever. */
  static final long STEP_LIMIT = 1L << 24;

  /**
   * The outcome: the issues found, whether they stopped the launch, the error code raised (0 for
   * none) and the values its raise recorded.
   */
  record Outcome(
      List<SimulationIssue> issues, boolean stopped, int errorCode, long[] errorValues) {}

  /** Thrown, after recording the issue, to stop the launch. */
  private static final class Stop extends RuntimeException {
    Stop() {
      super(null, null, false, false);
    }
  }

  /** The per-thread size given for a global buffer. */
  static final int GLOBAL = -1;

  private final CompiledKernel kernel;
  private final ScalarArray[] buffers;

  /**
   * Per buffer, the elements of each thread's array of a thread-private one, else {@link #GLOBAL}.
   */
  private final int[] threadPrivateElements;

  private final AccessTracker[] bufferTrackers;
  private final ScalarValue[] params;
  private final int blockDim;
  private final int gridDim;
  private final List<SimulationIssue> issues = new ArrayList<>();
  private int reported;
  private int errorCode;
  private long[] errorValues = new long[0];

  /** The current barrier interval's number, launch-wide ({@link AccessTracker}). */
  private long epoch;

  private ScalarArray[] shared;
  private AccessTracker[] sharedTrackers;

  /**
   * A launch binding {@code buffers} in order; a thread-private one (its {@code
   * threadPrivateElements} entry the size of each thread's array, else {@link #GLOBAL}) holds the
   * threads' arrays interleaved as the CUDA printer lays them out: element {@code k} of the grid's
   * thread {@code g} at {@code k * gridDim * blockDim + g}.
   */
  KernelLaunch(
      CompiledKernel kernel,
      List<ScalarArray> buffers,
      List<Integer> threadPrivateElements,
      List<ScalarValue> params,
      int blockDim,
      int gridDim) {
    this.kernel = kernel;
    this.buffers = buffers.toArray(new ScalarArray[0]);
    this.threadPrivateElements =
        threadPrivateElements.stream().mapToInt(Integer::intValue).toArray();
    this.bufferTrackers =
        buffers.stream()
            .map(b -> new AccessTracker(b.size(), blockDim))
            .toArray(AccessTracker[]::new);
    this.params = params.toArray(new ScalarValue[0]);
    this.blockDim = blockDim;
    this.gridDim = gridDim;
  }

  int blockDim() {
    return blockDim;
  }

  int gridDim() {
    return gridDim;
  }

  Outcome run() {
    try {
      for (int block = 0; block < gridDim; block++) {
        runBlock(block);
      }
      return new Outcome(issues, false, errorCode, errorValues);
    } catch (Stop stop) {
      return new Outcome(issues, true, errorCode, errorValues);
    }
  }

  private void runBlock(int block) {
    List<SharedArray> declared = kernel.kernel().shared();
    shared = new ScalarArray[declared.size()];
    sharedTrackers = new AccessTracker[declared.size()];
    for (int k = 0; k < declared.size(); k++) {
      SharedArray a = declared.get(k);
      int size = Math.toIntExact(a.elements(blockDim));
      shared[k] = new ScalarArray(a.name(), a.elementType(), size);
      sharedTrackers[k] = new AccessTracker(size, blockDim);
    }
    ThreadState[] threads = new ThreadState[blockDim];
    for (int t = 0; t < blockDim; t++) {
      ScalarValue[] slots = new ScalarValue[kernel.slotCount()];
      System.arraycopy(params, 0, slots, 0, params.length);
      threads[t] = new ThreadState(this, kernel.code(), block, t, slots, kernel.barrierLoops());
    }
    while (true) {
      epoch++;
      for (ThreadState thread : threads) {
        runThread(thread);
      }
      Map<Instruction.Barrier, List<Integer>> waiting = new LinkedHashMap<>();
      List<Integer> finished = new ArrayList<>();
      for (ThreadState thread : threads) {
        Instruction.Barrier barrier = thread.waitingAt();
        (barrier == null ? finished : waiting.computeIfAbsent(barrier, b -> new ArrayList<>()))
            .add(thread.thread());
      }
      if (waiting.isEmpty()) {
        return;
      }
      if (waiting.size() > 1 || !finished.isEmpty()) {
        stop(
            new SimulationIssue.DivergentBarrier(
                kernel.name(), block, divergence(waiting, finished)));
      }
      if (!Arrays.stream(threads).allMatch(t -> t.sameIterations(threads[0]))) {
        Map<String, List<Integer>> byIteration = new LinkedHashMap<>();
        for (ThreadState thread : threads) {
          byIteration
              .computeIfAbsent(thread.iterations(), i -> new ArrayList<>())
              .add(thread.thread());
        }
        stop(
            new SimulationIssue.DivergentBarrier(
                kernel.name(),
                block,
                inIterations(waiting.keySet().iterator().next(), byIteration)));
      }
    }
  }

  /**
   * Where the threads of a block wait at {@code barrier} in different iterations of the loops
   * around it, e.g. {@code threads 0-3 wait at barrier 2 after iterations (1, 0) of its loops;
   * threads 4-7 after iterations (0, 1)}: on a GPU they would pass one barrier meant as two.
   */
  private static String inIterations(
      Instruction.Barrier barrier, Map<String, List<Integer>> byIteration) {
    List<String> groups = new ArrayList<>();
    byIteration.forEach(
        (iterations, threads) ->
            groups.add(
                threads(threads)
                    + (groups.isEmpty()
                        ? (threads.size() == 1 ? " waits" : " wait")
                            + " at barrier "
                            + barrier.ordinal()
                            + " after iterations "
                            + iterations
                            + " of the loops that hold barriers"
                        : " after iterations " + iterations)));
    return String.join("; ", groups);
  }

  private void runThread(ThreadState thread) {
    try {
      thread.runToBarrierOrEnd();
    } catch (L0RuntimeError | L0CompileError | IllegalArgumentException failure) {
      stop(
          new SimulationIssue.FailingOperation(
              kernel.name(), thread.block(), thread.thread(), failure.getMessage()));
    }
    if (thread.steps() > STEP_LIMIT) {
      stop(
          new SimulationIssue.StepLimit(
              kernel.name(), thread.block(), thread.thread(), STEP_LIMIT));
    }
  }

  /**
   * Where the threads of a block stopped, e.g. {@code threads 0-3 wait at barrier 2; threads 4-7
   * have finished}.
   */
  private static String divergence(
      Map<Instruction.Barrier, List<Integer>> waiting, List<Integer> finished) {
    Map<Integer, String> byFirstThread = new TreeMap<>();
    waiting.forEach(
        (barrier, threads) ->
            byFirstThread.put(
                threads.get(0),
                threads(threads)
                    + (threads.size() == 1 ? " waits" : " wait")
                    + " at barrier "
                    + barrier.ordinal()));
    if (!finished.isEmpty()) {
      byFirstThread.put(
          finished.get(0),
          threads(finished) + (finished.size() == 1 ? " has" : " have") + " finished");
    }
    return String.join("; ", byFirstThread.values());
  }

  /** Ascending thread numbers as ranges: {@code thread 5}, {@code threads 0-3, 6, 8-9}. */
  private static String threads(List<Integer> numbers) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int k = 1; k <= numbers.size(); k++) {
      if (k == numbers.size() || numbers.get(k) != numbers.get(k - 1) + 1) {
        int first = numbers.get(start);
        int last = numbers.get(k - 1);
        parts.add(first == last ? String.valueOf(first) : first + "-" + last);
        start = k;
      }
    }
    return (numbers.size() == 1 ? "thread " : "threads ") + String.join(", ", parts);
  }

  void raise(int code, long[] values) {
    if (errorCode == 0) {
      errorCode = code;
      errorValues = values;
    }
  }

  ScalarValue loadGlobal(ThreadState thread, int buffer, long index) {
    if (threadPrivateElements[buffer] != GLOBAL) {
      long element = threadPrivateElement(thread, buffer, index, false);
      // Once an error is raised the launch's results are discarded (as on the GPU, threads go on
      // after raising): a thread may then read what a failed copy left unwritten.
      if (errorCode == 0 && !bufferTrackers[buffer].written((int) element)) {
        report(
            new SimulationIssue.UninitialisedRead(
                kernel.name(),
                Memory.THREAD_PRIVATE,
                buffers[buffer].name(),
                index,
                thread.block(),
                thread.thread()));
      }
      return load(thread, Memory.THREAD_PRIVATE, buffers[buffer], bufferTrackers[buffer], element);
    }
    return load(thread, Memory.GLOBAL, buffers[buffer], bufferTrackers[buffer], index);
  }

  ScalarValue loadShared(ThreadState thread, int array, long index) {
    return load(thread, Memory.SHARED, shared[array], sharedTrackers[array], index);
  }

  void storeGlobal(ThreadState thread, int buffer, long index, ScalarValue value) {
    if (threadPrivateElements[buffer] != GLOBAL) {
      long element = threadPrivateElement(thread, buffer, index, true);
      store(thread, Memory.THREAD_PRIVATE, buffers[buffer], bufferTrackers[buffer], element, value);
      return;
    }
    store(thread, Memory.GLOBAL, buffers[buffer], bufferTrackers[buffer], index, value);
  }

  /**
   * Where element {@code index} of the thread's own array of thread-private {@code buffer} lies;
   * out of its bounds stops the launch.
   */
  private long threadPrivateElement(ThreadState thread, int buffer, long index, boolean write) {
    int size = threadPrivateElements[buffer];
    if (index < 0 || index >= size) {
      stop(
          new SimulationIssue.OutOfBounds(
              kernel.name(),
              Memory.THREAD_PRIVATE,
              buffers[buffer].name(),
              write,
              index,
              size,
              thread.block(),
              thread.thread()));
    }
    return index * ((long) gridDim * blockDim) + launchThread(thread);
  }

  void storeShared(ThreadState thread, int array, long index, ScalarValue value) {
    store(thread, Memory.SHARED, shared[array], sharedTrackers[array], index, value);
  }

  private ScalarValue load(
      ThreadState thread, Memory memory, ScalarArray array, AccessTracker tracker, long index) {
    int i = checkBounds(thread, memory, array, index, false);
    if (memory == Memory.SHARED && !tracker.written(i)) {
      report(
          new SimulationIssue.UninitialisedRead(
              kernel.name(), array.name(), i, thread.block(), thread.thread()));
    }
    race(thread, memory, array, i, tracker.read(i, launchThread(thread), epoch));
    return array.get(i);
  }

  private void store(
      ThreadState thread,
      Memory memory,
      ScalarArray array,
      AccessTracker tracker,
      long index,
      ScalarValue value) {
    int i = checkBounds(thread, memory, array, index, true);
    race(thread, memory, array, i, tracker.write(i, launchThread(thread), epoch));
    array.set(i, value);
  }

  private int checkBounds(
      ThreadState thread, Memory memory, ScalarArray array, long index, boolean write) {
    if (index < 0 || index >= array.size()) {
      stop(
          new SimulationIssue.OutOfBounds(
              kernel.name(),
              memory,
              array.name(),
              write,
              index,
              array.size(),
              thread.block(),
              thread.thread()));
    }
    return (int) index;
  }

  private int launchThread(ThreadState thread) {
    return thread.block() * blockDim + thread.thread();
  }

  private void race(
      ThreadState thread,
      Memory memory,
      ScalarArray array,
      int index,
      AccessTracker.Conflict conflict) {
    if (conflict != null) {
      report(
          new SimulationIssue.DataRace(
              kernel.name(),
              memory,
              array.name(),
              index,
              conflict.kind(),
              thread.block(),
              thread.thread(),
              conflict.otherThread() / blockDim,
              conflict.otherThread() % blockDim));
    }
  }

  /** Records an issue that does not stop the launch, up to {@link #MAX_REPORTED} of them. */
  private void report(SimulationIssue issue) {
    if (reported < MAX_REPORTED) {
      reported++;
      issues.add(issue);
    }
  }

  private void stop(SimulationIssue issue) {
    issues.add(issue);
    throw new Stop();
  }
}
