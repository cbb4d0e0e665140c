package dev.l0.kernels.lower;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import java.util.List;
import java.util.Set;

/**
 * Lowers one kernel of the optimiser's {@link KernelPlan} (a top-level SOAC, thesis ch. 7's fused
 * form) to a {@link KernelGroup}: map, redomap and reduce (and a screma that also yields each row's
 * values), scan and scanomap, filter and filtermap; on a GPU a redomap whose fold does a row's work
 * apart from its accumulators as that map and then the rest ({@link FoldFission}). What it cannot
 * lower it rejects with an {@link UnsupportedKernelException} naming the construct and the nearest
 * source position, never miscompiles.
 */
public final class KernelLowering {
  /** What the name of a map's kernel ends with where it may run a block per row. */
  static final String SEGMENTED_KERNEL = "_rows";

  /** What the name of a kernel ends with that copies an input transposed, a tile per block. */
  static final String TRANSPOSE_KERNEL = "_transpose";

  private KernelLowering() {}

  /**
   * {@code kernel} in the program's terms, for messages: its SOAC as written, where, and in which
   * function, e.g. {@code the reduce at 3:5 in main} (never the optimiser's names), and the other
   * SOACs fused into it, e.g. {@code the map at 2:4 in main (fused with the map at 3:4)}: what a
   * backend rejects may be in any of them.
   */
  public static String asWritten(KernelPlan.Kernel kernel) {
    Exp.Soac soac = (Exp.Soac) kernel.statement().exp();
    return SourcePositions.asWritten(soac)
        + " in "
        + kernel.function()
        + SourcePositions.fusedWith(soac).map(others -> " (fused with " + others + ")").orElse("");
  }

  /**
   * Where {@code kernel}'s SOAC is in the program, for its errors: its keyword, or (a filter) its
   * first code ({@link SourcePositions#ofSoac}).
   */
  public static SourcePos position(KernelPlan.Kernel kernel) {
    return SourcePositions.ofSoac((Exp.Soac) kernel.statement().exp());
  }

  /**
   * The compile error of a program whose {@code kernel} the {@code backend} rejected: at the
   * rejected construct (at the kernel's SOAC where the rejection has no position, as one of the
   * Java the JVM backend generated), naming the kernel as written and the construct, e.g. {@code
   * cannot lower the map at 3:3 in main to kernels for the jvm backend: a call of 'fib' inside a
   * kernel, ...}.
   */
  public static L0CompileError notLowered(
      KernelPlan.Kernel kernel, String backend, UnsupportedKernelException rejected) {
    return new L0CompileError(
        rejected.near(position(kernel)).pos(),
        "cannot lower "
            + asWritten(kernel)
            + " to kernels for the "
            + backend
            + " backend: "
            + rejected.construct());
  }

  /**
   * {@link #lower(KernelPlan, KernelPlan.Kernel, LaunchConfiguration)} for the default
   * configuration.
   */
  public static KernelGroup lower(KernelPlan plan, KernelPlan.Kernel kernel) {
    return lower(plan, kernel, LaunchConfiguration.DEFAULT);
  }

  /**
   * The kernel group of {@code kernel}, with grid sizes and the choice of segmented reductions from
   * {@code configuration}. Where its kernels would read an input along rows, a row per thread
   * ({@link UncoalescedReads}), and the configuration asks for it, it is lowered again reading a
   * copy of that input with the row index innermost, which a {@link TiledTranspose} launched first
   * makes.
   */
  public static KernelGroup lower(
      KernelPlan plan, KernelPlan.Kernel kernel, LaunchConfiguration configuration) {
    KernelGroup direct = lowerReading(plan, kernel, configuration, Set.of());
    Set<String> uncoalesced =
        configuration.transposeRowReads() ? UncoalescedReads.toTranspose(direct) : Set.of();
    return uncoalesced.isEmpty() ? direct : lowerReading(plan, kernel, configuration, uncoalesced);
  }

