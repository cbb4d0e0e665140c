package dev.l0.ir;

/**
 * The size of one array dimension, as far as it is known statically: a constant, the value of a
 * variable in scope, or unknown. Shapes are part of array types (ARCHITECTURE.md, "IR").
 */
public sealed interface Dim {
  Dim UNKNOWN = new Unknown();

  record Const(long size) implements Dim {
    @Override
    public String toString() {
      return Long.toString(size);
    }
  }

  record Named(String variable) implements Dim {
    @Override
    public String toString() {
      return variable;
    }
  }

  record Unknown() implements Dim {
    @Override
    public String toString() {
      return "?";
    }
  }
}
