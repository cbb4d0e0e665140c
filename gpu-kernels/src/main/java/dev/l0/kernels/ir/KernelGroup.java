package dev.l0.kernels.ir;

import dev.l0.ir.ScalarType;
import java.util.List;

/**
 * What one top-level SOAC of a kernel plan lowers to: the kernels and the host steps that run them.
 * The host binds {@code inputs} (copying arrays into their buffers and binding their shapes and the
 * scalars), runs {@code steps} in order, and reads {@code outputs} back. A launch that raised error
 * code {@code k} fails with {@code errors.get(k - 1)}, or, for a capacity overflow, reruns ({@link
 * CapacityReruns}).
 */
public record KernelGroup(
    String name,
    List<GroupInput> inputs,
    List<Kernel> kernels,
    List<HostStep> steps,
    List<GroupOutput> outputs,
    List<KernelError> errors) {

  /** The host scalar holding the executor's block size (a power of two) in host expressions. */
  public static final KernelExpr.Var BLOCK_SIZE = new KernelExpr.Var("blockSize", ScalarType.I64);

  /**
   * The host scalar holding the factor (1, then 4, 16, ... on each rerun, {@link CapacityReruns})
   * by which the per-thread capacities of growing arrays without a host bound are multiplied.
   */
  public static final KernelExpr.Var CAPACITY_SCALE =
      new KernelExpr.Var("capacityScale", ScalarType.I64);

  public KernelGroup {
    inputs = List.copyOf(inputs);
    kernels = List.copyOf(kernels);
    steps = List.copyOf(steps);
    outputs = List.copyOf(outputs);
    errors = List.copyOf(errors);
  }
}
