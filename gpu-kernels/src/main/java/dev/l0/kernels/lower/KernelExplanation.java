package dev.l0.kernels.lower;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.KernelPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How one kernel of a plan runs on a backend once lowered for that backend's launch configuration,
 * in one line for explain: its skeleton (the launches of its kernel group, named by the lowerings'
 * suffixes), the arrays each thread holds (thread-private memory, in bytes per thread where the
 * sizes are constants; growing ones that a rerun with a larger capacity may need), and how it reads
 * its inputs (coalesced, or through a tiled transpose). For example {@code map: a thread per row
 * [main_res_map]; per-thread arrays: 2048 bytes (256 f64); reads: coalesced}.
 */
public final class KernelExplanation {
  /**
   * What each kernel of a group does, by the suffix its lowering gives it; longest suffixes first.
   */
  private static final Map<String, String> SKELETONS = skeletons();

  private KernelExplanation() {}

  private static Map<String, String> skeletons() {
    Map<String, String> skeletons = new LinkedHashMap<>();
    skeletons.put("_column_partials", "map of reduces: a thread per chunk and column of the rows");
    skeletons.put("_column_tree", "pairwise tree of the column partials, a thread per column");
    skeletons.put("_array_partials", "array accumulators per thread, folded over chunks");
    skeletons.put("_array_tree", "pairwise tree of the array partials");
    skeletons.put("_array_totals", "array accumulators per chunk");
    skeletons.put("_array_carries", "carries of the array totals");
    skeletons.put("_array_rescan", "chunks rescanned from their array carries");
    skeletons.put("_transpose", "tiled shared-memory transpose of an input");
    skeletons.put("_compact", "rows compacted to the sizes the first row took");
    skeletons.put("_zero_row", "sizes of rows over no rows, from the function on a zero row");
    skeletons.put("_fold_map", "the fold's work on each row, a thread per row");
    skeletons.put(
        "_fold_rows",
        "the fold's work on each row, a thread per row, or a block per row where the rows are"
            + " few");
    skeletons.put("_map", "a thread per row");
    skeletons.put("_rows", "a thread per row, or a block per row where the rows are few");
    skeletons.put("_chunks", "a thread per chunk of the reduction order");
    skeletons.put("_tree", "pairwise tree of the chunk partials");
    skeletons.put("_totals", "chunk totals");
    skeletons.put("_carries", "carries of the chunk totals");
    skeletons.put("_rescan", "chunks rescanned from their carries");
    skeletons.put("_count", "kept rows counted per chunk");
    skeletons.put("_offsets", "offsets of the chunks' kept rows");
    skeletons.put("_scatter", "kept rows written from their offsets");
    return skeletons;
  }

  /** The line for {@code kernel} of {@code plan} lowered for {@code configuration}. */
  public static String explain(
      KernelPlan plan, KernelPlan.Kernel kernel, LaunchConfiguration configuration) {
    KernelGroup group = KernelLowering.lower(plan, kernel, configuration);
    List<String> launches = new ArrayList<>();
    List<String> threadArrays = new ArrayList<>();
    long threadBytes = 0;
    for (HostStep step : group.steps()) {
      if (step instanceof HostStep.Launch launch) {
        launches.add(launch.kernel().name() + " (" + skeleton(launch.kernel().name()) + ")");
      } else if (step instanceof HostStep.Allocate allocate
          && allocate.buffer().isThreadPrivate()) {
        int size = allocate.buffer().elementType().bytes();
        Optional<Long> elements = constant(allocate.elements());
        if (elements.isPresent()) {
          threadBytes += elements.get() * size;
          threadArrays.add(elements.get() + " " + allocate.buffer().elementType().keyword());
        } else {
          threadArrays.add(
              allocate.buffer().elementType().keyword() + " sized from the inputs at launch");
        }
      }
    }
    String scratch =
        threadArrays.isEmpty()
            ? "none"
            : (threadArrays.stream().allMatch(a -> !a.contains("sized"))
                    ? threadBytes + " bytes ("
                    : "(")
                + String.join(", ", threadArrays)
                + ")";
    return kernel.kind()
        + ": "
        + String.join(", then ", launches)
        + "; per-thread arrays: "
        + scratch
        + growing(group)
        + "; reads: "
        + reads(plan, kernel, configuration, group);
  }

  /**
   * Whether a thread grows an array without a host bound (its capacity is defined from {@link
   * KernelGroup#CAPACITY_SCALE}): its first capacity and how it grows ({@link CapacityReruns}).
   */
  private static String growing(KernelGroup group) {
    boolean scaled =
        group.steps().stream()
            .anyMatch(
                s ->
                    s instanceof HostStep.Define d
                        && ThreadCode.mentions(d.value(), KernelGroup.CAPACITY_SCALE));
    return !scaled
        ? ""
        : ", growing ones with a first capacity of their initial rows plus about "
            + CapacityReruns.FIRST_ROWS
            + ", rerun with "
            + CapacityReruns.GROWTH
            + "x the capacity when a thread outgrows it (at most "
            + CapacityReruns.MOST_RERUNS
            + " reruns)";
  }

  /**
   * What the kernel named {@code kernelName} does, by its suffix (a fresh name's trailing {@code
   * _N} aside).
   */
  private static String skeleton(String kernelName) {
    String base = kernelName.replaceFirst("_\\d+$", "");
    return SKELETONS.entrySet().stream()
        .filter(e -> base.endsWith(e.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(
            () -> new IllegalStateException("a kernel the lowering does not name: " + kernelName));
  }

  /** Coalesced, or through transposed copies of the inputs a thread would read along its row. */
  private static String reads(
      KernelPlan plan,
      KernelPlan.Kernel kernel,
      LaunchConfiguration configuration,
      KernelGroup group) {
    if (!configuration.transposeRowReads()) {
      return "each thread reads its rows in order";
    }
    Set<String> transposed =
        UncoalescedReads.toTranspose(
            KernelLowering.lowerReading(plan, kernel, configuration, Set.of()));
    return transposed.isEmpty()
        ? "coalesced"
        : "coalesced through a tiled transpose of " + String.join(", ", transposed);
  }

  /** The value of an {@code i64} host expression of constants, sums and products, if it is one. */
  private static Optional<Long> constant(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c && c.value() instanceof ScalarValue.Int i) {
      return Optional.of(i.value());
    }
    if (e instanceof KernelExpr.Binary b
        && (b.op() == BinaryOperator.ADD || b.op() == BinaryOperator.MUL)) {
      Optional<Long> left = constant(b.left());
      Optional<Long> right = constant(b.right());
      if (left.isPresent() && right.isPresent()) {
        return Optional.of(
            b.op() == BinaryOperator.ADD ? left.get() + right.get() : left.get() * right.get());
      }
    }
    return Optional.empty();
  }
}
