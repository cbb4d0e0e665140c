package dev.l0.kernels.jvm;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.semantics.ScalarOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The value of an integer expression of the kernel IR built from constants only (a loop bound in a
 * form specialised to its launch's scalars, {@code (long) (int) 367}), computed as the generated
 * code computes it ({@link ScalarOperations}, the interpreter's arithmetic); empty where it reads
 * anything else or raises an error.
 */
final class IntegerConstants {
  private IntegerConstants() {}

  static OptionalLong of(KernelExpr e) {
    ScalarValue value = value(JavaKernelIrPrinter.simplified(e));
    return value instanceof ScalarValue.Int i ? OptionalLong.of(i.value()) : OptionalLong.empty();
  }

  private static ScalarValue value(KernelExpr e) {
    if (e instanceof KernelExpr.Constant c) {
      return c.value() instanceof ScalarValue.Int ? c.value() : null;
    }
    if (!(e instanceof KernelExpr.Binary
        || e instanceof KernelExpr.Unary
        || e instanceof KernelExpr.Call)) {
      return null;
    }
    List<ScalarValue> operands = new ArrayList<>();
    for (KernelExpr child : e.children()) {
      ScalarValue v = value(child);
      if (v == null) {
        return null;
      }
      operands.add(v);
    }
    ScalarValue result = applied(e, operands);
    return result instanceof ScalarValue.Int ? result : null;
  }

  /**
   * The value of the operation {@code e} (a binary or unary operation or a call) applied to {@code
   * operands}, the values of its children, as the interpreter computes it; null where it raises an
   * error.
   */
  static ScalarValue applied(KernelExpr e, List<ScalarValue> operands) {
    try {
      if (e instanceof KernelExpr.Binary b) {
        return ScalarOperations.binary(b.op(), operands.get(0), operands.get(1), SourcePos.NONE);
      } else if (e instanceof KernelExpr.Unary u) {
        return ScalarOperations.unary(u.op(), operands.get(0), SourcePos.NONE);
      }
      return ScalarOperations.builtin(((KernelExpr.Call) e).function(), operands, SourcePos.NONE);
    } catch (L0RuntimeError raised) {
      return null;
    }
  }
}
