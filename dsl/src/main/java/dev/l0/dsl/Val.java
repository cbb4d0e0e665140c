package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.List;
import java.util.Optional;

/**
 * A staged L0 value (LMS's {@code Rep[T]}): a handle that stands for an L0 expression while a
 * program is built. Operations on handles do not compute anything; they add to the program. The
 * Java class of a handle (F64, Arr&lt;F64&gt;, Tup2&lt;Bool, F64&gt;, ...) mirrors its L0 type, so
 * Java's compiler rejects most ill-typed programs. Immutable.
 */
public abstract class Val {
  /**
   * What every handle is made of: its type, its expression, the block it was staged in (null when
   * it is valid everywhere, as literals are), and for a tuple whose components are known, those.
   */
  record Parts(ValType<?> type, Expr expr, Block scope, Optional<List<Val>> components) {}

  final ValType<?> type;
  final Expr expr;
  private final Block scope;
  final Optional<List<Val>> components;

  Val(Parts parts) {
    this.type = parts.type();
    this.expr = parts.expr();
    this.scope = parts.scope();
    this.components = parts.components();
  }

  /** The L0 type of this value. */
  public Type l0Type() {
    return type.l0Type();
  }

  /**
   * This value's expression, for use as an operand at {@code pos}: a variable or a constant (or a
   * tuple of them) is written with the position of its use, as in program text. Fails when the
   * value was staged in a lambda, branch, loop body or function that has already ended.
   */
  Expr use(SourcePos pos) {
    if (components.isPresent()) {
      return new Expr.TupleLit(components.get().stream().map(c -> c.use(pos)).toList(), pos);
    }
    if (scope != null) {
      scope
          .whyNotVisibleFrom(Stager.active(pos).innermost())
          .ifPresent(
              why -> {
                throw new L0CompileError(pos, why);
              });
    }
    // Every staged operation is bound to a variable (Stager#reflect), so a handle that is not a
    // tuple of handles stands for a variable or a constant.
    return expr instanceof Expr.Var variable
        ? new Expr.Var(variable.name(), pos)
        : new Expr.Literal(((Expr.Literal) expr).value(), pos);
  }

  Block scope() {
    return scope;
  }

  /** The type of a handle, as its own class: sound because every handle is made by its own type. */
  @SuppressWarnings("unchecked")
  static <V extends Val> ValType<V> typeOf(V value) {
    return (ValType<V>) value.type;
  }

  /**
   * A handle as the class its type promises: sound where {@code value} was made by a {@code
   * ValType<V>}.
   */
  @SuppressWarnings("unchecked")
  static <V extends Val> V narrow(Val value) {
    return (V) value;
  }

  /** Stages the operation {@code node} in the current block; its result has type {@code type}. */
  static <R extends Val> R stage(ValType<R> type, Expr node) {
    return Stager.active(node.pos()).reflect(type, node);
  }

  @Override
  public String toString() {
    return type + " " + expr;
  }
}
