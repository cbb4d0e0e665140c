package dev.l0.kernels.sim;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.split;
import static dev.l0.dsl.L0.zip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.usage.QuantPrograms;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.testing.ProgramCase;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
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

  /**
   * A DSL program that fails when it runs fails at the user's Java line that staged the failing
   * operation, in the interpreter, optimised and on every backend: a mismatched zip, an index one
   * past the end inside a map, an integer division by zero in a loop, a split beyond the array and
   * an index whose value nothing reads.
   */
  @Test
  void runTimeErrorsNameTheJavaLineOnEveryBackend() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    assertFailsAtLine(
        line,
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (quantities, prices) -> {
                      line.set(nextLine());
                      Arr<F64> values = map(zip(quantities, prices), (q, p) -> q.mul(p));
                      return reduce(values, f64(0.0), (a, b) -> a.add(b));
                    })),
        "[1.0, 2.0, 3.0] [10.0, 20.0]");
    assertFailsAtLine(
        line,
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(Arr.of(F64.TYPE)),
                    paths ->
                        map(
                            paths,
                            path -> {
                              line.set(nextLine());
                              return path.get(path.size()).sub(100.0);
                            }))),
        "[[100.0, 101.0], [99.0, 98.0]]");
    assertFailsAtLine(
        line,
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    I32.TYPE,
                    n ->
                        loop(
                            i32(100),
                            n,
                            (acc, i) -> {
                              line.set(nextLine());
                              return acc.div(i.sub(2));
                            }))),
        "5");
    assertFailsAtLine(
        line,
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    xs -> {
                      line.set(nextLine());
                      return split(i32(3), xs)._2();
                    })),
        "[1.0, 2.0]");
    assertFailsAtLine(
        line,
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    I32.TYPE,
                    n -> {
                      Arr<I32> xs = iota(n);
                      line.set(nextLine());
                      xs.get(n.add(10));
                      return xs;
                    })),
        "4");
  }

  /** The position of the line after the caller's, where the next statement stages. */
  private static SourcePos nextLine() {
    StackWalker.StackFrame caller =
        StackWalker.getInstance().walk(frames -> frames.skip(1).findFirst()).orElseThrow();
    return new SourcePos(caller.getFileName(), caller.getLineNumber() + 1, 0);
  }

  private static void assertFailsAtLine(
      AtomicReference<SourcePos> line, Program program, String input) {
    TypedProgram typed = TypeChecker.check(program);
    List<Value> args = EveryBackend.mainArguments(typed.program(), input);
    L0RuntimeError interpreted =
        assertThrows(
            L0RuntimeError.class, () -> new Interpreter(typed.program()).call("main", args));
    assertEquals(line.get(), interpreted.pos(), interpreted.getMessage());
    OptimizedProgram optimized = Optimizer.optimize(typed);
    L0RuntimeError evaluated =
        assertThrows(L0RuntimeError.class, () -> optimized.call("main", args));
    assertEquals(line.get(), evaluated.pos(), "optimised: " + evaluated.getMessage());
    assertEquals(
        List.of(),
        KernelArrayProgramsOnEveryBackendTest.problemsOnEveryBackend(
            line.get().toString(), new ProgramCase(typed.program(), "main", args), optimized));
  }
}
