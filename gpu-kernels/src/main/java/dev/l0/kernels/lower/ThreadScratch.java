package dev.l0.kernels.lower;

import static dev.l0.kernels.lower.KernelExprs.GLOBAL_THREAD;
import static dev.l0.kernels.lower.KernelExprs.add;
import static dev.l0.kernels.lower.KernelExprs.mul;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arrays one kernel's threads make (copies, in-place updates, loop variables, nested map
 * results): each thread owns a private region of a global scratch buffer per element type, and
 * each program point that makes an array owns a fixed part of it, sized by the host before the
 * launch. Array sizes must therefore be known to the host.
 */
final class ThreadScratch {
  private final GroupContext group;
  private final Map<ScalarType, Buffer> buffers = new LinkedHashMap<>();
  private final Map<ScalarType, KernelExpr.Var> perThread = new LinkedHashMap<>();
  private final Map<ScalarType, KernelExpr> used = new LinkedHashMap<>();

  ThreadScratch(GroupContext group) {
    this.group = group;
  }

  /** A fresh row-major array of {@code dims} (host expressions) owned by the running thread. */
  ArrayView allocate(ScalarType type, List<KernelExpr> dims) {
    KernelExpr elements = KernelExprs.ONE;
    for (KernelExpr d : dims) {
      if (!group.isHostExpression(d)) {
        throw new UnsupportedKernelException("an array inside a kernel thread whose size is not known before the kernel runs");
      }
      elements = mul(elements, d);
    }
    Buffer buffer = buffers.computeIfAbsent(type, t -> group.freshBuffer("scratch_" + t.keyword(), t));
    KernelExpr.Var threadElements = perThread.computeIfAbsent(type, t -> group.fresh("scratch_" + t.keyword() + "_per_thread", ScalarType.I64));
    KernelExpr offset = used.getOrDefault(type, KernelExprs.ZERO);
    used.put(type, add(offset, elements));
    return ArrayView.rowMajor(buffer, add(mul(GLOBAL_THREAD, threadElements), offset), dims);
  }

  /** The host steps that size and allocate the scratch buffers for {@code gridSize} blocks, then launch {@code kernel}. */
  List<HostStep> launch(Kernel kernel, KernelExpr gridSize) {
    List<HostStep> steps = new ArrayList<>(group.takeDeferredDefinitions());
    for (Map.Entry<ScalarType, Buffer> entry : buffers.entrySet()) {
      KernelExpr.Var threadElements = perThread.get(entry.getKey());
      steps.add(new HostStep.Define(threadElements, used.get(entry.getKey())));
      steps.add(new HostStep.Allocate(entry.getValue(), mul(mul(gridSize, KernelGroup.BLOCK_SIZE), threadElements)));
    }
    steps.add(new HostStep.Launch(kernel, gridSize));
    return steps;
  }
}
