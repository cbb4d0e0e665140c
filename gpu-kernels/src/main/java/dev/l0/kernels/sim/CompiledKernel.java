package dev.l0.kernels.sim;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A kernel compiled to a flat instruction list with conditional jumps, so that a thread can stop at
 * a barrier in the middle of loops and branches and resume there: its state is a program counter
 * and its slots. Slots {@code 0 .. scalars-1} hold the kernel's scalar parameters; each declaration
 * and loop counter gets a slot of its own (an inner declaration of a name hides an outer one until
 * the end of its statement list).
 */
final class CompiledKernel {
  private final Kernel kernel;
  private final List<Instruction> code;
  private final int slotCount;
  private final int barrierLoops;

  private CompiledKernel(Kernel kernel, List<Instruction> code, int slotCount, int barrierLoops) {
    this.kernel = kernel;
    this.code = List.copyOf(code);
    this.slotCount = slotCount;
    this.barrierLoops = barrierLoops;
  }

  static CompiledKernel compile(Kernel kernel) {
    Builder builder = new Builder(kernel);
    Map<String, Integer> params = new HashMap<>();
    kernel.scalars().forEach(v -> params.put(v.name(), builder.newSlot()));
    builder.statements(kernel.body(), params);
    return new CompiledKernel(kernel, builder.code, builder.slots, builder.barrierLoops);
  }

  Kernel kernel() {
    return kernel;
  }

  String name() {
    return kernel.name();
  }

  List<Instruction> code() {
    return code;
  }

  int slotCount() {
    return slotCount;
  }

  /**
   * The loops whose bodies hold a barrier, each counting its iterations ({@link
   * Instruction.LoopBack}).
   */
  int barrierLoops() {
    return barrierLoops;
  }

  private static final class Builder {
    private final ExpressionCompiler expressions;
    private final List<Instruction> code = new ArrayList<>();
    private int slots;
    private int barriers;
    private int barrierLoops;

    Builder(Kernel kernel) {
      this.expressions =
          new ExpressionCompiler(
              kernel.name(),
              positions(kernel.buffers().stream().map(b -> b.name()).toList()),
              positions(kernel.shared().stream().map(s -> s.name()).toList()));
    }

    private static Map<String, Integer> positions(List<String> names) {
      Map<String, Integer> positions = new HashMap<>();
      for (int k = 0; k < names.size(); k++) {
        positions.put(names.get(k), k);
      }
      return positions;
    }

    int newSlot() {
      return slots++;
    }

    void statements(List<KernelStmt> statements, Map<String, Integer> outer) {
      Map<String, Integer> scope = new HashMap<>(outer);
      for (KernelStmt s : statements) {
        statement(s, scope);
      }
    }

    /** Compiles {@code s}; a declaration adds its variable to {@code scope}. */
    private void statement(KernelStmt s, Map<String, Integer> scope) {
      if (s instanceof KernelStmt.Declare d) {
        CompiledExpr initial = expressions.compile(d.initial(), scope);
        int slot = newSlot();
        scope.put(d.variable().name(), slot);
        code.add(new Instruction.SetLocal(slot, initial));
      } else if (s instanceof KernelStmt.Assign a) {
        code.add(
            new Instruction.SetLocal(
                expressions.slot(a.variable().name(), scope),
                expressions.compile(a.value(), scope)));
      } else if (s instanceof KernelStmt.Store st) {
        code.add(
            new Instruction.Store(
                expressions.buffer(st.buffer().name()),
                expressions.compile(st.index(), scope),
                expressions.compile(st.value(), scope)));
      } else if (s instanceof KernelStmt.SharedStore st) {
        code.add(
            new Instruction.SharedStore(
                expressions.sharedArray(st.array().name()),
                expressions.compile(st.index(), scope),
                expressions.compile(st.value(), scope)));
      } else if (s instanceof KernelStmt.If i) {
        branch(i, scope);
      } else if (s instanceof KernelStmt.For f) {
        forLoop(f, scope);
      } else if (s instanceof KernelStmt.While w) {
        int head = code.size();
        int exit = placeholder();
        int barriersBefore = barriers;
        statements(w.body(), scope);
        code.add(backEdge(head, barriersBefore));
        code.set(
            exit,
            new Instruction.JumpUnless(expressions.compile(w.condition(), scope), code.size()));
      } else if (s instanceof KernelStmt.Barrier) {
        code.add(new Instruction.Barrier(++barriers));
      } else {
        KernelStmt.RaiseError r = (KernelStmt.RaiseError) s;
        code.add(
            new Instruction.RaiseError(
                r.code(),
                r.values().stream()
                    .map(v -> expressions.compile(v, scope))
                    .toArray(CompiledExpr[]::new)));
      }
    }

    private void branch(KernelStmt.If i, Map<String, Integer> scope) {
      CompiledExpr condition = expressions.compile(i.condition(), scope);
      int toElse = placeholder();
      statements(i.thenBody(), scope);
      if (i.elseBody().isEmpty()) {
        code.set(toElse, new Instruction.JumpUnless(condition, code.size()));
        return;
      }
      int toEnd = placeholder();
      code.set(toElse, new Instruction.JumpUnless(condition, code.size()));
      statements(i.elseBody(), scope);
      code.set(toEnd, new Instruction.Jump(code.size()));
    }

    /**
     * {@code counter = start; head: if !(counter < bound) goto end; body; counter += step; goto
     * head; end:}
     */
    private void forLoop(KernelStmt.For f, Map<String, Integer> scope) {
      KernelExpr.Var counter = f.counter();
      Map<String, Integer> loopScope = new HashMap<>(scope);
      int slot = newSlot();
      code.add(new Instruction.SetLocal(slot, expressions.compile(f.start(), scope)));
      loopScope.put(counter.name(), slot);
      int head = code.size();
      int exit = placeholder();
      int barriersBefore = barriers;
      statements(f.body(), loopScope);
      KernelExpr next =
          new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I64, counter, f.step());
      code.add(new Instruction.SetLocal(slot, expressions.compile(next, loopScope)));
      code.add(backEdge(head, barriersBefore));
      KernelExpr test =
          new KernelExpr.Binary(BinaryOperator.LT, ScalarType.I64, counter, f.bound());
      code.set(exit, new Instruction.JumpUnless(expressions.compile(test, loopScope), code.size()));
    }

    /**
     * The jump back to a loop's {@code head}: one that counts the loop's iterations where its body
     * (compiled after {@code barriersBefore} barriers) holds a barrier.
     */
    private Instruction backEdge(int head, int barriersBefore) {
      return barriers == barriersBefore
          ? new Instruction.Jump(head)
          : new Instruction.LoopBack(head, barrierLoops++);
    }

    /** Reserves the position of a jump whose target is not known yet. */
    private int placeholder() {
      code.add(null);
      return code.size() - 1;
    }
  }
}
