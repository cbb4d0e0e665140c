package dev.l0.kernels.ir;

import java.util.List;

/**
 * One GPU kernel: its global buffers and scalar parameters (bound by name to the group's buffers
 * and host scalars at launch), its shared-memory arrays and the code every thread runs. Besides
 * {@code params}, every kernel implicitly receives its group's error word ({@link
 * KernelStmt.RaiseError}).
 */
public record Kernel(
    String name,
    List<Buffer> buffers,
    List<KernelExpr.Var> scalars,
    List<SharedArray> shared,
    List<KernelStmt> body) {
  public Kernel {
    buffers = List.copyOf(buffers);
    scalars = List.copyOf(scalars);
    shared = List.copyOf(shared);
    body = List.copyOf(body);
  }
}
