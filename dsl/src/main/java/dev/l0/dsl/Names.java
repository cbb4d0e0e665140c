package dev.l0.dsl;

import dev.l0.ir.Expr;
import dev.l0.ir.L0CompileError;
import dev.l0.syntax.L0Parser;
import java.util.regex.Pattern;

/** Which names a DSL user may give: to functions, and as the stem of a {@code let} variable. */
final class Names {
  private static final Pattern STEM = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

  private Names() {}

  /**
   * Letters, digits and underscores, starting with a letter: with the suffix {@code _N} a variable
   * name.
   */
  static boolean isStem(String name) {
    return name != null && STEM.matcher(name).matches();
  }

  /**
   * A stem that L0 text reads as a plain name, not a reserved word such as {@code map} or {@code
   * true}.
   */
  static boolean isFunctionName(String name) {
    if (!isStem(name)) {
      return false;
    }
    try {
      return L0Parser.parseExpression(name, name) instanceof Expr.Var;
    } catch (L0CompileError reservedWord) {
      return false;
    }
  }
}
