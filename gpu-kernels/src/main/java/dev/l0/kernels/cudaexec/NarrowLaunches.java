package dev.l0.kernels.cudaexec;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.Type;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.ir.Traversal;
import java.util.function.Supplier;

/**
 * The launches that the CUDA executor gives to the JVM backend because they are too narrow for the
 * GPU: those with fewer parallel rows than {@code l0.cuda.minRows} (a system property, default
 * {@value #DEFAULT_MIN_ROWS}: four blocks of {@link CudaKernelExecutor#DEFAULT_BLOCK_SIZE} threads;
 * 0 keeps every launch on the GPU) whose rows do work that grows with sizes: a loop, a SOAC, a call
 * or an array ({@link #rowsGrowWithSizes}). Such a launch keeps a few of the GPU's multiprocessors
 * busy with a thread per row, each running its row's whole work, which the host's cores do faster.
 * On an H200 (bench/README.md, 2026-11-26 and 27), against the JVM backend on 2 cores of the
 * development VM: LocVolCalib small, 16 rows, 12.4 s of kernel time against 0.77 s; 256 rows,
 * LocVolCalib large 41.1 s against 25-28 s and OptionPricing large (256 chunks) 2.1-2.6 s against
 * 1.8-2.7 s; but 2,048 rows, OptionPricing medium's chunks, 0.028 s against 0.25-0.33 s. A narrow
 * launch whose group runs few rows a block each stays on the GPU ({@link
 * KernelLowering#runsFewRowsByBlock}: a block of threads shares each row's work, as LocVolCalib's
 * grid rows of a strike and OptionPricing's paths of a chunk). A narrow launch of straight-line
 * arithmetic stays on the GPU: its rows take microseconds either way, and a program whose every
 * other launch is wide would otherwise start the JVM backend (Janino, the vector classes) for it
 * alone, which its first run pays (OptionPricing's last map, one row per model: 0.127 s of kernel
 * time on small against 0.012 s all on the GPU, H200, 2026-11-27). Both backends lower the same way
 * and reduce in the same order, so the results do not depend on where a launch ran.
 *
 * <p>A launch's parallel rows, known when it starts: a map's or filter's rows (its outer size, a
 * thread each), a reduction's rows where its group runs the fold's work a thread per row first
 * ({@link KernelLowering#runsAThreadPerRow}), and any other reduction's or scan's chunks of the
 * reduction order ({@link ReductionOrder#chunkCount}), a thread each. (A SOAC without an array
 * input, which the optimiser does not make, would count as wide.)
 *
 * <p>A launch that stays on the GPU with fewer parallel rows than the device's multiprocessors hold
 * in blocks of the executor's size, and that runs its rows a thread each ({@link
 * #runsAThreadPerRow}), runs in smaller blocks ({@link #blockSize}), so that its rows spread over
 * every multiprocessor instead of filling a few: OptionPricing large's 4,096 rows, in blocks of
 * 256, kept 16 of an H200's 132 multiprocessors busy. A group that shares work among a block's
 * threads (segmented rows, tiled transposes of its inputs: their block size is their parallelism)
 * or whose threads are a reduction's chunks keeps the executor's block size. Every kernel is
 * correct for every block size and the reduction order does not depend on it ({@link
 * dev.l0.kernels.lower.LaunchConfiguration}), so the results do not change.
 */
final class NarrowLaunches {
  /** The system property of the fewest parallel rows a launch runs on the GPU with. */
  static final String PROPERTY = "l0.cuda.minRows";

  static final int DEFAULT_MIN_ROWS = 4 * CudaKernelExecutor.DEFAULT_BLOCK_SIZE;

  /** The threads of a warp, the fewest a block should have. */
  static final int WARP = 32;

  private NarrowLaunches() {}

  /** The fewest parallel rows a launch runs on the GPU with: {@link #PROPERTY}, validated. */
  static int minRows() {
    return L0ConfigurationError.intProperty(
        PROPERTY, DEFAULT_MIN_ROWS, 0, "the fewest parallel rows a launch runs on the GPU with");
  }

