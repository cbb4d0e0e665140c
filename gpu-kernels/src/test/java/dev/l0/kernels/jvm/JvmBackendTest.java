package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.EvaluatorExecutor;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.RunOutcome;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.FailingProgramCase;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.ReferenceData;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JVM backend gives the interpreter's results: bit-identical for the corpus, random programs,
 * integer SOACs and maps at every size (one chunk, a prime, around a chunk boundary, many chunks),
 * and for float reductions and scans exactly the reduction-order contract's reference ({@link
 * ReductionOrder}); failures are the interpreter's, from the first failing row.
 */
class JvmBackendTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  private static List<Value> arguments(Program program, String function, String text) {
    return ValueReader.read(
        text,
        program.function(function).orElseThrow().params().stream().map(Param::type).toList(),
        "args");
  }

  /**
   * The same value as the interpreter, or a failure in the same operation; and the outcome of the
   * same optimised program with every kernel on the evaluator, a failure at the same source
   * position (a kernel's error names its operation and position, not the values involved).
   */
  private static void assertSameAsInterpreter(
      HostRunner runner, Program program, String function, List<Value> args) {
    RunOutcome jvm = RunOutcome.of(() -> runner.call(function, args));
    assertEquals(
        RunOutcome.of(() -> new Interpreter(program).call(function, args)).withoutMessage(),
        jvm.withoutMessage());
    RunOutcome evaluated =
        RunOutcome.of(
            () -> HostRunner.compile(program, new EvaluatorExecutor()).call(function, args));
    assertEquals(evaluated.withoutMessage(), jvm.withoutMessage());
    assertEquals(failedAt(evaluated), failedAt(jvm));
  }

  /**
   * Where a failing run failed: its error message up to the operation ({@code file:line:column: }),
   * or null for a value.
   */
  private static String failedAt(RunOutcome outcome) {
    return outcome.failure() == null
        ? null
        : outcome
            .failure()
            .substring(0, outcome.failure().indexOf(outcome.failedOperation() + ":"));
  }

  @Test
  void blackScholesAndThePortfolioRunOnTheJvmWithoutFallback() {
    Program p0 = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    HostRunner runner = HostRunner.compile(p0, JVM);
    assertEquals("jvm", runner.executorName());
    assertSameAsInterpreter(
        runner,
        p0,
        "blackscholes",
        arguments(
            p0,
            "blackscholes",
            "[{true, 58.0, 65.0, 0.25, 0.08, 0.3}, {false, 58.0, 65.0, 0.25, 0.08, 0.3}, {true, 100.0, 90.0, 1.5, 0.05, 0.2}]"));
    Program portfolio = L0Parser.parse(TestPrograms.text("portfolio"), "portfolio.l0");
    HostRunner portfolioRunner = HostRunner.compile(portfolio, JVM);
    assertSameAsInterpreter(
        portfolioRunner,
        portfolio,
        "main",
        arguments(portfolio, "main", "[2.0, -1.0, 3.0] [10.0, 4.0, -5.0]"));
  }

  @Test
  void matrixProgramsRunAsOneThreadPerOuterElementWithoutFallback() {
    Program p1 = TestPrograms.load(TestPrograms.P1_MATMUL);
    HostRunner runner = HostRunner.compile(p1, JVM);
    assertSameAsInterpreter(
        runner,
        p1,
        "main",
        arguments(p1, "main", "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10], [11, 12]]"));
    assertSameAsInterpreter(
        runner, p1, "main", arguments(p1, "main", "[[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10]]"));
    assertSameAsInterpreter(
        runner, p1, "main", List.of(randomMatrix(37, 19, 1), randomMatrix(19, 23, 2)));
    Program p2 = TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS);
    HostRunner shortest = HostRunner.compile(p2, JVM);
    assertSameAsInterpreter(shortest, p2, "main", List.of());
    assertSameAsInterpreter(
        shortest,
        p2,
        "shortest",
        arguments(p2, "shortest", "[[0, 5, 9, 2], [5, 0, 1, 7], [9, 1, 0, 3], [2, 7, 3, 0]]"));
    assertSameAsInterpreter(shortest, p2, "shortest", List.of(randomMatrix(41, 41, 3)));
  }

  private static Value randomMatrix(int rows, int columns, long seed) {
    Random random = new Random(seed);
    List<Value> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      List<Value> row = new ArrayList<>();
      for (int j = 0; j < columns; j++) {
        row.add(ScalarValue.i32(random.nextInt(1000)));
      }
      out.add(new Value.Array(ScalarType.I32, row));
    }
    return new Value.Array(Type.array(ScalarType.I32), out);
  }

  @Test
  void aKernelTheBackendCannotLowerIsACompileErrorWithItsPosition() {
    Program program =
        L0Parser.parse(
            "fun [[i32]] main([i32] xs) = map(fn [i32] (i32 x) => iota(x), xs)\n", "iota.l0");
    L0CompileError error =
        assertThrows(L0CompileError.class, () -> HostRunner.compile(program, JVM));
    assertTrue(
        error.detail().contains("to kernels for the jvm backend: ")
            && error.detail().contains("size"),
        error.getMessage());
    assertTrue(error.getMessage().startsWith("iota.l0:1:"), error.getMessage());
  }

  /**
   * replicate and iota inside a function are views, not allocations; their sizes fail as the
   * interpreter's do.
   */
  @Test
  void thePartsOfASplitAtARowsOwnValueAreBoundedByTheSplitArrayWhenConcatenated() {
    Program program =
        L0Parser.parse(
            "fun [i32] main([i32] row, [i32] ks) = map(fn i32 (i32 k) =>\n"
                + "  let {a, b} = split(k, row) in\n"
                + "  let c = concat(b, a) in c[0] * 10 + c[size(0, c) - 1], ks)\n",
            "splitconcat.l0");
    HostRunner runner = HostRunner.compile(program, JVM);
    assertSameAsInterpreter(
        runner, program, "main", arguments(program, "main", "[1, 2, 3, 4, 5] [0, 1, 3, 5]"));
    assertSameAsInterpreter(
        runner, program, "main", arguments(program, "main", "[1, 2, 3, 4, 5] [0, 6, 3]"));
    assertSameAsInterpreter(
        runner, program, "main", arguments(program, "main", "[1, 2, 3, 4, 5] [2, -1]"));
  }

  @Test
  void arraysBuiltInsideAFunctionAreReadInPlace() {
    Program program =
        L0Parser.parse(
            "fun [i64] main([i32] xs) = map(fn i64 (i32 x) =>\n"
                + "  let r = replicate(x, iota(3i64)) in\n"
                + "  reduce(op +, 0i64, map(fn i64 (i64 y) => y * i64(x), r[x / 2])) + r[0, 2], xs)\n",
            "views.l0");
    HostRunner runner = HostRunner.compile(program, JVM);
    assertSameAsInterpreter(runner, program, "main", arguments(program, "main", "[1, 2, 3, 40]"));
    assertSameAsInterpreter(runner, program, "main", arguments(program, "main", "[1, 2, -3, 40]"));
    assertSameAsInterpreter(runner, program, "main", arguments(program, "main", "[1, 2, 0, 40]"));
    assertEquals(
        "replicate",
        RunOutcome.of(() -> runner.call("main", arguments(program, "main", "[-3]")))
            .failedOperation());
  }

  /**
   * A thread's array sized by min(a per-thread value, an input's size) runs: the host bounds it by
   * the input's size (iota(x) alone is rejected, above), and each thread fills only its own length.
   */
  @Test
  void anArrayClampedToAnInputsSizeIsBoundedByThatSize() {
    Program program =
        L0Parser.parse(
            "fun [f64] main([i32] xs, [f64] ys) = map(fn f64 (i32 x) =>\n"
                + "  let a = map(fn f64 (i32 i) => ys[i] * f64(x), iota(min(x, size(0, ys)))) in\n"
                + "  loop (s = 0.0) = for i < size(0, a) do s + a[i] in s, xs)\n",
            "clamped.l0");
    HostRunner runner = HostRunner.compile(program, JVM);
    assertEquals("jvm", runner.executorName());
    assertSameAsInterpreter(
        runner,
        program,
        "main",
        arguments(program, "main", "[0, 1, 3, 9, 2] [0.5, 1.5, 2.5, 3.5]"));
    assertSameAsInterpreter(
        runner, program, "main", arguments(program, "main", "[4, -1] [1.0, 2.0]"));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 17, 4099})
  void filterKeepsWholeRowsInOrder(int n) {
    Program program =
        L0Parser.parse(
            "fun [[i64]] main([[i64]] rows) = filter(fn bool ([i64] r) => r[0] % 3i64 = 0i64, rows)\n",
            "rows.l0");
    Random random = new Random(n);
    List<Value> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(
          new Value.Array(
              ScalarType.I64, List.of(ScalarValue.i64(random.nextInt(100)), ScalarValue.i64(i))));
    }
    HostRunner runner = HostRunner.compile(program, JVM);
    assertSameAsInterpreter(
        runner, program, "main", List.of(new Value.Array(Type.array(ScalarType.I64), rows)));
  }

  /**
   * The PARSEC options: within the benchmark's 1e-4 of DerivaGem's values, and bit-identical to the
   * interpreter.
   */
  @Test
  void blackScholesPricesTheParsecOptions() {
    List<Value> options = new ArrayList<>();
    List<Double> reference = new ArrayList<>();
    for (String line : ReferenceData.read("blackscholes/parsec_derivagem_ref.txt").split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      options.add(
          new Value.Tuple(
              List.of(
                  ScalarValue.bool(f[6].equals("C")),
                  f64(f[0]),
                  f64(f[1]),
                  f64(f[5]),
                  f64(f[2]),
                  f64(f[4]))));
      reference.add(Double.parseDouble(f[8]));
    }
    assertEquals(40, options.size());
    Program p0 = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    Type option = TestPrograms.P0_OPTION;
    List<Value> args = List.of(new Value.Array(option, options));
    Value.Array prices = (Value.Array) HostRunner.compile(p0, JVM).call("blackscholes", args);
    assertEquals(new Interpreter(p0).call("blackscholes", args), prices);
    for (int i = 0; i < reference.size(); i++) {
      double price = ((ScalarValue.Float) prices.get(i)).value();
      assertTrue(
          Math.abs(price - reference.get(i)) < 1e-4,
          "option " + i + ": " + price + " vs " + reference.get(i));
    }
  }

  private static ScalarValue f64(String text) {
    return ScalarValue.f64(Double.parseDouble(text));
  }

  private static final Program INTEGER_PIPELINE =
      L0Parser.parse(
          "fun {i32, [i32], [i64], [i32], {i64, i32}} main([i32] xs, [i64] ys) =\n"
              + "  let zs = map(fn i32 (i32 x) => x * 31 + (x >> 3) - x % 7, xs) in\n"
              + "  let total = reduce(op +, 0, zs) in\n"
              + "  let prefix = scan(op +, 0, zs) in\n"
              + "  let mixed = scan(op *, 1i64, map(fn i64 (i64 y) => y % 5i64 + 1i64, ys)) in\n"
              + "  let evens = filter(fn bool (i32 z) => z % 2 = 0, zs) in\n"
              + "  let best = reduce(fn {i64, i32} ({i64, i32} a, {i64, i32} b) =>\n"
              + "      let {av, ai} = a in let {bv, bi} = b in if bv > av then {bv, bi} else {av, ai},\n"
              + "      {-1i64, -1}, zip(ys, iota(size(0, ys)))) in\n"
              + "  {total, prefix, mixed, evens, best}\n",
          "pipeline.l0");

  /**
   * Sizes: empty, one, a prime, around the 16-element chunk, many chunks, more chunks than the task
   * count.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 15, 16, 17, 255, 257, 4099, 100_003})
  void integerSoacsAreBitIdenticalToTheInterpreterAtEverySize(int n) {
    Random random = new Random(n);
    List<Value> xs = new ArrayList<>();
    List<Value> ys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      xs.add(ScalarValue.i32(random.nextInt()));
      ys.add(ScalarValue.i64(random.nextLong()));
    }
    List<Value> args =
        List.of(new Value.Array(ScalarType.I32, xs), new Value.Array(ScalarType.I64, ys));
    HostRunner runner = HostRunner.compile(INTEGER_PIPELINE, JVM);
    assertSameAsInterpreter(runner, INTEGER_PIPELINE, "main", args);
  }

  private static final Program FLOAT_REDUCTIONS =
      L0Parser.parse(
          "fun {f64, [f32]} main([f64] xs, [f32] ys) =\n"
              + "  {reduce(op +, 0.0, map(fn f64 (f64 x) => x * 1.1, xs)), scan(op +, 0.0f32, ys)}\n",
          "floats.l0");

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 17, 257, 4099, 100_003})
  void floatReductionsFollowTheContractOrderExactly(int n) {
    Random random = new Random(n);
    double[] xs = new double[n];
    float[] ys = new float[n];
    List<Value> xValues = new ArrayList<>();
    List<Value> yValues = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      xs[i] = random.nextGaussian() * 1e6;
      ys[i] = (float) random.nextGaussian();
      xValues.add(ScalarValue.f64(xs[i]));
      yValues.add(ScalarValue.f32(ys[i]));
    }
    HostRunner runner = HostRunner.compile(FLOAT_REDUCTIONS, JVM);
    Value.Tuple result =
        (Value.Tuple)
            runner.call(
                "main",
                List.of(
                    new Value.Array(ScalarType.F64, xValues),
                    new Value.Array(ScalarType.F32, yValues)));

    double sum = ReductionOrder.reduce(n, 0.0, (acc, i) -> acc + xs[(int) i] * 1.1, Double::sum);
    assertEquals(ScalarValue.f64(sum), result.elements().get(0));
    List<Float> prefix =
        ReductionOrder.scan(n, 0.0f, (acc, i) -> acc + ys[(int) i], (a, b) -> a + b);
    List<Value> expected = prefix.stream().map(v -> (Value) ScalarValue.f32(v)).toList();
    assertEquals(new Value.Array(ScalarType.F32, expected), result.elements().get(1));
  }

  @Test
  void theFirstFailingRowDecidesTheError() {
    Program program =
        L0Parser.parse(
            "fun [i32] main([i32] xs, [i32] table) = map(fn i32 (i32 x) => 1000 / x + table[x], xs)\n",
            "fail.l0");
    HostRunner runner = HostRunner.compile(program, JVM);
    List<Value> table = new ArrayList<>();
    List<Value> xs = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      table.add(ScalarValue.i32(i));
      xs.add(ScalarValue.i32(i % 40_000 + 1));
    }
    List<Value> ok =
        List.of(new Value.Array(ScalarType.I32, xs), new Value.Array(ScalarType.I32, table));
    assertSameAsInterpreter(runner, program, "main", ok);
    List<Value> outOfBounds = new ArrayList<>(xs);
    outOfBounds.set(30_000, ScalarValue.i32(60_000));
    outOfBounds.set(45_000, ScalarValue.i32(0));
    RunOutcome failure =
        RunOutcome.of(
            () ->
                runner.call(
                    "main",
                    List.of(
                        new Value.Array(ScalarType.I32, outOfBounds),
                        new Value.Array(ScalarType.I32, table))));
    assertEquals("index", failure.failedOperation());
    assertSameAsInterpreter(
        runner,
        program,
        "main",
        List.of(
            new Value.Array(ScalarType.I32, outOfBounds), new Value.Array(ScalarType.I32, table)));
    outOfBounds.set(20_000, ScalarValue.i32(0));
    assertSameAsInterpreter(
        runner,
        program,
        "main",
        List.of(
            new Value.Array(ScalarType.I32, outOfBounds), new Value.Array(ScalarType.I32, table)));
  }

  @Test
  void generatedCodeWorksOnPrimitiveArraysWithoutValues() {
    Program p0 = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(p0));
    KernelGroup group =
        KernelLowering.lower(
            optimized.kernelPlan(),
            optimized.kernelPlan().kernels().get(0),
            LaunchConfiguration.THREAD_PER_ROW);
    String source = JavaKernelIrPrinter.print(group.kernels().get(0)).source();
    assertTrue(source.contains("final double[] in_"), source);
    assertFalse(source.contains("dev.l0.ir.Value"), source);
    assertFalse(source.contains("Double.valueOf"), source);
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Property(tries = 300, seed = "20261123")
  void randomProgramsGiveTheInterpretersResultsAndFailures(@ForAll("programs") ProgramCase c) {
    assertSameAsInterpreter(HostRunner.compile(c.program(), JVM), c.program(), c.entry(), c.args());
  }

  @Provide
  Arbitrary<FailingProgramCase> failingPrograms() {
    return RandomPrograms.failingPrograms();
  }

  /** Random programs that fail at run time, half of them inside a kernel's rows. */
  @Property(tries = 100, seed = "20261123")
  void randomFailingProgramsFailAsTheInterpreter(@ForAll("failingPrograms") FailingProgramCase f) {
    ProgramCase c = f.program();
    assertSameAsInterpreter(HostRunner.compile(c.program(), JVM), c.program(), c.entry(), c.args());
  }

  @Test
  void failuresAreRuntimeErrorsNotCrashes() {
    Program program =
        L0Parser.parse(
            "fun i64 main([i64] xs) = reduce(op +, 0i64, map(fn i64 (i64 x) => 7i64 % x, xs))\n",
            "mod.l0");
    List<Value> args = arguments(program, "main", "[1i64, 2i64, 0i64, 4i64]");
    L0RuntimeError error =
        assertThrows(
            L0RuntimeError.class, () -> HostRunner.compile(program, JVM).call("main", args));
    assertEquals("%", error.operation());
  }
}
