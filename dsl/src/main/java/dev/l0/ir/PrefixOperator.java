package dev.l0.ir;

/** Prefix operators: numeric negation {@code -e} and logical negation {@code not e}. */
public enum PrefixOperator {
  NEG("-"),
  NOT("not");

  private final String symbol;

  PrefixOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
