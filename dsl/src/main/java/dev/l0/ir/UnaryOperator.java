package dev.l0.ir;

/** Prefix operators: numeric negation {@code -e} and logical negation {@code not e}. */
public enum UnaryOperator {
  NEG("-"),
  NOT("not");

  private final String symbol;

  UnaryOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
