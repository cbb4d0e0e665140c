package dev.l0.syntax;

import dev.l0.ir.SourcePos;

/** One lexical unit of L0 text, with the position of its first character. */
record Token(Kind kind, String text, SourcePos pos) {

  /** The lexical classes of L0. */
  enum Kind {
    /** a name that is not reserved */
    IDENTIFIER,
    /** a reserved word ({@link Keywords#RESERVED}) */
    KEYWORD,
    /**
     * a numeric literal including its suffix, without sign: {@code 12}, {@code 1.5e3}, {@code 2i64}
     */
    NUMBER,
    /** punctuation or an operator symbol */
    SYMBOL,
    /** the end of the text */
    END
  }

  /** Whether this token is the keyword or symbol {@code text}. */
  boolean is(String keywordOrSymbol) {
    return (kind == Kind.KEYWORD || kind == Kind.SYMBOL) && text.equals(keywordOrSymbol);
  }

  /** How an error message names this token. */
  String describe() {
    return switch (kind) {
      case END -> "end of input";
      case IDENTIFIER -> "name '" + Excerpt.of(text) + "'";
      case NUMBER -> "number " + Excerpt.of(text);
      case KEYWORD, SYMBOL -> "'" + Excerpt.of(text) + "'";
    };
  }
}
