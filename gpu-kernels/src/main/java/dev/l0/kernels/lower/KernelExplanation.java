package dev.l0.kernels.lower;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.CapacityReruns;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.KernelPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How one kernel of a plan runs on a backend once lowered for that backend's launch configuration,
 * in one line for explain: its skeleton (the launches of its kernel group, named by the lowerings'
 * suffixes), the arrays each thread holds (thread-private memory, in bytes per thread where the
 * sizes are constants; growing ones that a rerun with a larger capacity may need), the arrays a
 * block shares where it runs a row a block ({@link BlockRows}), and how it reads its inputs
 * (coalesced, or through a tiled transpose). For example {@code map: a thread per row
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
    List<HostStep.Allocate> threadArrays = new ArrayList<>();
    List<HostStep.Allocate> blockArrays = new ArrayList<>();
    Map<KernelExpr.Var, KernelExpr> defined = new HashMap<>();
    for (HostStep step : group.steps()) {
      if (step instanceof HostStep.Launch launch) {
        launches.add(launch.kernel().name() + " (" + skeleton(launch.kernel().name()) + ")");
      } else if (step instanceof HostStep.Define define) {
        defined.put(define.variable(), define.value());
      } else if (step instanceof HostStep.Allocate allocate
          && allocate.buffer().isThreadPrivate()) {
        threadArrays.add(allocate);
      } else if (step instanceof HostStep.Allocate allocate
          && ThreadScratch.isBlockScratch(allocate.buffer())) {
        blockArrays.add(allocate);
      }
    }
    // a block's scratch is allocated as its per-block stride times the blocks
    String perBlock =
        blockArrays.isEmpty()
            ? ""
            : "; per-block arrays: "
                + arrays(
                    blockArrays.stream()
                        .map(
                            a ->
                                new HostStep.Allocate(
                                    a.buffer(),
                                    defined.getOrDefault(strideOf(a.elements()), KernelExprs.ZERO)))
                        .toList());
    return kernel.kind()
        + ": "
        + String.join(", then ", launches)
        + "; per-thread arrays: "
        + arrays(threadArrays)
        + perBlock
        + growing(group)
        + "; reads: "
        + reads(plan, kernel, configuration, group);
  }

  /**
   * The arrays {@code allocations} size, in bytes where their sizes are constants; an allocation
   * made only where the launch runs a kernel's other form ({@code inUse ? elements : 0}) counts its
   * {@code elements}.
   */
  private static String arrays(List<HostStep.Allocate> allocations) {
    if (allocations.isEmpty()) {
      return "none";
    }
    List<String> arrays = new ArrayList<>();
    long bytes = 0;
    boolean allConstant = true;
    for (HostStep.Allocate allocate : allocations) {
      KernelExpr size = allocate.elements();
      if (size instanceof KernelExpr.Select select && select.ifFalse().equals(KernelExprs.ZERO)) {
        size = select.ifTrue();
      }
      String type = allocate.buffer().elementType().keyword();
      Optional<Long> elements = constant(size);
      if (elements.isPresent()) {
        bytes += elements.get() * allocate.buffer().elementType().bytes();
        arrays.add(elements.get() + " " + type);
      } else {
        allConstant = false;
        arrays.add(type + " sized from the inputs at launch");
      }
    }
    return (allConstant ? bytes + " bytes (" : "(") + String.join(", ", arrays) + ")";
  }

  /** The stride of a block's scratch allocation, {@code [inUse ?] stride * blocks [: 0]}. */
  private static KernelExpr strideOf(KernelExpr elements) {
    KernelExpr size = elements instanceof KernelExpr.Select select ? select.ifTrue() : elements;
    return size instanceof KernelExpr.Binary product ? product.left() : size;
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
