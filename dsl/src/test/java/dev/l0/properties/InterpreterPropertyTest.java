package dev.l0.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.ValueShapes;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The interpreter runs well-typed programs to a value of the entry's return type, and fails only
 * with {@link L0RuntimeError} naming the failing operation.
 */
class InterpreterPropertyTest {

  /**
   * Generated programs track sizes so that zips, reshapes, splits, divisions and most indexing
   * cannot fail; only the rare deliberate out-of-bounds index may, and must report {@code index}.
   */
  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void runsToAValueOfTheReturnTypeOrAnIndexError(@ForAll("programs") ProgramCase generated) {
    Value result;
    try {
      result = new Interpreter(generated.program()).call(generated.entry(), generated.args());
    } catch (L0RuntimeError e) {
      assertEquals("index", e.operation(), () -> e.getMessage() + "\n" + describe(generated));
      return;
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("unexpected " + e + "\n" + describe(generated), e);
    }
    Value value = result;
    assertTrue(
        ValueShapes.conforms(value, generated.entryFunction().returnType()),
        () ->
            "result "
                + value
                + " does not have type "
                + generated.entryFunction().returnType()
                + "\n"
                + describe(generated));
  }

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void failingProgramsRaiseARuntimeErrorNamingTheOperation(
      @ForAll("failingPrograms") FailingProgramCase failing) {
    ProgramCase generated = failing.program();
    try {
      Value result = new Interpreter(generated.program()).call(generated.entry(), generated.args());
      fail(
          "expected a failure in "
              + failing.operation()
              + " but got "
              + result
              + "\n"
              + describe(generated));
    } catch (L0RuntimeError e) {
      assertEquals(
          failing.operation(), e.operation(), () -> e.getMessage() + "\n" + describe(generated));
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("unexpected " + e + "\n" + describe(generated), e);
    }
  }

  private static String describe(ProgramCase generated) {
    return L0Printer.print(generated.program()) + "\n// arguments: " + generated.args();
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Provide
  Arbitrary<FailingProgramCase> failingPrograms() {
    return RandomPrograms.failingPrograms();
  }
}
