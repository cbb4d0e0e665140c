package dev.l0.kernels.lower;

/**
 * What the lowering needs to know of the device it lowers for: the most blocks a grid-stride kernel
 * launches ({@code maxBlocks}, the blocks the device keeps resident at once), the outer size below
 * which a map whose body is one integer or boolean reduction or scan over a row runs a block per
 * row instead of a thread per row ({@code segmentedRowsBelow}, see {@link SegmentedRows}; a map
 * whose rows run loops and maps of their own has its own threshold, {@code blockRowsBelow}, see
 * {@link BlockRows}), and whether inputs that threads read along rows are read from a transposed
 * copy ({@code transposeRowReads}, see {@link UncoalescedReads}: on a GPU; a CPU core reads along
 * its row best as it is), and whether a map inside a thread whose function runs a sequential loop
 * runs two rows at a time, their loops interleaved ({@code interleaveRows}, see {@link
 * InterleavedRows}: on a CPU, whose cores overlap two rows' dependence chains; a GPU's thread hides
 * latency with other threads), and whether a reduction whose fold runs a loop or a nested SOAC on
 * each row first computes those rows in a map of their own ({@code splitHeavyFolds}, see {@link
 * FoldFission}: on a GPU, whose threads would otherwise be the reduction order's chunks, sixteen
 * rows each; a CPU has fewer cores than chunks). The block size stays the executor's choice: every
 * kernel is correct for every block size.
 *
 * <p>{@link #forDevice} derives the thresholds from a device's multiprocessor count ({@code
 * CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}) and the blocks one multiprocessor holds: {@code
 * maxBlocks = multiprocessors * blocksPerMultiprocessor}, and a block per row while the rows do not
 * give every resident block two rows, {@code segmentedRowsBelow = 2 * maxBlocks}; {@code
 * blockRowsBelow} is {@link #fourRowsPerResidentBlock}. {@link #DEFAULT}, for lowering without a
 * device, is a 64-multiprocessor device holding 16 blocks on each: 1024 blocks, a block per row
 * below 2048 rows (4096 for rows that run loops).
 */
public record LaunchConfiguration(
    long maxBlocks,
    long segmentedRowsBelow,
    long blockRowsBelow,
    boolean transposeRowReads,
    boolean interleaveRows,
    boolean splitHeavyFolds) {
  /** The configuration of a typical device: 64 multiprocessors of 16 resident blocks. */
  public static final LaunchConfiguration DEFAULT = forDevice(64, 16);

  /**
   * A thread per row (a map's grid has a block for every row, as many blocks as an {@code int}
   * counts), never a block per row, and no transposed copies of inputs read along rows (a CPU core
   * reads its row's elements in order best); maps inside a thread that run sequential loops run two
   * rows at a time; a reduction's fold stays whole (the reduction order's chunks outnumber a CPU's
   * cores). The JVM backend's configuration. Each thread runs one row (or one chunk of a
   * reduction's rows, in order), so threads run one after another raise the first failing row's
   * error first, as the interpreter does: the simulator reruns a launch that raised an error under
   * it.
   */
  public static final LaunchConfiguration THREAD_PER_ROW =
      new LaunchConfiguration(Integer.MAX_VALUE, 0, 0, false, true, false);

  /**
   * A GPU's configuration: inputs read along rows per thread are read from a transposed copy, and
   * heavy folds are split off their reductions; rows that run loops run a block each below {@link
   * #fourRowsPerResidentBlock}.
   */
  public LaunchConfiguration(long maxBlocks, long segmentedRowsBelow) {
    this(
        maxBlocks,
        segmentedRowsBelow,
        fourRowsPerResidentBlock(maxBlocks, segmentedRowsBelow),
        true,
        false,
        true);
  }

  public LaunchConfiguration {
    if (maxBlocks < 1) {
      throw new IllegalArgumentException("a launch needs at least one block, not " + maxBlocks);
    }
    if (segmentedRowsBelow < 0) {
      throw new IllegalArgumentException(
          "the segmented threshold must not be negative, not " + segmentedRowsBelow);
    }
    if (blockRowsBelow < 0) {
      throw new IllegalArgumentException(
          "the block-rows threshold must not be negative, not " + blockRowsBelow);
    }
  }

  /**
   * The default outer size below which a map whose rows run a loop and maps of their own runs a
   * block per row ({@link BlockRows}): below four rows per resident block, where a thread per row
   * would leave all but a few of each multiprocessor's threads idle while each runs a whole row's
   * loop (OptionPricing large's 4,096 chunks of paths on an H200's 1,056 resident blocks of 256);
   * at least {@code segmentedRowsBelow}, and 0 (never) where that is 0. It counts blocks by their
   * threads, not their registers: a block whose threads take 255 registers each holds a whole
   * multiprocessor, so a device may keep fewer resident than {@code maxBlocks} says ({@code
   * l0.cuda.blockRowsBelow} sets the threshold on CUDA).
   */
  public static long fourRowsPerResidentBlock(long maxBlocks, long segmentedRowsBelow) {
    if (segmentedRowsBelow == 0) {
      return 0;
    }
    long fourPerBlock = maxBlocks > Long.MAX_VALUE / 4 ? Long.MAX_VALUE : 4 * maxBlocks;
    return Math.max(segmentedRowsBelow, fourPerBlock);
  }

  /**
   * The configuration of a device with {@code multiprocessors}, each holding {@code
   * blocksPerMultiprocessor} blocks.
   */
  public static LaunchConfiguration forDevice(int multiprocessors, int blocksPerMultiprocessor) {
    if (multiprocessors < 1 || blocksPerMultiprocessor < 1) {
      throw new IllegalArgumentException(
          "a device has at least one multiprocessor holding at least one block, not "
              + multiprocessors
              + " holding "
              + blocksPerMultiprocessor);
    }
    long resident = (long) multiprocessors * blocksPerMultiprocessor;
    return new LaunchConfiguration(resident, 2 * resident);
  }

  /**
   * This configuration with a block per row below {@code rows} rows (0: never, {@code
   * Long.MAX_VALUE}: always), rows that run loops too ({@link #fourRowsPerResidentBlock} of it).
   */
  public LaunchConfiguration withSegmentedRowsBelow(long rows) {
    return new LaunchConfiguration(
        maxBlocks,
        rows,
        fourRowsPerResidentBlock(maxBlocks, rows),
        transposeRowReads,
        interleaveRows,
        splitHeavyFolds);
  }

  /**
   * This configuration with a block per row for rows that run loops and maps of their own below
   * {@code rows} rows (0: never, {@code Long.MAX_VALUE}: always).
   */
  public LaunchConfiguration withBlockRowsBelow(long rows) {
    return new LaunchConfiguration(
        maxBlocks, segmentedRowsBelow, rows, transposeRowReads, interleaveRows, splitHeavyFolds);
  }
}
