package dev.l0.kernels.lower;

import dev.l0.kernels.ir.KernelExpr;

/** Where a lowered body puts one of its results: a local, or a region of a buffer. */
sealed interface Destination permits Destination.ToLocal, Destination.ToMemory {

  /** A scalar result assigned to a declared local. */
  record ToLocal(KernelExpr.Var local) implements Destination {}

  /** A result written into {@code view} (one element when the result is a scalar). */
  record ToMemory(ArrayView view) implements Destination {}
}
