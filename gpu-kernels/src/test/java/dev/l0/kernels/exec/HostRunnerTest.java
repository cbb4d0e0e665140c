package dev.l0.kernels.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.UnsupportedKernelException;
import dev.l0.opt.KernelPlan;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import dev.l0.values.ValueReader;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The host runner gives the interpreter's results and failures whichever executor runs the kernels:
 * the evaluator, an executor that rejects every kernel (each rejection recorded), and kernels
 * inside sequential loops run once per iteration.
 */
class HostRunnerTest {
  private static final String PORTFOLIO = "/programs/portfolio.l0";

  /** Rejects every kernel, so the runner must fall back for each. */
  private static final class RejectingExecutor implements KernelExecutor {
    @Override
    public String name() {
      return "rejecting";
    }

    @Override
    public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
      throw new UnsupportedKernelException("this test rejects " + kernel.structure());
    }
  }

  /** The evaluator, counting the kernel runs. */
  private static final class CountingExecutor implements KernelExecutor {
    final AtomicInteger runs = new AtomicInteger();

    @Override
    public String name() {
      return "counting";
    }

    @Override
    public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
      PreparedKernel inner = new EvaluatorExecutor().prepare(kernel, scope);
      return environment -> {
        runs.incrementAndGet();
        return inner.run(environment);
      };
    }
  }

  static Program portfolio() {
    return L0Parser.parse(TestPrograms.text("portfolio"), PORTFOLIO);
  }

  static List<Value> arguments(Program program, String function, String text) {
    return ValueReader.read(
        text,
        program.function(function).orElseThrow().params().stream().map(Param::type).toList(),
        "args");
  }

  private static void assertSameAsInterpreter(
      Program program, KernelExecutor executor, String function, String args) {
    List<Value> values = arguments(program, function, args);
    HostRunner runner = HostRunner.compile(program, executor);
    assertEquals(
        RunOutcome.of(() -> new Interpreter(program).call(function, values)).withoutMessage(),
        RunOutcome.of(() -> runner.call(function, values)).withoutMessage());
  }

  @Test
  void corpusProgramsGiveTheInterpretersResultsOnTheEvaluator() {
    EvaluatorExecutor evaluator = new EvaluatorExecutor();
    assertSameAsInterpreter(
        TestPrograms.load(TestPrograms.P0_BLACKSCHOLES),
        evaluator,
        "blackscholes",
        "[{true, 58.0, 65.0, 0.25, 0.08, 0.3}, {false, 100.0, 90.0, 1.5, 0.05, 0.2}]");
    assertSameAsInterpreter(
        TestPrograms.load(TestPrograms.P1_MATMUL),
        evaluator,
        "main",
        "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10], [11, 12]]");
    assertSameAsInterpreter(
        TestPrograms.load(TestPrograms.P1_MATMUL),
        evaluator,
        "main",
        "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10]]");
    assertSameAsInterpreter(
        TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS), evaluator, "main", "");
    assertSameAsInterpreter(
        TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS),
        evaluator,
        "shortest",
        "[[0, 5, 9, 2], [5, 0, 1, 7], [9, 1, 0, 3], [2, 7, 3, 0]]");
    assertSameAsInterpreter(portfolio(), evaluator, "main", "[2.0, -1.0, 3.0] [10.0, 4.0, -5.0]");
  }

  @Test
  void aKernelTheExecutorCannotLowerIsACompileErrorNotAnEvaluatorRun() {
    Program p2 = TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS);
    L0CompileError error =
        assertThrows(L0CompileError.class, () -> HostRunner.compile(p2, new RejectingExecutor()));
    assertEquals(
        "cannot lower the map at 17:9 in main (fused with the map at 14:14, the map at 15:15 and"
            + " the map at 16:19) to kernels for the rejecting backend: this test rejects"
            + " map{map{redomap}}",
        error.detail(),
        error.getMessage());
  }

  /**
   * A kernel the JVM backend cannot lower is named as the program wrote it: the SOAC's L0 name (a
   * fused reduce of a map is the reduce, fused with the map), its line and column and its function,
   * after the position of the construct it cannot lower; none of the optimiser's names (its fresh
   * variables, its kernel structure) appear.
   */
  @Test
  void aKernelTheJvmBackendCannotLowerIsNamedAsTheProgramWroteIt() {
    String fib = "fun i32 fib(i32 n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\n";
    String notInlined =
        " to kernels for the jvm backend: a call of 'fib' inside a kernel, which the optimiser did"
            + " not inline (it does not inline recursive functions; write the recursion as a loop)";
    assertEquals(
        "fib.l0:3:3: cannot lower the map at 3:3 in main" + notInlined,
        jvmRejection(
            fib + "fun [i32] main([i32] xs) =\n  map(fn i32 (i32 x) => fib(x) + 1, xs)\n"));
    assertEquals(
        "fib.l0:3:3: cannot lower the reduce at 3:3 in main (fused with the map at 3:19)"
            + notInlined,
        jvmRejection(
            fib
                + "fun i32 main([i32] xs) =\n"
                + "  reduce(op +, 0, map(fn i32 (i32 x) => fib(x), xs))\n"));
    assertEquals(
        "fib.l0:3:36: cannot lower the filter near 3:36 in main" + notInlined,
        jvmRejection(
            fib + "fun [i32] main([i32] xs) =\n  filter(fn bool (i32 x) => fib(x) > 1, xs)\n"));
    assertEquals(
        "fib.l0:1:75: cannot lower the map at 1:28 in main to kernels for the jvm backend: an array"
            + " inside a kernel thread whose size depends on values the kernel computes, so the host"
            + " cannot bound it before the kernel runs",
        jvmRejection(
            "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => let a = copy(iota(x)) in let b = a"
                + " with [0] <- 1 in reduce(op +, 0, b), xs)\n"));
  }

  /**
   * An inner map that makes an array of a row's own size (a binomial tree's first layer, {@code
   * iota(n + 1)} of the row's step count) is the construct the backend cannot lower: the error
   * starts at that map's keyword, where its function's code has no position of its own (a
   * conversion), not at the kernel's map (it said {@code 2:3}, the outer map, before).
   */
  @Test
  void anInnerMapOfARowsOwnSizeIsNamedAtItsKeyword() {
    assertEquals(
        "fib.l0:3:18: cannot lower the map at 2:3 in main to kernels for the jvm backend: an array"
            + " inside a kernel thread whose size depends on values the kernel computes, so the host"
            + " cannot bound it before the kernel runs",
        jvmRejection(
            "fun [f64] main([i32] ns) =\n"
                + "  map(fn f64 (i32 n) =>\n"
                + "        let v0 = map(fn f64 (i32 i) => f64(i), iota(n + 1)) in\n"
                + "        loop (v = v0) = for k < n do\n"
                + "          map(fn f64 (i32 i) => v[i + 1] + v[i], iota(size(0, v) - 1))\n"
                + "        in v[0],\n"
                + "      ns)\n"));
  }

  /**
   * Two maps of one array fused into one kernel (horizontally): a construct the backend cannot
   * lower in the second is named with both maps, since the kernel holds both; before, the message
   * named only the first, which lowers fine.
   */
  @Test
  void aKernelFusedFromSeveralSoacsNamesEachAsWritten() {
    assertEquals(
        "fib.l0:3:62: cannot lower the map at 2:4 in main (fused with the map at 3:4) to kernels for"
            + " the jvm backend: an array inside a kernel thread whose size depends on values the"
            + " kernel computes, so the host cannot bound it before the kernel runs",
        jvmRejection(
            "fun {[i32], [i32]} main([i32] xs) =\n"
                + "  {map(fn i32 (i32 x) => x + 1, xs),\n"
                + "   map(fn i32 (i32 x) => size(0, filter(fn bool (i32 j) => j > 1, iota(x))),"
                + " xs)}\n"));
  }

  private static String jvmRejection(String text) {
    Program program = L0Parser.parse(text, "fib.l0");
    return assertThrows(
            L0CompileError.class, () -> HostRunner.compile(program, new JvmKernelExecutor()))
        .getMessage();
  }

  @Test
  void aKernelInsideASequentialLoopRunsOncePerIteration() {
    Program program =
        L0Parser.parse(
            "fun i32 main([i32] xs, i32 n) =\n"
                + "  loop (acc = 0) = for i < n do\n"
                + "    acc + reduce(op +, 0, map(fn i32 (i32 x) => x * i, xs))\n"
                + "  in acc\n",
            "loop.l0");
    CountingExecutor counting = new CountingExecutor();
    HostRunner runner = HostRunner.compile(program, counting);
    List<Value> args = arguments(program, "main", "[1, 2, 3] 4");
    assertEquals(new Interpreter(program).call("main", args), runner.call("main", args));
    assertEquals(4, counting.runs.get());
  }

  @Test
  void argumentsOfTheWrongTypeAreRejectedBeforeRunning() {
    HostRunner runner = HostRunner.compile(portfolio(), new EvaluatorExecutor());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> runner.call("main", List.of(ScalarValue.i32(1), ScalarValue.i32(2))));
    assertTrue(e.getMessage().contains("argument 1 of main"), e.getMessage());
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Property(tries = 200, seed = "20261123")
  void randomProgramsGiveTheInterpretersResultsAndFailures(@ForAll("programs") ProgramCase c) {
    HostRunner runner = HostRunner.compile(c.program(), new EvaluatorExecutor());
    assertEquals(
        RunOutcome.of(() -> new Interpreter(c.program()).call(c.entry(), c.args()))
            .withoutMessage(),
        RunOutcome.of(() -> runner.call(c.entry(), c.args())).withoutMessage());
  }
}
