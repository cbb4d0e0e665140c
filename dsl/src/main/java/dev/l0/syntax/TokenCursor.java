package dev.l0.syntax;

import dev.l0.ir.L0CompileError;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The parser's view of the token stream: lookahead, expectations and the wording of syntax errors.
 * Every error is an {@link L0CompileError} at the offending token.
 */
final class TokenCursor {
  private final Lexer lexer;
  private final List<Token> lookahead = new ArrayList<>();

  TokenCursor(Lexer lexer) {
    this.lexer = lexer;
  }

  Token peek() {
    return peek(0);
  }

  /** The token {@code ahead} places after the current one. */
  Token peek(int ahead) {
    while (lookahead.size() <= ahead) {
      lookahead.add(lexer.next());
    }
    return lookahead.get(ahead);
  }

  Token next() {
    Token current = peek();
    lookahead.remove(0);
    return current;
  }

  /** Consumes the keyword or symbol {@code text} if it is next. */
  boolean accept(String text) {
    if (peek().is(text)) {
      next();
      return true;
    }
    return false;
  }

  /**
   * Consumes the keyword or symbol {@code text}, or fails with "expected 'text' {@code context},
   * found ...".
   */
  Token expect(String text, String context) {
    if (!peek().is(text)) {
      throw unexpected("'" + text + "' " + context);
    }
    return next();
  }

  /** Consumes the delimiter that closes {@code what}, which {@code open} opened. */
  Token close(String delimiter, Token open, String what) {
    return expect(delimiter, "to close " + what + " opened at " + where(open));
  }

  /**
   * Elements separated by commas up to the delimiter {@code close}, which closes {@code what}
   * (opened by {@code open}, already consumed); none if {@code close} comes first.
   */
  <T> List<T> commaSeparated(Token open, String close, String what, Supplier<T> element) {
    List<T> elements = new ArrayList<>();
    if (!peek().is(close)) {
      do {
        elements.add(element.get());
      } while (accept(","));
    }
    close(close, open, what);
    return elements;
  }

  /**
   * An error at the current token: "expected {@code expectation}, found ...", with a hint where the
   * token is the name {@code and} or {@code or}, which L0 writes {@code &&} and {@code ||}.
   */
  L0CompileError unexpected(String expectation) {
    Token found = peek();
    String hint = "";
    if (found.kind() == Token.Kind.IDENTIFIER
        && (found.text().equals("and") || found.text().equals("or"))) {
      hint =
          " (logical "
              + found.text()
              + " is written '"
              + (found.text().equals("and") ? "&&" : "||")
              + "')";
    }
    return new L0CompileError(
        found.pos(), "expected " + expectation + ", found " + found.describe() + hint);
  }

  /** {@code line:column} of a token, for messages that point back at an opening token. */
  static String where(Token token) {
    return token.pos().line() + ":" + token.pos().column();
  }
}
