package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.BLOCK_IDX;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.mul;
import static dev.l0.kernels.lower.KernelExprs.zeroOf;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arrays one kernel's threads make (copies, in-place updates, loop variables, nested map
 * results): a thread-private buffer per element type ({@link Buffer.Space#THREAD_PRIVATE}, each
 * thread's own array, indexed from 0), of which each program point that makes an array owns a fixed
 * part, sized per thread by the host before the launch. Array sizes must therefore be known to the
 * host.
 *
 * <p>A part that does not begin at a constant or at a host scalar of the program begins at a host
 * scalar of its own ({@link #isPartStart}), which no other part and no program value uses; every
 * element index of that part is the sum of that scalar and an offset within the part. So two
 * accesses whose indices have different part starts as terms of their sums, or one such start and
 * none, touch different parts (what {@code dev.l0.kernels.jvm.InnerLoopStages} relies on).
 *
 * <p>A block's scratch ({@link #perBlock}) holds the arrays of a row that a whole block runs
 * ({@link BlockRows}): a global buffer per element type with a copy of the parts for every block of
 * the launch, block {@code b}'s at {@code b} times the parts' total, which all the block's threads
 * read and write.
 */
public final class ThreadScratch {
  /** What the names of the part starts of a buffer add to the buffer's name, before a number. */
  private static final String PART = "_part";

  /** What the names of the buffers of a block's scratch begin with. */
  private static final String BLOCK_SCRATCH = "block_scratch_";

  private final GroupContext group;
  private final Map<ScalarType, Buffer> buffers = new LinkedHashMap<>();
  private final Map<ScalarType, KernelExpr> used = new LinkedHashMap<>();

  /**
   * The host scalars holding where each part of the buffers begins ({@link #startOf}), with their
   * values.
   */
  private final Map<KernelExpr.Var, KernelExpr> starts = new LinkedHashMap<>();

  /**
   * Per element type, the host scalar holding the elements of one block's copy of the parts; empty
   * for a thread's scratch.
   */
  private final Map<ScalarType, KernelExpr.Var> blockStrides = new LinkedHashMap<>();

  private final boolean perBlock;

  private ThreadScratch(GroupContext group, boolean perBlock) {
    this.group = group;
    this.perBlock = perBlock;
  }

  /** The scratch of a kernel's threads: each thread's own arrays. */
  ThreadScratch(GroupContext group) {
    this(group, false);
  }

  /** The scratch of a kernel's blocks: arrays all the threads of a block share. */
  static ThreadScratch perBlock(GroupContext group) {
    return new ThreadScratch(group, true);
  }

  /**
   * A fresh row-major array of {@code dims} (host expressions) owned by the running thread (by its
   * block, for a {@link #perBlock} scratch).
   */
  ArrayView allocate(ScalarType type, List<KernelExpr> dims) {
    KernelExpr elements = KernelExprs.ONE;
    for (KernelExpr d : dims) {
      if (!group.isHostExpression(d)) {
        throw new UnsupportedKernelException(
            "an array inside a kernel thread whose size is not known before the kernel runs");
      }
      elements = mul(elements, d);
    }
    Buffer buffer =
        buffers.computeIfAbsent(
            type,
            t ->
                perBlock
                    ? group.freshBuffer(BLOCK_SCRATCH + t.keyword(), t)
                    : group.freshThreadPrivateBuffer("scratch_" + t.keyword(), t));
    KernelExpr used = this.used.getOrDefault(type, KernelExprs.ZERO);
    this.used.put(type, add(used, elements));
    KernelExpr start = startOf(buffer, used);
    if (perBlock) {
      KernelExpr.Var stride =
          blockStrides.computeIfAbsent(
              type, t -> group.deferredHostScalar(buffer.name() + "_per_block"));
      start = add(mul(BLOCK_IDX, stride), start);
    }
    return ArrayView.rowMajor(buffer, start, dims);
  }

  /**
   * Where a part starting after {@code used} elements begins: a constant as it is, else a host
   * scalar defined once before the launch, so that the kernel reads one scalar instead of summing
   * the sizes of every part before it at each access.
   */
  private KernelExpr startOf(Buffer buffer, KernelExpr used) {
    if (used instanceof KernelExpr.Constant || used instanceof KernelExpr.Var) {
      return used;
    }
    KernelExpr.Var start = group.deferredHostScalar(buffer.name() + PART);
    starts.put(start, used);
    return start;
  }

  /**
   * Code that stores zeros in every element of the running thread's scratch allocated so far: for a
   * kernel whose failures only set a flag and whose code goes on after one (the zero row of a map
   * over no rows, {@link MapLowering}), so that what a failed operation left unwritten is read as
   * zeros, never as memory nothing wrote (the simulator's uninitialised read).
   */
  List<KernelStmt> zeroFill() {
    return zeroFillSince(Map.of());
  }

  /** How much of each buffer is allocated so far, for {@link #zeroFillSince}. */
  Map<ScalarType, KernelExpr> usedSoFar() {
    return new LinkedHashMap<>(used);
  }

  /**
   * As {@link #zeroFill}, for the elements allocated since {@code before} ({@link #usedSoFar}): the
   * arrays of code whose failures only set a flag, in a kernel whose other code raises them.
   */
  List<KernelStmt> zeroFillSince(Map<ScalarType, KernelExpr> before) {
    if (perBlock) {
      throw new IllegalStateException("zeroFill of a block's scratch");
    }
    List<KernelStmt> out = new ArrayList<>();
    for (Map.Entry<ScalarType, Buffer> entry : buffers.entrySet()) {
      KernelExpr from = before.getOrDefault(entry.getKey(), KernelExprs.ZERO);
      KernelExpr to = used.get(entry.getKey());
      if (from.equals(to)) {
        continue;
      }
      String name = entry.getValue().name();
      // defined where the part starts are (sizing), after the sizes they read
      KernelExpr.Var start = group.deferredHostScalar(name + "_zeroed_from");
      starts.put(start, from);
      KernelExpr.Var end = group.deferredHostScalar(name + "_zeroed_to");
      starts.put(end, to);
      KernelExpr.Var j = group.fresh("z", ScalarType.I64);
      out.add(
          new KernelStmt.For(
              j,
              start,
              end,
              KernelExprs.ONE,
              List.of(new KernelStmt.Store(entry.getValue(), j, zeroOf(entry.getKey())))));
    }
    return out;
  }

  /** Whether {@code buffer} holds a block's scratch ({@link #perBlock}), a copy per block. */
  public static boolean isBlockScratch(Buffer buffer) {
    return !buffer.isThreadPrivate() && buffer.name().startsWith(BLOCK_SCRATCH);
  }

  /**
   * Whether {@code variable} is where a part of the thread-private {@code buffer} begins: a host
   * scalar {@link #startOf} made for that part alone.
   */
  public static boolean isPartStart(Buffer buffer, KernelExpr.Var variable) {
    String prefix = buffer.name() + PART + "_";
    String name = variable.name();
    return buffer.isThreadPrivate()
        && name.startsWith(prefix)
        && name.length() > prefix.length()
        && name.substring(prefix.length()).chars().allMatch(Character::isDigit);
  }

  /**
   * The host steps that size the scratch buffers per thread, then launch {@code kernel} on {@code
   * gridSize} blocks.
   */
  List<HostStep> launch(Kernel kernel, KernelExpr gridSize) {
    List<HostStep> steps = new ArrayList<>(group.takeDeferredDefinitions());
    steps.addAll(sizing(gridSize, KernelExprs.TRUE));
    steps.add(new HostStep.Launch(kernel, gridSize));
    return steps;
  }

  /**
   * The host steps that define where the parts begin and size the buffers for a launch on {@code
   * gridSize} blocks, empty where {@code inUse} (a host {@code bool}) is false: the scratch of a
   * form of the kernel the launch does not run.
   */
  List<HostStep> sizing(KernelExpr gridSize, KernelExpr inUse) {
    List<HostStep> steps = new ArrayList<>();
    starts.forEach((start, value) -> steps.add(new HostStep.Define(start, value)));
    for (Map.Entry<ScalarType, Buffer> entry : buffers.entrySet()) {
      KernelExpr elements = used.get(entry.getKey());
      KernelExpr.Var stride = blockStrides.get(entry.getKey());
      if (stride != null) {
        steps.add(new HostStep.Define(stride, elements));
        elements = mul(stride, gridSize);
      }
      if (!inUse.equals(KernelExprs.TRUE)) {
        elements = new KernelExpr.Select(inUse, elements, KernelExprs.ZERO);
      }
      steps.add(new HostStep.Allocate(entry.getValue(), elements));
    }
    return steps;
  }
}
