package dev.l0.kernels.jvm;

/**
 * The base class of every kernel {@link JavaKernelIrPrinter} prints: runs the kernel's body for a
 * range of the threads of a launch of one-thread blocks (so a barrier is a no-op and shared arrays
 * are each block's own). {@link JvmGroupRunner} calls it on several workers at once, each with its
 * own range and its own shared and thread-private arrays; instances hold no state.
 */
public abstract class KernelThreads {
  /**
   * Runs blocks {@code [firstBlock, endBlock)} of a launch of {@code gridDim} blocks of one thread.
   *
   * @param memory the kernel's buffers in {@code Kernel#buffers()} order (a thread-private buffer
   *     is the worker's own array, reused by each thread it runs), then its shared arrays in {@code
   *     Kernel#shared()} order: primitive arrays of their element types; last, the worker's {@link
   *     #newWorkspace()}
   * @param scalars the kernel's scalar parameters in {@code Kernel#scalars()} order, boxed
   * @return the code of the first error raised in the range (by the lowest block that raised one),
   *     or 0
   */
  public abstract int run(
      Object[] memory, Object[] scalars, int firstBlock, int endBlock, int gridDim);

  /**
   * Scratch memory for one worker, passed to each of its {@link #run} calls as the last element of
   * {@code memory}: a staged kernel's chunk arrays ({@link StagedMapPrinter}); null for a kernel
   * that needs none. A worker gets one made earlier where a finished launch left one ({@link
   * JvmGroupRunner} keeps them), so the kernel writes each element of it before reading it, as it
   * already must for its second chunk of rows.
   */
  public Object newWorkspace() {
    return null;
  }

  /**
   * The error word after code that raised {@code later} (0 for none) ran where {@code earlier} was
   * already raised: the first error is kept. Generated code calls it after a statement moved into a
   * method of its own.
   */
  public static int firstError(int earlier, int later) {
    return earlier != 0 ? earlier : later;
  }
}