  /**
   * The threads per block for a launch of {@code rows} parallel rows on a device of {@code
   * multiprocessors}: the smallest power of two, at least a warp, that puts every row in a block of
   * its own multiprocessor's share ({@code rows / multiprocessors}, rounded up), and at most {@code
   * widest}, the executor's block size (also where {@code widest} is under a warp).
   */
  static int blockSize(long rows, int multiprocessors, int widest) {
    long perMultiprocessor = rows / multiprocessors + (rows % multiprocessors == 0 ? 0 : 1);
    int size = Math.min(WARP, widest);
    while (size < widest && size < perMultiprocessor) {
      size *= 2;
    }
    return size;
  }

  /**
   * The threads per block for the launch of {@code kernel}, lowered as {@code group}, over the
   * values of {@code environment} on a device of {@code multiprocessors} whose executor launches
   * blocks of {@code widest}: {@link #blockSize(long, int, int)} of its parallel rows where it runs
   * its rows a thread each ({@link #runsAThreadPerRow}), else {@code widest}.
   */
  static int blockSize(
      KernelPlan.Kernel kernel,
      KernelGroup group,
      HostEnvironment environment,
      int multiprocessors,
      int widest) {
    return runsAThreadPerRow(kernel, group)
        ? blockSize(parallelRows(kernel, group, environment), multiprocessors, widest)
        : widest;
  }

  /**
   * Whether {@code group}, the lowering of {@code kernel}, runs its rows a thread each: a map, or a
   * reduction whose fold's work runs a thread per row first ({@link
   * KernelLowering#runsAThreadPerRow}), where no kernel shares its work among a block's threads
   * ({@link KernelLowering#sharesWorkWithinBlocks}: segmented rows, transposed inputs).
   */
  static boolean runsAThreadPerRow(KernelPlan.Kernel kernel, KernelGroup group) {
    boolean perRow = kernel.kind() == KernelKind.MAP || KernelLowering.runsAThreadPerRow(group);
    return perRow && !KernelLowering.sharesWorkWithinBlocks(group);
  }

  /**
   * The parallel rows of the launch of {@code kernel}, lowered as {@code group}, over the values of
   * {@code environment}.
   */
  static long parallelRows(
      KernelPlan.Kernel kernel, KernelGroup group, HostEnvironment environment) {
    if (kernel.inputs().isEmpty() || !(kernel.inputs().get(0) instanceof SubExp.Var outer)) {
      return Long.MAX_VALUE;
    }
    long rows = environment.size(outer.name(), 0);
    return switch (kernel.kind()) {
      case MAP, FILTER, FILTERMAP -> rows;
      case REDUCE, REDOMAP, SCREMA, SCAN, SCANOMAP ->
          KernelLowering.runsAThreadPerRow(group) ? rows : ReductionOrder.chunkCount(rows);
    };
  }

  /**
   * Whether a row of {@code kernel} does work that grows with sizes: runs a loop, a SOAC or a call
   * ({@link Analysis#runsLoops}), or binds an array ({@code replicate}, {@code iota}, a copy, a
   * slice), in one of its functions.
   */
  static boolean rowsGrowWithSizes(KernelPlan.Kernel kernel) {
    return ((Exp.Soac) kernel.statement().exp())
        .lambdas().stream()
            .map(Lambda::body)
            .anyMatch(body -> Analysis.runsLoops(body) || bindsArrays(body));
  }

  private static boolean bindsArrays(Body body) {
    return Traversal.statements(body).stream()
        .flatMap(stm -> stm.pattern().stream())
        .anyMatch(id -> id.type() instanceof Type.Array);
  }

  /**
   * {@code kernel}, lowered as {@code group}, run by {@code onGpu}, except for launches of fewer
   * than {@code minRows} parallel rows whose rows grow with sizes ({@link #rowsGrowWithSizes}),
   * which {@code onJvm} (made at the first such launch) runs, each counted in the call's meter.
   */
  static PreparedKernel placed(
      KernelPlan.Kernel kernel,
      KernelGroup group,
      int minRows,
      PreparedKernel onGpu,
      Supplier<PreparedKernel> onJvm) {
    if (minRows == 0 || !rowsGrowWithSizes(kernel) || KernelLowering.runsFewRowsByBlock(group)) {
      return onGpu;
    }
    return environment -> {
      if (parallelRows(kernel, group, environment) >= minRows) {
        return onGpu.run(environment);
      }
      environment.meter().addLaunchPlacedOnJvm();
      return onJvm.get().run(environment);
    };
  }
}
