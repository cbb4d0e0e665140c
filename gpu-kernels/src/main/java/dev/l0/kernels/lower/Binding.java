package dev.l0.kernels.lower;

import dev.l0.kernels.ir.KernelExpr;

/** What a program name stands for in kernel code: a scalar expression or an array view. */
sealed interface Binding permits Binding.Scalar, ArrayView {

  /** A scalar: an expression without effects (a local, a parameter or a constant). */
  record Scalar(KernelExpr value) implements Binding {}
}
