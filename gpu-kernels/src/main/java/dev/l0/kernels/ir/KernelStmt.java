package dev.l0.kernels.ir;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** A statement of kernel code, run by every thread of every block of a launch. */
public sealed interface KernelStmt {

  /**
   * This statement with each of its own expressions rewritten by {@code expressions} and each of
   * its statement lists (an {@code if}'s branches, a loop's body) by {@code bodies}.
   */
  default KernelStmt withParts(
      UnaryOperator<KernelExpr> expressions, UnaryOperator<List<KernelStmt>> bodies) {
    if (this instanceof Declare d) {
      return new Declare(d.variable(), expressions.apply(d.initial()));
    } else if (this instanceof Assign a) {
      return new Assign(a.variable(), expressions.apply(a.value()));
    } else if (this instanceof Store st) {
      return new Store(st.buffer(), expressions.apply(st.index()), expressions.apply(st.value()));
    } else if (this instanceof SharedStore st) {
      return new SharedStore(
          st.array(), expressions.apply(st.index()), expressions.apply(st.value()));
    } else if (this instanceof If i) {
      return new If(
          expressions.apply(i.condition()), bodies.apply(i.thenBody()), bodies.apply(i.elseBody()));
    } else if (this instanceof For f) {
      return new For(
          f.counter(),
          expressions.apply(f.start()),
          expressions.apply(f.bound()),
          expressions.apply(f.step()),
          bodies.apply(f.body()));
    } else if (this instanceof While w) {
      return new While(expressions.apply(w.condition()), bodies.apply(w.body()));
    } else if (this instanceof RaiseError r) {
      return new RaiseError(r.code(), r.values().stream().map(expressions).toList());
    }
    return this;
  }

  /** This statement's own statement lists: an {@code if}'s branches, a loop's body; else none. */
  default List<List<KernelStmt>> bodies() {
    if (this instanceof If i) {
      return List.of(i.thenBody(), i.elseBody());
    } else if (this instanceof For f) {
      return List.of(f.body());
    } else if (this instanceof While w) {
      return List.of(w.body());
    }
    return List.of();
  }

  /** Whether a statement of {@code code}, at any depth, is one {@code test} accepts. */
  static boolean anyIn(List<KernelStmt> code, Predicate<KernelStmt> test) {
    for (KernelStmt s : code) {
      if (test.test(s) || s.bodies().stream().anyMatch(body -> anyIn(body, test))) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code code} assigns (at any depth) the variable {@code name}. */
  static boolean assigns(List<KernelStmt> code, String name) {
    return anyIn(code, s -> s instanceof Assign a && a.variable().name().equals(name));
  }

  /**
   * Declares the mutable local {@code variable}, initialised to {@code initial}; in scope to the
   * end of the enclosing statement list.
   */
  record Declare(KernelExpr.Var variable, KernelExpr initial) implements KernelStmt {}

  /** {@code variable = value} for a declared local. */
  record Assign(KernelExpr.Var variable, KernelExpr value) implements KernelStmt {}

  /**
   * {@code buffer[index] = value}, {@code index} an {@code i64} (into the running thread's own
   * array for a thread-private buffer).
   */
  record Store(Buffer buffer, KernelExpr index, KernelExpr value) implements KernelStmt {}

  /** {@code array[index] = value} in the block's shared memory, {@code index} an {@code i64}. */
  record SharedStore(SharedArray array, KernelExpr index, KernelExpr value) implements KernelStmt {}

  record If(KernelExpr condition, List<KernelStmt> thenBody, List<KernelStmt> elseBody)
      implements KernelStmt {
    public If {
      thenBody = List.copyOf(thenBody);
      elseBody = List.copyOf(elseBody);
    }
  }

  /**
   * {@code for (counter = start; counter < bound; counter += step) body}: {@code counter} (an
   * {@code i64} local scoped to the loop) is declared by the loop; {@code step} is positive; {@code
   * bound} and {@code step} read no variable the body assigns, so evaluating them once or every
   * iteration is the same.
   */
  record For(
      KernelExpr.Var counter,
      KernelExpr start,
      KernelExpr bound,
      KernelExpr step,
      List<KernelStmt> body)
      implements KernelStmt {
    public For {
      body = List.copyOf(body);
    }
  }

  /** {@code while (condition) body}. */
  record While(KernelExpr condition, List<KernelStmt> body) implements KernelStmt {
    public While {
      body = List.copyOf(body);
    }
  }

  /**
   * {@code __syncthreads()}: every thread of the block waits here until all have arrived; shared
   * and global writes before it are visible to the block's threads after it. All threads of a block
   * must reach the same sequence of barriers (the lowering places them only under block-uniform
   * control flow).
   */
  record Barrier() implements KernelStmt {}

  /**
   * Records run-time failure {@code code} (1-based index into {@link KernelGroup#errors()}) in the
   * group's error word, with {@code values} ({@code i64}, at most {@link #MAX_ERROR_VALUES}: what
   * the error's detail names, {@link KernelError#toRuntimeError(long[])}), and continues; the code
   * guards the failing operation so nothing undefined runs. When several threads fail, any one of
   * their codes is kept, with the values of the same raise. The host checks the word after every
   * launch and throws the recorded error's {@code L0RuntimeError}.
   */
  record RaiseError(int code, List<KernelExpr> values) implements KernelStmt {
    public RaiseError {
      if (code < 1) {
        throw new IllegalArgumentException("error codes start at 1: " + code);
      }
      if (values.size() > MAX_ERROR_VALUES) {
        throw new IllegalArgumentException(
            "at most " + MAX_ERROR_VALUES + " error values: " + values.size());
      }
      values = List.copyOf(values);
    }

    /** A failure whose detail names no value. */
    public RaiseError(int code) {
      this(code, List.of());
    }
  }

  /** The most values a {@link RaiseError} records. */
  int MAX_ERROR_VALUES = 8;
}
