package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Value;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Supplier;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The optimiser changes no result and no failure: on random well-typed programs the reference
 * interpreter and the evaluator of the flattened and of the optimised internal program give
 * bit-identical values (Value equality is bitwise for floats), and fail exactly when it fails, in
 * the same operation. Every name of the optimised program is bound once. Seeds are fixed; jqwik
 * shrinks a failing program and reports the seed.
 */
class OptimizerPropertiesTest {
  private static final String SEED = "20261122";

  /** A run's outcome: a value, or the operation of the run-time error. */
  private record Outcome(Value value, String failedOperation) {
    static Outcome of(Supplier<Value> run) {
      try {
        return new Outcome(run.get(), null);
      } catch (L0RuntimeError e) {
        return new Outcome(null, e.operation());
      }
    }

    boolean failed() {
      return failedOperation != null;
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
    assertEquals(expected, actual, () -> "flattened program differs:\n" + Optimizer.flattenOnly(typed).explain());
  }

  @Property(tries = 1000, seed = SEED)
  void optimisationKeepsEveryResultAndFailure(@ForAll("programs") ProgramCase c) {
    TypedProgram typed = TypeChecker.check(c.program());
    Outcome expected = interpreted(c);
    OptimizedProgram optimized = Optimizer.optimize(typed);
    Outcome actual = Outcome.of(() -> optimized.call(c.entry(), c.args()));
    assertEquals(expected, actual, () -> "optimised program differs:\n" + optimized.explain());
    List<String> names = bindersOf(optimized.internal());
    assertEquals(new HashSet<>(names).size(), names.size(), () -> "a name is bound twice:\n" + optimized.explain());
  }

  /** Every name bound anywhere in the program, with repeats: parameters, patterns, lambda and loop variables. */
  private static List<String> bindersOf(InternalProgram program) {
    List<String> out = new ArrayList<>();
    for (InternalFunction f : program.functions()) {
      f.params().forEach(p -> out.add(p.name()));
      addBinders(f.body(), out);
    }
    return out;
  }

  private static void addBinders(Body body, List<String> out) {
    for (Stm stm : body.stms()) {
      stm.pattern().forEach(p -> out.add(p.name()));
      if (stm.exp() instanceof Exp.Loop l) {
        l.mergeParams().forEach(p -> out.add(p.name()));
        out.add(l.counter().name());
      }
      stm.exp().bodies().forEach(b -> addBinders(b, out));
      for (Lambda l : stm.exp().lambdas()) {
        l.params().forEach(p -> out.add(p.name()));
        addBinders(l.body(), out);
      }
    }
  }

  @Property(tries = 300, seed = SEED)
  void optimisedProgramsFailWhereTheOriginalFails(@ForAll("failingPrograms") FailingProgramCase f) {
    ProgramCase c = f.program();
    assertEquals(f.operation(), interpreted(c).failedOperation());
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
    Outcome actual = Outcome.of(() -> optimized.call(c.entry(), c.args()));
    assertEquals(f.operation(), actual.failedOperation(), () -> "the optimised program fails differently:\n" + optimized.explain());
  }
}
