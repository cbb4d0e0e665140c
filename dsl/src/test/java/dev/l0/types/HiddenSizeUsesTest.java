package dev.l0.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Expr;
import dev.l0.syntax.L0Parser;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which uses of a parameter bound to an array with an empty dimension could see the sizes below
 * that dimension.
 */
class HiddenSizeUsesTest {

  @Test
  void sizesOfKnownDimensionsIndexingAndScalarMapsCannotSeeThem() {
    assertNoUse(
        "[[f64]] g",
        "let n = size(0, g) + reduce(op +, 0, map(fn i32 ([f64] r) => size(0, r), g)) in"
            + " map(fn i32 (i32 i) => i32(g[i, 0]) + n, idx)",
        1);
    assertNoUse(
        "*[[f64]] g",
        "let h = g with [0, 0] <- 1.0 in map(fn i32 (i32 i) => i32(h[i, 0]), idx)",
        1);
    // a [2][0][?] value: dimension 1 is known
    assertNoUse("[[[f64]]] g", "map(fn i32 (i32 i) => size(1, g) + i, idx)", 2);
  }

  @Test
  void sizesBelowTheEmptyDimensionAndUsesThatPassTheValueOnCanSeeThem() {
    assertUse("size(1, g)", "map(fn i32 (i32 i) => size(1, g) + i, idx)", 1);
    assertUse("g)) + i", "map(fn i32 (i32 i) => size(0, transpose(g)) + i, idx)", 1);
    // a map whose rows are arrays has their shape
    assertUse(
        "g)) + i", "map(fn i32 (i32 i) => size(1, map(fn [f64] ([f64] r) => r, g)) + i, idx)", 1);
    assertUse("size(2, g)", "[[[f64]]] g", "map(fn i32 (i32 i) => size(2, g) + i, idx)", 2);
    // indexing that stops above the empty dimension gives a value of unknown sizes
    assertUse("g[i]", "[[[f64]]] g", "map(fn i32 (i32 i) => size(0, g[i]) + i, idx)", 2);
    assertUse("g, i)", "map(fn i32 (i32 i) => f(g, i), idx)", 1);
  }

  @Test
  void aNameBoundAgainHidesTheParameter() {
    assertNoUse("[[f64]] g", "map(fn i32 (i32 i) => let g = iota(3) in size(0, g) + i, idx)", 1);
    assertNoUse(
        "[[f64]] g",
        "map(fn i32 (i32 i) => reduce(op +, 0, map(fn i32 (i32 g) => g + i, idx)), idx)",
        1);
    // an alias passes the value on
    assertUse("g in", "map(fn i32 (i32 i) => let h = g in size(0, h) + i, idx)", 1);
  }

  private static void assertUse(String expected, String body, int known) {
    assertUse(expected, "[[f64]] g", body, known);
  }

  private static void assertUse(String expected, String parameter, String body, int known) {
    String use = firstUse(parameter, body, known);
    assertTrue(use.startsWith(expected), use);
  }

  private static void assertNoUse(String parameter, String body, int known) {
    assertEquals("", firstUse(parameter, body, known));
  }

  /**
   * The program text from the first use in {@code body} of {@code main(parameter, [i32] idx)} that
   * could see sizes from dimension {@code known} on, or "" where there is none.
   */
  private static String firstUse(String parameter, String body, int known) {
    String text =
        "fun i32 f([[f64]] a, i32 i) = size(1, a) + i\n"
            + "fun [i32] main("
            + parameter
            + ", [i32] idx) =\n"
            + body;
    TypedProgram typed = TypeChecker.check(L0Parser.parse(text, "t.l0"));
    Optional<Expr> use = HiddenSizeUses.firstUse(typed, typed.function("main"), "g", known);
    assertTrue(use.isEmpty() || use.get().pos().line() == 3, () -> use.get().pos().toString());
    return use.map(e -> body.substring(e.pos().column() - 1)).orElse("");
  }
}
