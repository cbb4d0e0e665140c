package dev.l0.opt.ir;

import dev.l0.ir.ScalarValue;

/**
 * An operand of an internal expression: a constant or a variable (thesis §4.1, let-normal form).
 */
public sealed interface SubExp {

  record Const(ScalarValue value) implements SubExp {
    @Override
    public String toString() {
      return InternalPrinter.scalar(value);
    }
  }

  record Var(String name) implements SubExp {
    @Override
    public String toString() {
      return name;
    }
  }

  static Var var(String name) {
    return new Var(name);
  }

  static Const constant(ScalarValue value) {
    return new Const(value);
  }

  /** The variable's name, or {@code null} for a constant. */
  default String varName() {
    return this instanceof Var v ? v.name() : null;
  }
}
