package dev.l0.kernels.ir;

import java.util.List;

/** A value of the enclosing L0 function that a kernel group reads, and where the host puts it. */
public sealed interface GroupInput {

  /** The program variable's name. */
  String name();

  /**
   * The array {@code name}, flattened row-major into {@code buffer}; its sizes, outermost first,
   * are bound to the {@code i64} host scalars {@code shape}.
   */
  record Array(String name, Buffer buffer, List<KernelExpr.Var> shape) implements GroupInput {
    public Array {
      shape = List.copyOf(shape);
    }
  }

  /** The scalar {@code name}, bound to host scalar {@code variable} (of the scalar's own type). */
  record Scalar(String name, KernelExpr.Var variable) implements GroupInput {}
}
