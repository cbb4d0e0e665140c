package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_IDX;
import static dev.l0.kernels.lower.KernelExprs.GRID_DIM;
import static dev.l0.kernels.lower.KernelExprs.THREAD_IDX;
import static dev.l0.kernels.lower.KernelExprs.eq;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.opt.ir.Exp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A block per row for a top-level map whose rows run maps of their own (FinPar's OptionPricing: a
 * chunk's paths; LocVolCalib: a strike's grid rows), for outer sizes too small to fill a GPU with a
 * thread per row: the inner parallelism the thread per row runs sequentially, as Futhark's
 * incremental flattening gives a kernel's inner maps a workgroup (T. Henriksen et al.,
 * <i>Incremental Flattening for Nested Data Parallelism</i>, PPoPP 2019). The block's threads run
 * the row's own code alike (its scalars, loops, branches and reductions: every thread computes the
 * same values from the same data, so their trip counts and branches agree, and every thread meets
 * every barrier), and every map at the row's level runs its rows strided over the threads ({@code
 * for (j = threadIdx.x; j < n; j += blockDim.x)}), between two barriers: none of its rows starts
 * before the row's code before it has written what it reads, and the code after it reads its
 * results only once every thread has written its rows. Maps inside those rows, and everything else,
 * stay sequential in the thread that runs the row.
 *
 * <p>The arrays made at the row's level are the block's ({@link ThreadScratch#perBlock}), and
 * arrays made inside a strided row are the thread's. Code the threads run alike may not store to
 * the block's arrays alike: a thread ahead of the others would overwrite what another has still to
 * read (an in-place update reads the value it replaces). So a copy into the block's arrays strides
 * its rows over the threads between barriers, as a map does ({@link ThreadCode#copyElements}), and
 * every other store at the row's level ({@link #storesByOneThread}) is made by thread 0 alone,
 * between two barriers; a statement that stores and sets no value declared outside it (an in-place
 * update in a sequential loop) runs whole in thread 0 between two barriers. Where only the rows
 * know the shapes of a map's results, each thread notes its own rows' shapes and the block agrees
 * on thread 0's through shared memory ({@code ThreadCode.agreeOnShapes}).
 *
 * <p>Only rows that run a sequential loop of their own (OptionPricing's Sobol recurrence and sums,
 * LocVolCalib's time steps) run by block: they are long serial work in a thread per row, whose
 * arrays live in its scratch. A row that is one pass over its elements keeps the thread per row,
 * which reads its rows from a transposed copy where that coalesces ({@link UncoalescedReads}; a
 * kernel that also reads an input by block keeps reading it as it is).
 *
 * <p>Every element is computed by the same operations in the same order as by the thread per row,
 * and sequential reductions keep their order, so the results are the thread per row's bit for bit.
 * Only where the configuration has a threshold for it ({@link LaunchConfiguration#blockRowsBelow}:
 * a GPU's; the JVM's has none), and only for rows whose results have sizes the host knows and whose
 * maps' rows set nothing outside their own code; else the map keeps only the thread per row.
 */
final class BlockRows {
  private final KernelExpr.Var rows;
  private final List<KernelStmt> code;
  private final ThreadScratch threads;
  private final ThreadScratch blocks;

  private BlockRows(
      KernelExpr.Var rows, List<KernelStmt> code, ThreadScratch threads, ThreadScratch blocks) {
    this.rows = rows;
    this.code = code;
    this.threads = threads;
    this.blocks = blocks;
  }

  /**
   * The block-per-row form of {@code map}: block {@code b} runs rows {@code b, b + gridDim, ...}
   * below the host scalar {@link #rows} and writes row {@code r}'s results into row {@code r} of
   * {@code targets}; empty where the rows run no loop or no map of their own, or cannot run by
   * block.
   */
  static Optional<BlockRows> of(GroupContext group, Exp.Screma map, List<ArrayView> targets) {
    if (map.function().body().stms().stream().noneMatch(s -> s.exp() instanceof Exp.Loop)) {
      return Optional.empty();
    }
    KernelExpr.Var rows = group.fresh("block_rows", ScalarType.I64);
    ThreadCode code = new ThreadCode(group);
    ThreadScratch threads = code.beginKernel();
    ThreadScratch blocks = code.beginBlockRow();
    KernelExpr.Var row = group.fresh("row", ScalarType.I64);
    List<KernelStmt> body = new ArrayList<>();
    try {
      code.apply(
          map.function(),
          map.inputs().stream().map(in -> ThreadCode.row(code.array(in), row)).toList(),
          targets.stream()
              .map(t -> (Destination) new Destination.ToMemory(t.rowInBounds(row)))
              .toList(),
          body);
    } catch (UnsupportedKernelException notByBlock) {
      return Optional.empty();
    }
    if (!code.stridesAMap()) {
      return Optional.empty();
    }
    // the next row's code overwrites the block's arrays only once every thread is done with them
    body.add(new KernelStmt.Barrier());
    List<KernelStmt> rowCode = storesByOneThread(body, code.stridedLoops());
    return Optional.of(
        new BlockRows(
            rows,
            List.of(new KernelStmt.For(row, BLOCK_IDX, rows, GRID_DIM, rowCode)),
            threads,
            blocks));
  }

  /** The host scalar holding the rows the blocks run (0 where the threads run them). */
  KernelExpr.Var rows() {
    return rows;
  }

  /** The block-per-row loop. */
  List<KernelStmt> code() {
    return code;
  }

  /**
   * The host steps that size this form's scratch for a launch on {@code gridSize} blocks, empty
   * where {@code inUse} (a host {@code bool}) is false.
   */
  List<HostStep> sizing(KernelExpr gridSize, KernelExpr inUse) {
    List<HostStep> steps = new ArrayList<>(threads.sizing(gridSize, inUse));
    steps.addAll(blocks.sizing(gridSize, inUse));
    return steps;
  }

  /**
   * {@code code}, at a block's row level, with its stores to memory the block shares made by thread
   * 0 alone between barriers; the loops of {@code strided} (counters) are left as they are.
   */
  static List<KernelStmt> storesByOneThread(List<KernelStmt> code, Set<KernelExpr.Var> strided) {
    List<KernelStmt> out = new ArrayList<>();
    for (KernelStmt s : code) {
      if (s instanceof KernelStmt.Store store && !store.buffer().isThreadPrivate()) {
        byThreadZero(s, out);
      } else if (s instanceof KernelStmt.For f && strided.contains(f.counter())) {
        out.add(s);
      } else if (s instanceof KernelStmt.If
          || s instanceof KernelStmt.For
          || s instanceof KernelStmt.While) {
        if (!runsStrided(s, strided) && storesShared(s) && assignedOutside(List.of(s)).isEmpty()) {
          byThreadZero(s, out);
        } else {
          out.add(s.withParts(e -> e, body -> storesByOneThread(body, strided)));
        }
      } else {
        out.add(s);
      }
    }
    return merged(out);
  }

  private static void byThreadZero(KernelStmt s, List<KernelStmt> out) {
    out.add(new KernelStmt.Barrier());
    out.add(new KernelStmt.If(eq(THREAD_IDX, KernelExprs.ZERO), List.of(s), List.of()));
    out.add(new KernelStmt.Barrier());
  }

  /**
   * {@code code} with a barrier that follows another dropped and thread 0's statements on either
   * side of a barrier joined ({@code if (t0) A; barrier; if (t0) B} is {@code if (t0) {A; B}}: the
   * other threads run nothing in between).
   */
  private static List<KernelStmt> merged(List<KernelStmt> code) {
    List<KernelStmt> out = new ArrayList<>();
    for (KernelStmt s : code) {
      int last = out.size() - 1;
      if (s instanceof KernelStmt.Barrier
          && last >= 0
          && out.get(last) instanceof KernelStmt.Barrier) {
        continue;
      }
      if (byThreadZero(s)
          && last >= 1
          && out.get(last) instanceof KernelStmt.Barrier
          && byThreadZero(out.get(last - 1))) {
        KernelStmt.If earlier = (KernelStmt.If) out.remove(last - 1);
        out.remove(last - 1);
        List<KernelStmt> both = new ArrayList<>(earlier.thenBody());
        both.addAll(((KernelStmt.If) s).thenBody());
        out.add(new KernelStmt.If(earlier.condition(), both, List.of()));
        continue;
      }
      out.add(s);
    }
    return out;
  }

  private static boolean byThreadZero(KernelStmt s) {
    return s instanceof KernelStmt.If i
        && i.elseBody().isEmpty()
        && i.condition().equals(eq(THREAD_IDX, KernelExprs.ZERO));
  }

  private static boolean runsStrided(KernelStmt s, Set<KernelExpr.Var> strided) {
    return KernelStmt.anyIn(
        List.of(s), t -> t instanceof KernelStmt.For f && strided.contains(f.counter()));
  }

  private static boolean storesShared(KernelStmt s) {
    return KernelStmt.anyIn(
        List.of(s), t -> t instanceof KernelStmt.Store store && !store.buffer().isThreadPrivate());
  }

  /** The locals that {@code code} assigns and does not declare. */
  static Set<KernelExpr.Var> assignedOutside(List<KernelStmt> code) {
    Set<KernelExpr.Var> assigned = new LinkedHashSet<>();
    Set<KernelExpr.Var> declared = new HashSet<>();
    collect(code, assigned, declared);
    assigned.removeAll(declared);
    return assigned;
  }

  private static void collect(
      List<KernelStmt> code, Set<KernelExpr.Var> assigned, Set<KernelExpr.Var> declared) {
    for (KernelStmt s : code) {
      if (s instanceof KernelStmt.Declare d) {
        declared.add(d.variable());
      } else if (s instanceof KernelStmt.Assign a) {
        assigned.add(a.variable());
      } else if (s instanceof KernelStmt.For f) {
        declared.add(f.counter());
      }
      s.bodies().forEach(body -> collect(body, assigned, declared));
    }
  }
}
