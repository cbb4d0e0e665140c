package dev.l0.kernels.sim;

import dev.l0.ir.ScalarValue;

/** A kernel-IR expression with its variables resolved to slots, evaluated on a {@link Frame}. */
@FunctionalInterface
interface CompiledExpr {
  ScalarValue eval(Frame frame);
}
