package dev.l0.properties;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Generated programs are well typed by construction, so the checker accepts every one of them,
 * gives every expression a type, and gives each function body its declared return type. A failure
 * means the generator or the checker is wrong; the message shows the program.
 */
class TypeCheckerPropertyTest {

  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void generatedProgramsTypeCheck(@ForAll("programs") ProgramCase generated) {
    TypedProgram typed = check(generated);
    for (FunDef f : generated.program().functions()) {
      Type bodyType = typed.typeOf(f.body());
      assertTrue(
          bodyType.sameShapeAs(f.returnType()),
          () ->
              f.name()
                  + " has body type "
                  + bodyType
                  + " but declares "
                  + f.returnType()
                  + "\n"
                  + L0Printer.print(generated.program()));
      assertEveryExpressionTyped(typed, f.body());
    }
  }

  /**
   * Programs built to fail at run time are still well typed: their failure is not visible
   * statically.
   */
  @Property(tries = 1000, afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void failingProgramsTypeCheck(@ForAll("failingPrograms") FailingProgramCase failing) {
    check(failing.program());
  }

  private static TypedProgram check(ProgramCase generated) {
    try {
      return TypeChecker.check(generated.program());
    } catch (L0CompileError e) {
      throw new AssertionError(e.getMessage() + " in\n" + L0Printer.print(generated.program()), e);
    }
  }

  private static void assertEveryExpressionTyped(TypedProgram typed, Expr e) {
    assertDoesNotThrow(() -> typed.typeOf(e), () -> "no type for " + L0Printer.print(e));
    for (Expr child : e.children()) {
      assertEveryExpressionTyped(typed, child);
    }
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
