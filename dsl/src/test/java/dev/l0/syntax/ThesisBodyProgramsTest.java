package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.testing.ThesisBodyPrograms;
import dev.l0.testing.ThesisBodyPrograms.Refused;
import dev.l0.testing.ThesisBodyPrograms.Run;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The programs of the thesis's body (test resources under /thesis, {@link ThesisBodyPrograms}): the
 * valid ones parse, type check and run on the reference interpreter to the result worked out by
 * hand from the thesis's semantics; the ones it presents as invalid are refused at the fault.
 */
class ThesisBodyProgramsTest {

  static Stream<Run> runs() {
    return ThesisBodyPrograms.RUNS.stream();
  }

  static Stream<Refused> refused() {
    return ThesisBodyPrograms.REFUSED.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void runsToItsResultOnTheInterpreter(Run run) {
    Program program = ThesisBodyPrograms.load(run.file());
    TypeChecker.check(program);
    FunDef entry = program.function(run.entry()).orElseThrow();
    List<Value> args =
        ValueReader.read(run.args(), entry.params().stream().map(Param::type).toList(), "args");
    Interpreter interpreter = new Interpreter(program);
    if (run.fails()) {
      L0RuntimeError e =
          assertThrows(L0RuntimeError.class, () -> interpreter.call(run.entry(), args));
      assertEquals(run.failure(), e.operation() + " at " + e.pos().line() + ":" + e.pos().column());
    } else {
      Value expected = ValueReader.read(run.result(), List.of(entry.returnType()), "result").get(0);
      assertEquals(expected, interpreter.call(run.entry(), args));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void isRefusedAtItsFault(Refused refused) {
    L0CompileError e =
        assertThrows(
            L0CompileError.class, () -> TypeChecker.check(ThesisBodyPrograms.load(refused.file())));
    assertEquals("/thesis/" + refused.file() + ".l0", e.pos().source());
    assertEquals(refused.position(), e.pos().line() + ":" + e.pos().column(), e.getMessage());
    assertTrue(e.detail().contains(refused.message()), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void printsToTextThatParsesToTheSameProgram(Run run) {
    Program program = ThesisBodyPrograms.load(run.file());
    String printed = L0Printer.print(program);
    assertEquals(printed, L0Printer.print(L0Parser.parse(printed, "printed.l0")));
  }
}