  /**
   * {@link #lower(KernelPlan, KernelPlan.Kernel, LaunchConfiguration)} of {@code kernel} in the
   * plan of its own function of {@code program}: what an executor runs when the host runner reaches
   * the kernel, in whichever function (an entry or a function it calls outside a kernel).
   */
  public static KernelGroup lowerIn(
      InternalProgram program, KernelPlan.Kernel kernel, LaunchConfiguration configuration) {
    return lower(KernelPlan.of(program, List.of(kernel.function())), kernel, configuration);
  }

  /**
   * The kernel group of {@code kernel}, whose kernels read the inputs named in {@code
   * readTransposed} from transposed copies.
   */
  static KernelGroup lowerReading(
      KernelPlan plan,
      KernelPlan.Kernel kernel,
      LaunchConfiguration configuration,
      Set<String> readTransposed) {
    InternalFunction function =
        plan.entries().stream()
            .filter(f -> f.name().equals(kernel.function()))
            .findFirst()
            .orElseThrow(
                () ->
                    new UnsupportedKernelException(
                        "a kernel outside the plan's entry functions: " + kernel.function()));
    Exp.Soac soac = (Exp.Soac) kernel.statement().exp();
    if (soac.inputs().isEmpty()) {
      throw new UnsupportedKernelException("a " + SourcePositions.l0Name(soac) + " without inputs");
    }
    try {
      GroupContext group =
          new GroupContext(function, soac, readTransposed, configuration.interleaveRows());
      KernelGroup lowered =
          lowerSoac(group, kernel.function(), kernel.statement().pattern(), soac, configuration);
      return TiledTranspose.runFirst(group, lowered, configuration);
    } catch (UnsupportedKernelException rejected) {
      // The SOAC's own position before the first one inside it: a fused SOAC holds the code of
      // other calls (an inlined function's), whose positions say nothing about the rejection.
      throw rejected.near(SourcePositions.ofSoac(soac));
    }
  }

  /**
   * Whether {@code group}, a reduction's, runs a thread per row before it reduces ({@link
   * FoldFission}), rather than a thread per chunk of the reduction order.
   */
  public static boolean runsAThreadPerRow(KernelGroup group) {
    return FoldFission.split(group);
  }

  /**
   * Whether a kernel of {@code group} runs a block per row where the rows are few: a reduction or
   * scan of each row ({@link SegmentedRows}), or rows that run maps of their own ({@link
   * BlockRows}), so that a launch of few rows still has many threads.
   */
  public static boolean runsFewRowsByBlock(KernelGroup group) {
    return group.kernels().stream()
        .anyMatch(kernel -> kernel.name().replaceFirst("_\\d+$", "").endsWith(SEGMENTED_KERNEL));
  }

  /**
   * Whether a kernel of {@code group} shares its work among a block's threads: one that may run a
   * block per row where the rows are few ({@link #runsFewRowsByBlock}), or a tiled transpose of an
   * input ({@link TiledTranspose}), so that its block size, not its rows, is its parallelism.
   */
  public static boolean sharesWorkWithinBlocks(KernelGroup group) {
    return group.kernels().stream()
        .map(kernel -> kernel.name().replaceFirst("_\\d+$", ""))
        .anyMatch(name -> name.endsWith(SEGMENTED_KERNEL) || name.endsWith(TRANSPOSE_KERNEL));
  }

  private static KernelGroup lowerSoac(
      GroupContext group,
      String function,
      List<Ident> pattern,
      Exp.Soac soac,
      LaunchConfiguration configuration) {
    // a map whose function returns no values (only its failures matter) binds no name
    String name =
        group.freshName(
            function + "_" + (pattern.isEmpty() ? soac.keyword() : pattern.get(0).name()));
    if (soac instanceof Exp.Screma map && map.isMap()) {
      return MapLowering.lower(group, name, pattern, map, configuration);
    }
    if (soac instanceof Exp.Screma s && !s.scans()) {
      return FoldFission.lower(group, name, pattern, s, configuration)
          .orElseGet(() -> ReductionLowering.lower(group, name, pattern, s, configuration));
    }
    if (soac instanceof Exp.Screma s) {
      return ScanLowering.lower(
          group, name, pattern, s.combiner(), s.fold(), s.neutral(), s.inputs());
    }
    return FilterLowering.lower(group, name, pattern, (Exp.FilterMap) soac);
  }
}
