package dev.l0.kernels.jvm;

import dev.l0.kernels.ir.ReductionOrder;

/**
 * The base class of every generated kernel class: one instance per run, holding the run's
 * arrays. {@link ChunkedExecution} calls the phases of the kernel's SOAC in the order of the
 * reduction-order contract (dev.l0.kernels.ir package documentation); a generated class overrides
 * the phases its SOAC has. Phases over chunks run in parallel and touch disjoint elements.
 */
public abstract class KernelInstance {
  /** Source positions and other objects the generated code refers to by index. */
  protected final Object[] constants;
  /** The number of rows of the SOAC's inputs. */
  protected final int size;
  /** For filter: where each chunk's kept rows start in the result, set before {@link #phase2}. */
  protected int[] offsets;

  protected KernelInstance(Object[] constants, int size) {
    this.constants = constants;
    this.size = size;
  }

  /** The number of chunks of a SOAC over {@code size} rows: the length of partial arrays. */
  protected static int chunks(int size) {
    return (int) ReductionOrder.chunkCount(size);
  }

  /** {@code shape} with {@code rows} rows: the shape of a filter's result. */
  protected static int[] withRows(int[] shape, int rows) {
    int[] out = shape.clone();
    out[0] = rows;
    return out;
  }

  /**
   * The first pass over the rows {@code [start, end)} of chunk {@code chunk}: map writes its
   * results, reductions and scans fold the chunk into its partial, filter evaluates and counts flags.
   */
  public abstract void phase1(int chunk, int start, int end);

  /** Reductions: {@code partial[into] = combine(partial[into], partial[from])}. */
  public void combine(int into, int from) {
    throw new IllegalStateException(getClass().getName() + " has no combine phase");
  }

  /** Scans: the carry of every chunk from the partials, sequentially. */
  public void carries() {
    throw new IllegalStateException(getClass().getName() + " has no carries phase");
  }

  /** Filter: the number of rows chunk {@code chunk} keeps. */
  public int kept(int chunk) {
    throw new IllegalStateException(getClass().getName() + " has no filter phase");
  }

  /** Filter: allocates the results for {@code total} kept rows. */
  public void allocateKept(int total) {
    throw new IllegalStateException(getClass().getName() + " has no filter phase");
  }

  /** The second pass: scans refold each chunk from its carry, filter scatters its kept rows. */
  public void phase2(int chunk, int start, int end) {
    throw new IllegalStateException(getClass().getName() + " has no second pass");
  }

  /** The SOAC's results: a {@link FlatArray} per array, a boxed primitive per scalar. */
  public abstract Object[] results();
}
