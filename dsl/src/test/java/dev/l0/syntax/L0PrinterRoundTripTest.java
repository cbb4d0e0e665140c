package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.Expr;
import dev.l0.ir.Program;
import dev.l0.testing.SourcePositions;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@code parse(print(p)) = p} on random syntax trees of every node kind, pattern, function argument
 * and type.
 */
class L0PrinterRoundTripTest {
  @Property(tries = 1500)
  void printedExpressionsParseBackToTheSameTree(@ForAll long seed) {
    Expr original = new RandomSyntax(seed).expr(5);
    String text = L0Printer.print(original);
    Expr reparsed = SourcePositions.erase(L0Parser.parseExpression(text, "printed.l0"));
    assertEquals(original, reparsed, () -> "printed as:\n" + text);
  }

  @Property(tries = 500)
  void printedProgramsParseBackToTheSameProgramAndPrintTheSame(@ForAll long seed) {
    Program original = new RandomSyntax(seed).program();
    String text = L0Printer.print(original);
    Program reparsed = L0Parser.parse(text, "printed.l0");
    assertEquals(original, SourcePositions.erase(reparsed), () -> "printed as:\n" + text);
    assertEquals(text, L0Printer.print(reparsed));
  }

  @Property(tries = 300)
  void printedTypesParseBack(@ForAll long seed) {
    var type = new RandomSyntax(seed).type(4, true);
    assertEquals(type, L0Parser.parseType(L0Printer.print(type), "type"));
  }
}
