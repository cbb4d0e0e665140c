package dev.l0.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.l0.ir.L0CompileError;
import dev.l0.syntax.L0Parser;

/**
 * Asserts that L0 text is rejected by the parser or the checker with exactly an {@link
 * L0CompileError}.
 */
final class Rejections {
  static final String SOURCE = "bad.l0";

  private Rejections() {}

  /** {@code program} fails at {@code line:column} with a message containing {@code fragment}. */
  static void assertRejected(String program, int line, int column, String fragment) {
    L0CompileError e = rejection(program);
    assertEquals(SOURCE, e.pos().source(), e.getMessage());
    assertEquals(line + ":" + column, e.pos().line() + ":" + e.pos().column(), e.getMessage());
    assertTrue(
        e.detail().contains(fragment),
        () -> "message '" + e.detail() + "' lacks '" + fragment + "'");
    assertEquals(SOURCE + ":" + line + ":" + column + ": " + e.detail(), e.getMessage());
  }

  /** The error {@code program} is rejected with; fails if it is accepted or fails any other way. */
  static L0CompileError rejection(String program) {
    try {
      TypeChecker.check(L0Parser.parse(program, SOURCE));
    } catch (L0CompileError e) {
      assertEquals(L0CompileError.class, e.getClass(), "exactly an L0CompileError");
      return e;
    }
    return fail("the program was accepted:\n" + program);
  }
}
