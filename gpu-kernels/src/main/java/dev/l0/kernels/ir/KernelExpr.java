package dev.l0.kernels.ir;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import java.util.List;

/**
 * A typed scalar expression of kernel code or of a kernel group's host steps. Expressions have no
 * effects and cannot fail: every operation is defined as {@code dev.l0.semantics.ScalarOperations}
 * defines it, and the lowering guards the operations that would fail there (integer {@code /} and
 * {@code %} by zero, integer {@code pow} with a negative exponent, out-of-bounds reads) with a
 * {@link KernelStmt.If} and {@link KernelStmt.RaiseError}, so such an operation is never evaluated.
 */
public sealed interface KernelExpr {

  /** The type of the value. */
  ScalarType type();

  /**
   * The expressions this one is made of, in order: none for a constant, a variable or a thread
   * index; a load's index.
   */
  default List<KernelExpr> children() {
    if (this instanceof Binary b) {
      return List.of(b.left(), b.right());
    } else if (this instanceof Unary u) {
      return List.of(u.operand());
    } else if (this instanceof Call c) {
      return c.args();
    } else if (this instanceof Select s) {
      return List.of(s.condition(), s.ifTrue(), s.ifFalse());
    } else if (this instanceof Load l) {
      return List.of(l.index());
    } else if (this instanceof SharedLoad l) {
      return List.of(l.index());
    }
    return List.of();
  }

  /** This expression made of {@code children} instead, given in {@link #children()}'s order. */
  default KernelExpr withChildren(List<KernelExpr> children) {
    if (this instanceof Binary b) {
      return new Binary(b.op(), b.operandType(), children.get(0), children.get(1));
    } else if (this instanceof Unary u) {
      return new Unary(u.op(), children.get(0));
    } else if (this instanceof Call c) {
      return new Call(c.function(), children);
    } else if (this instanceof Select) {
      return new Select(children.get(0), children.get(1), children.get(2));
    } else if (this instanceof Load l) {
      return new Load(l.buffer(), children.get(0));
    } else if (this instanceof SharedLoad l) {
      return new SharedLoad(l.array(), children.get(0));
    }
    return this;
  }

  /** A constant. */
  record Constant(ScalarValue value) implements KernelExpr {
    @Override
    public ScalarType type() {
      return value.type();
    }
  }

  /**
   * A scalar variable: a local of the kernel (declared by {@link KernelStmt.Declare} or a {@link
   * KernelStmt.For} counter), a scalar kernel parameter, or a host scalar of a group.
   */
  record Var(String name, ScalarType type) implements KernelExpr {}

  /** One of CUDA's thread/block index registers (x dimension only), as an {@code i64}. */
  record Thread(ThreadIndex index) implements KernelExpr {
    @Override
    public ScalarType type() {
      return ScalarType.I64;
    }
  }

  /**
   * {@code left op right} with both operands of type {@code operandType} (ScalarOperations.binary).
   */
  record Binary(BinaryOperator op, ScalarType operandType, KernelExpr left, KernelExpr right)
      implements KernelExpr {
    @Override
    public ScalarType type() {
      return op.kind() == BinaryOperator.Kind.COMPARISON || op.kind() == BinaryOperator.Kind.LOGICAL
          ? ScalarType.BOOL
          : operandType;
    }
  }

  /** {@code op operand} (ScalarOperations.unary). */
  record Unary(PrefixOperator op, KernelExpr operand) implements KernelExpr {
    @Override
    public ScalarType type() {
      return operand.type();
    }
  }

  /** A built-in function (ScalarOperations.builtin): math, abs/min/max, conversions. */
  record Call(Builtin function, List<KernelExpr> args) implements KernelExpr {
    public Call {
      args = List.copyOf(args);
    }

    @Override
    public ScalarType type() {
      return function.kind() == Builtin.Kind.CONVERSION
          ? function.conversionTarget()
          : args.get(0).type();
    }
  }

  /**
   * {@code condition ? ifTrue : ifFalse}; both branches have one type and both may be evaluated.
   */
  record Select(KernelExpr condition, KernelExpr ifTrue, KernelExpr ifFalse) implements KernelExpr {
    @Override
    public ScalarType type() {
      return ifTrue.type();
    }
  }

  /**
   * Element {@code index} (an {@code i64}) of a buffer: of the running thread's own array for a
   * thread-private one.
   */
  record Load(Buffer buffer, KernelExpr index) implements KernelExpr {
    @Override
    public ScalarType type() {
      return buffer.elementType();
    }
  }

  /** Element {@code index} (an {@code i64}) of the block's shared-memory array. */
  record SharedLoad(SharedArray array, KernelExpr index) implements KernelExpr {
    @Override
    public ScalarType type() {
      return array.elementType();
    }
  }
}
