package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.testing.SourcePositions;
import dev.l0.testing.TestPrograms;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The parser on bad input: on arbitrary token soup and on damaged appendix programs it either
 * parses or throws {@link L0CompileError} at a position inside the text, never anything else.
 */
class ParserRobustnessTest {
  private static final List<String> TOKEN_SOUP =
      List.of(
          "fun",
          "int",
          "real",
          "[",
          "]",
          "*",
          "{",
          "}",
          "(",
          ")",
          ",",
          "=",
          "f",
          "x",
          "y",
          "1",
          "-",
          "2.5e3",
          "3i64",
          "let",
          "in",
          "if",
          "then",
          "else",
          "loop",
          "for",
          "<",
          "do",
          "with",
          "<-",
          "map",
          "reduce",
          "op",
          "+",
          "pow",
          "fn",
          "=>",
          "size",
          "transpose",
          "reshape",
          "zip",
          "not",
          "true",
          "==",
          "'",
          "#",
          "1e",
          "9999999999",
          "\n",
          "// note\n",
          "char",
          "redomap",
          "_",
          ".");

  @Property(tries = 2000)
  void tokenSoupParsesOrFailsWithACompileError(@ForAll long seed) {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(40);
    for (int i = 0; i < length; i++) {
      text.append(TOKEN_SOUP.get(random.nextInt(TOKEN_SOUP.size())))
          .append(random.nextBoolean() ? " " : "");
    }
    parsesOrFailsCleanly(text.toString());
  }

  @Property(tries = 1000)
  void damagedAppendixProgramsParseOrFailWithACompileError(@ForAll long seed) {
    Random random = new Random(seed);
    String name =
        List.of(
                TestPrograms.P0_BLACKSCHOLES,
                TestPrograms.P1_MATMUL,
                TestPrograms.P2_SHORTEST_PATHS)
            .get(random.nextInt(3));
    StringBuilder text = new StringBuilder(TestPrograms.text(name));
    for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
      int at = random.nextInt(text.length());
      switch (random.nextInt(3)) {
        case 0 -> text.deleteCharAt(at);
        case 1 -> text.insert(at, "()[]{},=-<>*+'.#_0e".charAt(random.nextInt(19)));
        default -> text.setCharAt(at, text.charAt(random.nextInt(text.length())));
      }
    }
    Program parsed = parsesOrFailsCleanly(text.toString());
    if (parsed != null) {
      Program printedAndReparsed = L0Parser.parse(L0Printer.print(parsed), "printed.l0");
      assertEquals(SourcePositions.erase(parsed), SourcePositions.erase(printedAndReparsed));
    }
  }

  /** The parsed program, or {@code null} after checking that the error lies inside the text. */
  private static Program parsesOrFailsCleanly(String text) {
    try {
      return L0Parser.parse(text, "fuzz.l0");
    } catch (L0CompileError e) {
      long lines = text.chars().filter(c -> c == '\n').count() + 1;
      assertTrue(
          e.pos().line() >= 1 && e.pos().line() <= lines && e.pos().column() >= 1,
          () -> e.getMessage() + " in:\n" + text);
      return null;
    }
  }
}
