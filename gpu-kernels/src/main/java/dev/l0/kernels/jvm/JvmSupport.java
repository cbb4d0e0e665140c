package dev.l0.kernels.jvm;

import dev.l0.semantics.ScalarOperations;

/**
 * The operations generated kernels call where a Java operator alone would not mean what {@code
 * dev.l0.semantics.ScalarOperations} means: integer {@code pow}, for the non-negative exponents the
 * kernel IR guards it to, computed by {@link ScalarOperations#wrappingPower}; the scratch arrays
 * and region workspaces of the loops inside kernel threads that run lane-wise ({@link
 * InnerLoopStages}), with the one rule that decides whether a run of such a loop is staged ({@link
 * #runsPlain}, called by the kernels where trip counts are known only at run time and by the
 * printer where they are constants); and the values a failing thread's first raise records ({@link
 * #raise}).
 */
public final class JvmSupport {
  private static final ThreadLocal<double[][]> LANE_SCRATCH =
      ThreadLocal.withInitial(() -> new double[0][]);

  /**
   * Per thread, by region (whose class has no equals of its own: by identity): weakly, so that a
   * long-lived thread does not keep the region's class and workspace once no program uses it.
   */
  private static final ThreadLocal<java.util.Map<KernelThreads, Object>> WORKSPACES =
      ThreadLocal.withInitial(java.util.WeakHashMap::new);

  /** Per thread: the code of its first raise with values since the last take, then the values. */
  private static final ThreadLocal<long[]> RAISED = new ThreadLocal<>();

  private static final long[] NO_VALUES = new long[0];

  private JvmSupport() {}

  /**
   * A raise of error {@code code} that records {@code values}, where the kernel's error word (its
   * method's) is {@code error}: the error word after it ({@code code} where none was raised
   * before). The values are kept unless a raise on this thread kept some since the last {@link
   * #takeRaised}: the first raise with values.
   */
  public static int raise(int error, int code, long... values) {
    if (RAISED.get() == null) {
      long[] kept = new long[values.length + 1];
      kept[0] = code;
      System.arraycopy(values, 0, kept, 1, values.length);
      RAISED.set(kept);
    }
    return error == 0 ? code : error;
  }

  /** {@link #raise(int, int, long...)} of one value, in less bytecode at the kernel's raise. */
  public static int raise(int error, int code, long value) {
    return raise(error, code, new long[] {value});
  }

  /** {@link #raise(int, int, long...)} of two values, in less bytecode at the kernel's raise. */
  public static int raise(int error, int code, long first, long second) {
    return raise(error, code, new long[] {first, second});
  }

  /**
   * The values {@link #raise} kept on this thread if they are error {@code code}'s (the thread's
   * first raise may have recorded none: rows run interleaved), else none; forgotten either way.
   */
  static long[] takeRaised(int code) {
    long[] kept = RAISED.get();
    RAISED.remove();
    return kept == null || kept[0] != code
        ? NO_VALUES
        : java.util.Arrays.copyOfRange(kept, 1, kept.length);
  }

  /**
   * Whether a run over {@code [start, bound)} by {@code step} of a loop that could run lane-wise
   * ({@link InnerLoopStages}) runs as it is: it has too few iterations to be staged ({@link
   * InnerLoopStages#MIN_ITERATIONS}), its inner loops evaluate a unit too often per iteration
   * ({@link InnerLoopStages#MAX_EVALUATIONS_PER_ITERATION}), or it has a region and evaluates its
   * units too few times ({@link InnerLoopStages#REGION_MIN_EVALUATIONS}).
   */
  public static boolean runsPlain(
      long start, long bound, long step, long evaluationsPerIteration, boolean hasRegion) {
    long length = bound - start;
    return length < InnerLoopStages.MIN_ITERATIONS * step
        || evaluationsPerIteration > InnerLoopStages.MAX_EVALUATIONS_PER_ITERATION
        || (hasRegion
            && length / step * evaluationsPerIteration < InnerLoopStages.REGION_MIN_EVALUATIONS);
  }

  /** The iterations of a loop over {@code [start, bound)} by a positive {@code step}. */
  public static long trips(long start, long bound, long step) {
    return Math.max(0L, (bound - start + step - 1L) / step);
  }

  /**
   * The calling thread's first {@code arrays} scratch arrays, each of at least {@code length}
   * doubles, made or grown on first need and reused by every staged inner loop the thread runs (one
   * at a time: the passes of a staged loop run the loops inside it as they are).
   */
  public static double[][] laneScratch(int arrays, int length) {
    double[][] scratch = LANE_SCRATCH.get();
    if (scratch.length < arrays) {
      scratch = java.util.Arrays.copyOf(scratch, arrays);
      LANE_SCRATCH.set(scratch);
    }
    for (int k = 0; k < arrays; k++) {
      if (scratch[k] == null || scratch[k].length < length) {
        scratch[k] = new double[Math.max(length, InnerLoopStages.CHUNK)];
      }
    }
    return scratch;
  }

  /**
   * The calling thread's workspace for {@code region}, the staged code of a region of a staged
   * inner loop ({@link InnerLoopStages.Region}): made by its {@link KernelThreads#newWorkspace} on
   * first use and reused by every later call on the thread.
   */
  public static Object workspace(KernelThreads region) {
    return WORKSPACES.get().computeIfAbsent(region, KernelThreads::newWorkspace);
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 32 bits. */
  public static int power(int base, int exponent) {
    return (int) ScalarOperations.wrappingPower(base, exponent);
  }

  /** {@code base} to the non-negative {@code exponent}, wrapping around at 64 bits. */
  public static long power(long base, long exponent) {
    return ScalarOperations.wrappingPower(base, exponent);
  }
}
