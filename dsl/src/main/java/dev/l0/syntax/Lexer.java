package dev.l0.syntax;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.List;

/**
 * Splits L0 text into tokens on demand (thesis §2.1: identifiers are a letter followed by letters,
 * digits and underscores; comments run from {@code //} to the end of the line; whitespace is
 * insignificant). Tokens are produced lazily so that a syntax error is reported before any lexical
 * error that comes later in the text.
 */
final class Lexer {
  /** Operator and punctuation symbols, longer ones first so that the longest match wins. */
  private static final List<String> SYMBOLS =
      List.of(
          "<=", ">=", "<<", ">>", "!=", "==", "&&", "||", "=>", "+", "-", "*", "/", "%", "^", "&",
          "|", "<", ">", "=", "(", ")", "[", "]", "{", "}", ",");

  private final String text;
  private final String sourceName;
  private int offset;
  private int line = 1;
  private int column = 1;

  Lexer(String text, String sourceName) {
    this.text = text;
    this.sourceName = sourceName;
  }

  /** The next token; after the last one, {@link Token.Kind#END} forever. */
  Token next() {
    skipWhitespaceAndComments();
    SourcePos start = position();
    if (offset >= text.length()) {
      return new Token(Token.Kind.END, "", start);
    }
    char c = text.charAt(offset);
    if (isLetter(c)) {
      String word = take(wordEnd(offset));
      return new Token(
          Keywords.RESERVED.contains(word) ? Token.Kind.KEYWORD : Token.Kind.IDENTIFIER,
          word,
          start);
    }
    if (c == '_' && wordEnd(offset) == offset + 1) {
      return new Token(Token.Kind.SYMBOL, take(offset + 1), start);
    }
    if (LiteralSyntax.isDigit(c)) {
      return new Token(
          Token.Kind.NUMBER, take(wordEnd(LiteralSyntax.mantissaEnd(text, offset))), start);
    }
    for (String symbol : SYMBOLS) {
      if (text.startsWith(symbol, offset)) {
        return new Token(Token.Kind.SYMBOL, take(offset + symbol.length()), start);
      }
    }
    throw new L0CompileError(start, unexpectedCharacter(c));
  }

  private static String unexpectedCharacter(char c) {
    return switch (c) {
      case '\'', '"' ->
          "character and string literals are not supported by this implementation of L0";
      case '!' -> "unexpected character '!' (logical negation is written 'not', inequality '!=')";
      case '.' -> "unexpected character '.' (a decimal number needs digits on both sides of '.')";
      case '_' ->
          "unexpected character '_' (a name must begin with a letter; '_' alone is a pattern"
              + " that binds nothing)";
      default ->
          c >= ' ' && c < 127
              ? "unexpected character '" + c + "'"
              : String.format("unexpected character U+%04X", (int) c);
    };
  }

  private void skipWhitespaceAndComments() {
    while (offset < text.length()) {
      char c = text.charAt(offset);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        advance();
      } else if (text.startsWith("//", offset)) {
        while (offset < text.length() && !LineEnds.startsLineEnd(text, offset)) {
          advance();
        }
      } else {
        return;
      }
    }
  }

  /** The end of the letters, digits and underscores that begin at {@code start}. */
  private int wordEnd(int start) {
    int end = start;
    while (end < text.length()
        && (isLetter(text.charAt(end))
            || LiteralSyntax.isDigit(text.charAt(end))
            || text.charAt(end) == '_')) {
      end++;
    }
    return end;
  }

  /** Consumes the text up to {@code end} and returns it. */
  private String take(int end) {
    String taken = text.substring(offset, end);
    while (offset < end) {
      advance();
    }
    return taken;
  }

  private void advance() {
    if (LineEnds.endsLine(text, offset)) {
      line++;
      column = 1;
    } else {
      column++;
    }
    offset++;
  }

  private SourcePos position() {
    return new SourcePos(sourceName, line, column);
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
