package dev.l0.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.SourcePositions;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Printing a program and parsing the text gives the same program, up to source positions. */
class PrinterParserRoundTripPropertyTest {

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void printedProgramsParseBackToThemselves(@ForAll("programs") ProgramCase generated) {
    Program program = generated.program();
    String text = L0Printer.print(program);
    Program parsed = L0Parser.parse(text, "gen");
    assertEquals(SourcePositions.erase(program), SourcePositions.erase(parsed), text);
  }

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void printedBodiesAndTypesParseBackAlone(@ForAll("programs") ProgramCase generated) {
    var entry = generated.entryFunction();
    String body = L0Printer.print(entry.body());
    assertEquals(
        SourcePositions.erase(entry.body()),
        SourcePositions.erase(L0Parser.parseExpression(body, "gen")),
        body);
    assertEquals(
        entry.returnType(), L0Parser.parseType(L0Printer.print(entry.returnType()), "gen"));
    for (Param p : entry.params()) {
      assertEquals(p.type(), L0Parser.parseType(L0Printer.print(p.type()), "gen"));
    }
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }
}
