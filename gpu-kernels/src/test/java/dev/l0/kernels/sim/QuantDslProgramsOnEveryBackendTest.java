package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.dsl.usage.QuantPrograms;
import dev.l0.interp.Interpreter;
import dev.l0.ir.Value;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.testing.ProgramCase;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The risk programs a new user writes in the Java DSL ({@link QuantPrograms}, which {@code dsl}'s
 * {@code QuantDslNewUserTest} checks against their L0 text) give the reference interpreter's result
 * optimised, and on the simulator (blocks of 1 and 32 threads) and the JVM backend, every backend
 * the same (and the interpreter's bits except where a float reduction may follow another order).
 */
class QuantDslProgramsOnEveryBackendTest {
  @TestFactory
  Stream<DynamicTest> eachDslProgramGivesTheInterpretersResultEverywhere() {
    return QuantPrograms.all().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      TypedProgram typed = TypeChecker.check(c.staged());
                      List<Value> args = EveryBackend.mainArguments(typed.program(), c.input());
                      Value reference = new Interpreter(typed.program()).call("main", args);
                      OptimizedProgram optimized = Optimizer.optimize(typed);
                      assertEquals(reference, optimized.call("main", args), "optimised");
                      assertEquals(
                          List.of(),
                          KernelArrayProgramsOnEveryBackendTest.problemsOnEveryBackend(
                              c.name(), new ProgramCase(typed.program(), "main", args), optimized));
                    }));
  }
}
