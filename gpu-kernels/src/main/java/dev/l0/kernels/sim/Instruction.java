package dev.l0.kernels.sim;

import dev.l0.ir.SourcePos;
import dev.l0.semantics.Operands;

/**
 * One step of a compiled kernel; {@link #execute} runs it for one thread and returns the next
 * program counter.
 */
sealed interface Instruction {
  int execute(ThreadState thread, int pc);

  /** Sets local {@code slot} (a declaration, an assignment or a loop counter update). */
  record SetLocal(int slot, CompiledExpr value) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      thread.setLocal(slot, value.eval(thread));
      return pc + 1;
    }
  }

  /** Writes element {@code index} of the kernel's {@code buffer}-th global buffer. */
  record Store(int buffer, CompiledExpr index, CompiledExpr value) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      thread.store(buffer, ExpressionCompiler.index(index, thread), value.eval(thread));
      return pc + 1;
    }
  }

  /** Writes element {@code index} of the kernel's {@code array}-th shared array. */
  record SharedStore(int array, CompiledExpr index, CompiledExpr value) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      thread.sharedStore(array, ExpressionCompiler.index(index, thread), value.eval(thread));
      return pc + 1;
    }
  }

  /** Continues at {@code target} unless {@code condition} holds. */
  record JumpUnless(CompiledExpr condition, int target) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      return Operands.bool(condition.eval(thread), SourcePos.NONE) ? pc + 1 : target;
    }
  }

  record Jump(int target) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      return target;
    }
  }

  /**
   * The jump back to the head of a loop whose body holds a barrier, the kernel's {@code loop}-th
   * such loop (from 0): counts the thread's iterations of it, which must agree between the threads
   * that meet at a barrier.
   */
  record LoopBack(int target, int loop) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      thread.countIteration(loop);
      return target;
    }
  }

  /**
   * {@code __syncthreads()}, the kernel's {@code ordinal}-th barrier statement (from 1): the thread
   * stops here until its block is released.
   */
  record Barrier(int ordinal) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      thread.arriveAt(this);
      return pc + 1;
    }
  }

  /** Records error {@code code} in the launch's error word, with its {@code values}. */
  record RaiseError(int code, CompiledExpr[] values) implements Instruction {
    @Override
    public int execute(ThreadState thread, int pc) {
      long[] recorded = new long[values.length];
      for (int k = 0; k < values.length; k++) {
        recorded[k] = Operands.integer(values[k].eval(thread), SourcePos.NONE).value();
      }
      thread.raise(code, recorded);
      return pc + 1;
    }
  }
}
