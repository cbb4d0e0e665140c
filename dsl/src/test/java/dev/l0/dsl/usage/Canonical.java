package dev.l0.dsl.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.Program;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.AlphaNormalizer;
import dev.l0.testing.SourcePositions;
import dev.l0.types.TypeChecker;

/** Programs compared by structure: variables renamed canonically, positions erased. */
final class Canonical {
  private Canonical() {}

  static Program of(Program program) {
    return SourcePositions.erase(AlphaNormalizer.normalize(program));
  }

  /**
   * Asserts that {@code staged} is the program {@code text} up to variable names and positions,
   * that it is well typed and that its printed text reads back as the same program.
   */
  static void assertSameProgram(String text, Program staged) {
    assertEquals(of(L0Parser.parse(text, "expected.l0")), of(staged));
    TypeChecker.check(staged);
    assertEquals(of(staged), of(L0Parser.parse(L0Printer.print(staged), "printed.l0")));
  }
}
