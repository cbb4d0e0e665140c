package dev.l0.kernels.sim;

/** A defect the simulator found in a kernel: each says where (kernel, block, thread) and what. */
public sealed interface SimulationIssue {

  /** The kernel that has the defect (for a host step, its kernel group). */
  String kernel();

  /** One line for a report. */
  String describe();

  /**
   * Whether this is one of the simulator's own limits reached ({@link Limit}) rather than a defect
   * of the kernel: the program may be right and too large for the simulator.
   */
  default boolean isLimit() {
    return this instanceof Limit;
  }

  /** One of the simulator's own limits reached: {@link StepLimit} or {@link AllocationLimit}. */
  sealed interface Limit extends SimulationIssue {
    /**
     * What went beyond the limit, in terms that need no kernel or buffer names (the caller says
     * which construct of the program the launch runs), e.g. {@code a thread (block 0, thread 3) ran
     * 16777216 steps without finishing, the simulator's limit per thread and launch}.
     */
    String beyond();
  }

  /** Which kind of memory an access went to. */
  enum Memory {
    GLOBAL("global buffer"),
    SHARED("shared array"),
    THREAD_PRIVATE("thread-private array");

    private final String description;

    Memory(String description) {
      this.description = description;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** An access of element {@code index} of an array of {@code size} elements. */
  record OutOfBounds(
      String kernel,
      Memory memory,
      String array,
      boolean write,
      long index,
      long size,
      int block,
      int thread)
      implements SimulationIssue {
    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + ", thread "
          + thread
          + " "
          + (write ? "writes" : "reads")
          + " element "
          + index
          + " of "
          + memory
          + " "
          + array
          + " of size "
          + size;
    }
  }

  /** How two unordered accesses of one element conflict: which came first and which second. */
  enum RaceKind {
    READ_AFTER_WRITE("reads", "written"),
    WRITE_AFTER_WRITE("writes", "written"),
    WRITE_AFTER_READ("writes", "read");

    private final String second;
    private final String first;

    RaceKind(String second, String first) {
      this.second = second;
      this.first = first;
    }
  }

  /**
   * Thread {@code thread} of {@code block} accessed element {@code index} of {@code array} with no
   * barrier ordering it after thread {@code otherThread} of {@code otherBlock}'s access.
   */
  record DataRace(
      String kernel,
      Memory memory,
      String array,
      long index,
      RaceKind kind,
      int block,
      int thread,
      int otherBlock,
      int otherThread)
      implements SimulationIssue {
    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + ", thread "
          + thread
          + " "
          + kind.second
          + " element "
          + index
          + " of "
          + memory
          + " "
          + array
          + ", "
          + kind.first
          + " by block "
          + otherBlock
          + ", thread "
          + otherThread
          + " with no barrier between";
    }
  }

  /**
   * A thread read an element of a shared array that no thread of its block had written, or of its
   * thread-private array that it had not written: its contents are undefined on a GPU.
   */
  record UninitialisedRead(
      String kernel, Memory memory, String array, long index, int block, int thread)
      implements SimulationIssue {
    /** A read of a shared array's element that no thread of the block wrote. */
    public UninitialisedRead(String kernel, String array, long index, int block, int thread) {
      this(kernel, Memory.SHARED, array, index, block, thread);
    }

    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + ", thread "
          + thread
          + " reads element "
          + index
          + " of "
          + memory
          + " "
          + array
          + (memory == Memory.SHARED
              ? " before any thread of the block wrote it"
              : " before the thread wrote it");
    }
  }

  /**
   * A thread ran {@code steps} instructions in one launch without finishing: it loops forever or
   * longer than the simulator allows.
   */
  record StepLimit(String kernel, int block, int thread, long steps) implements Limit {
    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + ", thread "
          + thread
          + " does not finish within "
          + steps
          + " steps, the simulator's limit per thread and launch";
    }

    @Override
    public String beyond() {
      return "a thread (block "
          + block
          + ", thread "
          + thread
          + ") ran "
          + steps
          + " steps without finishing, the simulator's limit per thread and launch";
    }
  }

  /**
   * A host step would allocate {@code elements} elements for {@code buffer}, more than the
   * simulator's {@code limit}: for a thread-private buffer, the arrays of a launch's {@code
   * threads} threads, which the simulator lays out in one buffer as a GPU does; 0 threads for a
   * global buffer.
   */
  record AllocationLimit(String kernel, String buffer, long elements, long threads, long limit)
      implements Limit {
    @Override
    public String describe() {
      return kernel
          + " (host): buffer "
          + buffer
          + " needs "
          + elements
          + " elements, more than the simulator's limit of "
          + limit
          + " elements per buffer";
    }

    @Override
    public String beyond() {
      return (threads == 0
              ? "a buffer of " + elements + " elements ("
              : "arrays of "
                  + elements / threads
                  + " elements in each of "
                  + threads
                  + " threads, "
                  + elements
                  + " elements in one buffer (")
          + buffer
          + "), more than the simulator's limit of "
          + limit
          + " elements per buffer";
    }
  }

  /**
   * Not every thread of {@code block} reached the same barrier: {@code where} lists where each
   * group of threads stopped.
   */
  record DivergentBarrier(String kernel, int block, String where) implements SimulationIssue {
    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + " reaches a barrier under divergent control flow: "
          + where;
    }
  }

  /**
   * The kernel evaluated an operation that fails: an unguarded integer division by zero, an
   * operation on values of the wrong type, a store of the wrong type.
   */
  record FailingOperation(String kernel, int block, int thread, String failure)
      implements SimulationIssue {
    @Override
    public String describe() {
      return kernel
          + ": block "
          + block
          + ", thread "
          + thread
          + " evaluates a failing operation: "
          + failure;
    }
  }

  /**
   * A host step of kernel group {@code kernel} failed: a failing host expression, a bad grid size,
   * a read out of range.
   */
  record HostStepFailure(String kernel, String failure) implements SimulationIssue {
    @Override
    public String describe() {
      return kernel + " (host): " + failure;
    }
  }
}
