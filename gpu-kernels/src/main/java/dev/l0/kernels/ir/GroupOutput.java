package dev.l0.kernels.ir;

import java.util.List;

/**
 * A result of a kernel group, bound to program variable {@code name}: the array of sizes {@code
 * shape} (host {@code i64} expressions, outermost first) stored row-major in {@code buffer}, or,
 * when {@code shape} is empty, the scalar in element 0 of {@code buffer}.
 */
public record GroupOutput(String name, Buffer buffer, List<KernelExpr> shape) {
  public GroupOutput {
    shape = List.copyOf(shape);
  }
}
