package dev.l0.ir;

/**
 * Binary operators (thesis §2.3, plus {@code >}, {@code >=}, {@code !=} per
 * shared/notes/l0-language-decisions.md). Precedence: a higher number binds tighter; all are left
 * associative except {@link #POW}, which is right associative.
 */
public enum BinaryOperator {
  OR("||", 1, Kind.LOGICAL),
  AND("&&", 2, Kind.LOGICAL),
  EQ("=", 3, Kind.COMPARISON),
  NEQ("!=", 3, Kind.COMPARISON),
  LT("<", 3, Kind.COMPARISON),
  LEQ("<=", 3, Kind.COMPARISON),
  GT(">", 3, Kind.COMPARISON),
  GEQ(">=", 3, Kind.COMPARISON),
  BOR("|", 4, Kind.BITWISE),
  XOR("^", 5, Kind.BITWISE),
  BAND("&", 6, Kind.BITWISE),
  SHL("<<", 7, Kind.BITWISE),
  SHR(">>", 7, Kind.BITWISE),
  ADD("+", 8, Kind.ARITHMETIC),
  SUB("-", 8, Kind.ARITHMETIC),
  MUL("*", 9, Kind.ARITHMETIC),
  DIV("/", 9, Kind.ARITHMETIC),
  MOD("%", 9, Kind.ARITHMETIC),
  POW("pow", 10, Kind.ARITHMETIC);

  /** What operand and result types an operator takes. */
  public enum Kind {
    /** numeric operands of one type, result of that type */
    ARITHMETIC,
    /** operands of one scalar type, bool result */
    COMPARISON,
    /** integer operands of one type, result of that type */
    BITWISE,
    /** bool operands, bool result; both operands are always evaluated */
    LOGICAL
  }

  private final String symbol;
  private final int precedence;
  private final Kind kind;

  BinaryOperator(String symbol, int precedence, Kind kind) {
    this.symbol = symbol;
    this.precedence = precedence;
    this.kind = kind;
  }

  public String symbol() {
    return symbol;
  }

  public int precedence() {
    return precedence;
  }

  public Kind kind() {
    return kind;
  }

  public boolean rightAssociative() {
    return this == POW;
  }

  /** The operator written {@code symbol}, or {@code null}. */
  public static BinaryOperator bySymbol(String symbol) {
    for (BinaryOperator op : values()) {
      if (op.symbol.equals(symbol)) {
        return op;
      }
    }
    return null;
  }
}
