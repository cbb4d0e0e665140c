package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.testing.SourcePositions;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code _} in a pattern binds nothing, as the thesis's Fig. 46a writes it ({@code let {_, a2} =
 * split(1, a)}); it is no name, so no expression can read it.
 */
class WildcardPatternTest {
  /** The thesis's Fig. 46a, verbatim: the inner elements of a 2-dimensional array. */
  private static final String FIGURE_46 =
      """
      fun [[int]] inner([[int]] a) =
        let n = size(0,a) in
        let m = size(1,a) in
        let {_,a2} = split(1,a) in
        let {rows, _} = split(n-2, a2) in
        map(fn [int] ([int] row) =>
              let {_, row2} =
                split(1,row) in
              let {res, _} =
                split(m-2,row2) in
              res,
            rows)
      """;

  private static String run(Program program, String function, String input, Type type) {
    TypeChecker.check(program);
    return ValueWriter.write(
        new Interpreter(program).call(function, ValueReader.read(input, List.of(type), "input")));
  }

  @Test
  void figure46TakesTheInnerElementsOfAMatrix() {
    Program program = L0Parser.parse(FIGURE_46, "fig46.l0");
    assertEquals(
        "[[6, 7]]",
        run(
            program,
            "inner",
            "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]",
            Type.array(Type.array(ScalarType.I32))));
  }

  @Test
  void printedWildcardsParseBackToTheSameProgram() {
    Program program = L0Parser.parse(FIGURE_46, "fig46.l0");
    String printed = L0Printer.print(program);
    assertEquals(
        SourcePositions.erase(program),
        SourcePositions.erase(L0Parser.parse(printed, "printed.l0")));
  }

  @Test
  void aPatternMayHoldSeveralWildcardsAndLoopsMayUseThem() {
    Program program =
        L0Parser.parse(
            """
            fun int main([int] a) =
              let _ = size(a) in
              let {_, {_, c}} = {1, {a, 3}} in
              loop ({x, _} = {0, 5}) = for i < c do {x + a[i], i}
              in x
            """,
            "loops.l0");
    assertEquals("15", run(program, "main", "[4, 5, 6, 7]", Type.array(ScalarType.I32)));
  }

  @Test
  void aWildcardIsNoValue() {
    L0CompileError read =
        assertThrows(
            L0CompileError.class,
            () -> L0Parser.parse("fun int f(int x) = let {a, _} = {x, x} in a + _", "f.l0"));
    assertEquals(
        "f.l0:1:47: '_' is a pattern that binds nothing; it cannot be used as a value",
        read.getMessage());
    L0CompileError loop =
        assertThrows(
            L0CompileError.class,
            () ->
                L0Parser.parse(
                    "fun int f(int x) = loop ({x, _}) = for i < 2 do {x, 1} in x", "f.l0"));
    assertEquals(
        "f.l0:1:30: '_' binds nothing, so 'loop (p) = ...' has no variable to start from here;"
            + " write 'loop (p = initial) = ...'",
        loop.getMessage());
    L0CompileError name =
        assertThrows(
            L0CompileError.class,
            () -> L0Parser.parse("fun int f(int x) = let _a = x in _a", "f.l0"));
    assertEquals(
        "f.l0:1:24: unexpected character '_' (a name must begin with a letter; '_' alone is a"
            + " pattern that binds nothing)",
        name.getMessage());
  }
}
