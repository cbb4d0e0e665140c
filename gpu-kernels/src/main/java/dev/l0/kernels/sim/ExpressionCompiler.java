package dev.l0.kernels.sim;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.ThreadIndex;
import dev.l0.semantics.Operands;
import dev.l0.semantics.ScalarOperations;
import java.util.Arrays;
import java.util.Map;

/**
 * Compiles kernel-IR expressions to {@link CompiledExpr}s: variables become slots, buffers and
 * shared arrays their positions in the kernel's parameter lists, and every operation is {@link
 * ScalarOperations}', so the simulator computes exactly what the interpreter does.
 */
final class ExpressionCompiler {
  private final String owner;
  private final Map<String, Integer> buffers;
  private final Map<String, Integer> sharedArrays;

  /**
   * For the code of {@code owner} (a kernel or a group's host steps), with its buffers and shared
   * arrays by position.
   */
  ExpressionCompiler(
      String owner, Map<String, Integer> buffers, Map<String, Integer> sharedArrays) {
    this.owner = owner;
    this.buffers = Map.copyOf(buffers);
    this.sharedArrays = Map.copyOf(sharedArrays);
  }

  /** {@code e} with its variables looked up in {@code scope} (name to slot). */
  CompiledExpr compile(KernelExpr e, Map<String, Integer> scope) {
    if (e instanceof KernelExpr.Constant c) {
      ScalarValue value = c.value();
      return frame -> value;
    }
    if (e instanceof KernelExpr.Var v) {
      int slot = slot(v.name(), scope);
      return frame -> frame.local(slot);
    }
    if (e instanceof KernelExpr.Thread t) {
      ThreadIndex index = t.index();
      return frame -> frame.register(index);
    }
    if (e instanceof KernelExpr.Binary b) {
      BinaryOperator op = b.op();
      CompiledExpr left = compile(b.left(), scope);
      CompiledExpr right = compile(b.right(), scope);
      return frame ->
          ScalarOperations.binary(op, left.eval(frame), right.eval(frame), SourcePos.NONE);
    }
    if (e instanceof KernelExpr.Unary u) {
      PrefixOperator op = u.op();
      CompiledExpr operand = compile(u.operand(), scope);
      return frame -> ScalarOperations.unary(op, operand.eval(frame), SourcePos.NONE);
    }
    if (e instanceof KernelExpr.Call c) {
      Builtin function = c.function();
      CompiledExpr[] args =
          c.args().stream().map(a -> compile(a, scope)).toArray(CompiledExpr[]::new);
      // a loop, not a stream: the host evaluates these once per run (a Spark task once per batch)
      return frame -> {
        ScalarValue[] values = new ScalarValue[args.length];
        for (int k = 0; k < args.length; k++) {
          values[k] = args[k].eval(frame);
        }
        return ScalarOperations.builtin(function, Arrays.asList(values), SourcePos.NONE);
      };
    }
    if (e instanceof KernelExpr.Select s) {
      CompiledExpr condition = compile(s.condition(), scope);
      CompiledExpr ifTrue = compile(s.ifTrue(), scope);
      CompiledExpr ifFalse = compile(s.ifFalse(), scope);
      // Both branches are evaluated, as the kernel IR allows a backend to do.
      return frame -> {
        boolean taken = Operands.bool(condition.eval(frame), SourcePos.NONE);
        ScalarValue a = ifTrue.eval(frame);
        ScalarValue b = ifFalse.eval(frame);
        return taken ? a : b;
      };
    }
    if (e instanceof KernelExpr.Load l) {
      int buffer = buffer(l.buffer().name());
      CompiledExpr index = compile(l.index(), scope);
      return frame -> frame.load(buffer, index(index, frame));
    }
    KernelExpr.SharedLoad l = (KernelExpr.SharedLoad) e;
    int array = sharedArray(l.array().name());
    CompiledExpr index = compile(l.index(), scope);
    return frame -> frame.sharedLoad(array, index(index, frame));
  }

  /** The value of an index expression (an integer). */
  static long index(CompiledExpr index, Frame frame) {
    return Operands.integer(index.eval(frame), SourcePos.NONE).value();
  }

  int slot(String variable, Map<String, Integer> scope) {
    Integer slot = scope.get(variable);
    if (slot == null) {
      throw new IllegalArgumentException(owner + ": variable " + variable + " is not in scope");
    }
    return slot;
  }

  /** The position of global buffer {@code name} among the kernel's buffers. */
  int buffer(String name) {
    return position(buffers, name, "global buffer");
  }

  /** The position of shared array {@code name} among the kernel's shared arrays. */
  int sharedArray(String name) {
    return position(sharedArrays, name, "shared array");
  }

  private int position(Map<String, Integer> positions, String name, String what) {
    Integer position = positions.get(name);
    if (position == null) {
      throw new IllegalArgumentException(owner + ": " + what + " " + name + " is not a parameter");
    }
    return position;
  }
}
