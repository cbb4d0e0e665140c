package dev.l0.kernels.ir;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.SourcePos;

/** A run-time failure a kernel can raise: the {@code L0RuntimeError} the host throws for it. */
public record KernelError(String operation, SourcePos pos, String detail) {
  public L0RuntimeError toRuntimeError() {
    return new L0RuntimeError(operation, pos, detail);
  }
}
