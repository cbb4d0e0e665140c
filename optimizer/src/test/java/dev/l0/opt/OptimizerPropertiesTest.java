package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.opt.ir.IrChecker;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.Optional;
import java.util.function.Supplier;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The optimiser changes no result and no failure: on random well-typed programs the reference
 * interpreter and the evaluator of the flattened and of the optimised internal program give
 * bit-identical values (Value equality is bitwise for floats), and fail exactly when it fails, in
 * the same operation at the same source position. The optimised program is well formed ({@link
 * IrChecker}: every name bound once, types consistent). Seeds are fixed; jqwik shrinks a failing
 * program and reports the seed.
 */
class OptimizerPropertiesTest {
  private static final String SEED = "20261122";

  /** A run's outcome: a value, or the run-time error's operation and source position. */
  private record Outcome(Value value, String failure) {
    static Outcome of(Supplier<Value> run) {
      try {
        return new Outcome(run.get(), null);
      } catch (L0RuntimeError e) {
        return new Outcome(null, e.operation() + " at " + e.pos());
      }
    }

    boolean failed() {
      return failure != null;
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

  private static Outcome interpreted(ProgramCase c) {
    return Outcome.of(() -> new Interpreter(c.program()).call(c.entry(), c.args()));
  }

  @Property(tries = 1000, seed = SEED)
  void flatteningKeepsEveryResultAndFailure(@ForAll("programs") ProgramCase c) {
    TypedProgram typed = TypeChecker.check(c.program());
    Outcome expected = interpreted(c);
    Outcome actual = Outcome.of(() -> Optimizer.flattenOnly(typed).call(c.entry(), c.args()));
    assertEquals(
        expected,
        actual,
        () -> "flattened program differs:\n" + Optimizer.flattenOnly(typed).explain());
  }

  @Property(tries = 1000, seed = SEED)
  void optimisationKeepsEveryResultAndFailure(@ForAll("programs") ProgramCase c) {
    TypedProgram typed = TypeChecker.check(c.program());
    Outcome expected = interpreted(c);
    OptimizedProgram optimized = Optimizer.optimize(typed);
    Outcome actual = Outcome.of(() -> optimized.call(c.entry(), c.args()));
    assertEquals(expected, actual, () -> "optimised program differs:\n" + optimized.explain());
    assertEquals(
        Optional.empty(),
        IrChecker.problem(optimized.internal()),
        () -> "ill-formed:\n" + optimized.explain());
  }

  @Property(tries = 300, seed = SEED)
  void optimisedProgramsFailWhereTheOriginalFails(@ForAll("failingPrograms") FailingProgramCase f) {
    ProgramCase c = f.program();
    Outcome interpreted = interpreted(c);
    assertTrue(interpreted.failed() && interpreted.failure().startsWith(f.operation() + " at "));
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
    Outcome actual = Outcome.of(() -> optimized.call(c.entry(), c.args()));
    assertEquals(
        interpreted.failure(),
        actual.failure(),
        () -> "the optimised program fails differently:\n" + optimized.explain());
  }
}
