package dev.l0.kernels.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.eval.ValueFlattening;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The host runner's flat path ({@link HostRunner#callFlattened}): arrays of scalars passed as
 * {@link FlatArray}s give the interpreter's results and failures; kernels read the caller's arrays
 * themselves and return theirs; sizes and assertions between kernels box nothing, and host code
 * that needs elements (a transpose) boxes its array once per call.
 */
class HostRunnerFlatTest {
  /** Two kernels whose results meet in a zip: the host checks their sizes in between. */
  private static final String TWO_KERNELS =
      """
      fun {[f64], [f64]} main([f64] xs, [f64] ys) =
        let doubled = map(fn f64 (f64 x) => x * 2.0, xs) in
        let positive = filter(fn bool (f64 y) => 0.0 < y, ys) in
        {map(op +, zip(doubled, positive)), positive}
      """;

  /** The result of a call on the flat path, and its meter. */
  private record FlatRun(RunOutcome outcome, List<HostValue> components, RunMeter meter) {}

  /**
   * {@code entry} of {@code program} on {@code args} through {@link HostRunner#callFlattened},
   * every array of scalars flat.
   */
  private static FlatRun runFlat(
      HostRunner runner, Program program, String entry, List<Value> args) {
    FunDef function = program.function(entry).orElseThrow();
    List<HostValue> components = new ArrayList<>();
    for (int k = 0; k < args.size(); k++) {
      for (Value component :
          ValueFlattening.flatten(args.get(k), function.params().get(k).type())) {
        components.add(
            isArrayOfScalars(component)
                ? HostValue.of(HostValue.of(component).flat())
                : HostValue.of(component));
      }
    }
    RunMeter meter = new RunMeter();
    List<List<HostValue>> results = new ArrayList<>();
    RunOutcome outcome =
        RunOutcome.of(
            () -> {
              results.add(runner.callFlattened(entry, components, meter));
              return ValueFlattening.unflatten(
                  results.get(0).stream().map(HostValue::boxed).toList(), function.returnType());
            });
    return new FlatRun(outcome, results.isEmpty() ? List.of() : results.get(0), meter);
  }

  private static boolean isArrayOfScalars(Value v) {
    return v instanceof Value.Array array
        && Type.array(array.elementType()).baseElement() instanceof ScalarType;
  }

  private static FlatArray f64s(double... values) {
    return new FlatArray(ScalarType.F64, values, new int[] {values.length});
  }

  @Provide
  Arbitrary<ProgramCase> programs() {
    return RandomPrograms.programs();
  }

  @Property(tries = 300, seed = "20261123")
  void randomProgramsOnFlatArraysGiveTheInterpretersResultsAndFailures(
      @ForAll("programs") ProgramCase c) {
    HostRunner runner = HostRunner.compile(c.program(), new JvmKernelExecutor());
    assertEquals(
        RunOutcome.of(() -> new Interpreter(c.program()).call(c.entry(), c.args()))
            .withoutMessage(),
        runFlat(runner, c.program(), c.entry(), c.args()).outcome().withoutMessage());
  }

  /**
   * A map copying rows of a {@code [1][0][1]} argument: the target's inner sizes come from {@code
   * size} on the host, which must give 1 below the empty dimension, as the interpreter and the
   * kernel do (found by the property above, seed 20261123), whichever executor runs the kernel.
   */
  @Test
  void sizesBelowAnEmptyDimensionOfAFlatArgumentFollowTheInterpreter() {
    Program program =
        L0Parser.parse(
            """
        fun i32 main([[[i32]]] arg0, [[[i32]]] arg1) =
          let x10 =
            reduce(op &&, true, reshape((2), replicate(1, let x3 = map(fn [[i32]] ([[i32]] e2) => e2, arg0) in
                let y5 = map(fn i32 ([[i32]] e4) => 0, x3) in
                let y7 = map(fn i32 ([[i32]] e6) => 0, x3) in
                replicate(2, false))))
          in
          0
        """,
            "empty_rows.l0");
    List<Value> args = HostRunnerTest.arguments(program, "main", "[empty([0][1]i32)] []");
    RunOutcome expected = RunOutcome.of(() -> new Interpreter(program).call("main", args));
    assertEquals(new RunOutcome(ScalarValue.i32(0), null, null, null), expected);
    for (KernelExecutor executor : List.of(new JvmKernelExecutor(), new SimulatorExecutor(4))) {
      HostRunner runner = HostRunner.compile(program, executor);
      assertEquals(expected, runFlat(runner, program, "main", args).outcome(), executor.name());
    }
  }

  /**
   * Kernel maps over no rows whose rows' sizes only the rows tell (filters): the rows take the
   * sizes the function gives on a zero row, here 1, as in the interpreter (found by the property
   * above, seed 20261123); where the function fails on the zero row (an index out of bounds), the
   * program does not fail and the rows take the sizes of their type, here unknown, so 0.
   */
  @Test
  void aKernelMapOverNoRowsSizesItsRowsByTheFunctionOnAZeroRow() {
    Program program =
        L0Parser.parse(
            """
        fun {[[i32]], [[i32]]} main([i32] xs) =
          {map(fn [i32] (i32 x) =>
                 let a = map(fn i32 (bool b) => x, concat(replicate(0, false), replicate(1, false))) in
                 filter(fn bool (i32 y) => y <= x, a), xs),
           map(fn [i32] (i32 x) =>
                 let a = map(fn i32 (bool b) => x, concat(replicate(0, false), replicate(1, false))) in
                 filter(fn bool (i32 y) => y <= a[x + 1], a), xs)}
        """,
            "zero_row.l0");
    List<Value> args = HostRunnerTest.arguments(program, "main", "[]");
    RunOutcome expected = RunOutcome.of(() -> new Interpreter(program).call("main", args));
    assertEquals("{empty([0][1]i32), []}", ValueWriter.write(expected.value()));
    for (KernelExecutor executor : List.of(new JvmKernelExecutor(), new SimulatorExecutor(4))) {
      FlatRun run = runFlat(HostRunner.compile(program, executor), program, "main", args);
      assertEquals(expected, run.outcome(), executor.name());
      assertTrue(run.meter().kernelNanos() > 0, executor.name() + " ran no kernel");
    }
  }

  @Test
  void sizesAndAssertionsBetweenKernelsBoxNothingAndKernelResultsStayFlat() {
    Program program = L0Parser.parse(TWO_KERNELS, "two.l0");
    HostRunner runner = HostRunner.compile(program, new JvmKernelExecutor());
    List<Value> args = List.of(f64s(1, 2, 3).toValue(), f64s(-1, 10, 20, -5, 30).toValue());
    FlatRun run = runFlat(runner, program, "main", args);
    assertEquals(RunOutcome.of(() -> new Interpreter(program).call("main", args)), run.outcome());
    assertEquals(0, run.meter().boxedArrays());
    assertTrue(
        run.components().stream().allMatch(HostValue.Flat.class::isInstance),
        run.components()::toString);
    assertTrue(run.meter().kernelNanos() > 0);
    assertEquals(0, run.meter().transferBytes());

    Program portfolio = TestPrograms.load("portfolio");
    List<Value> positions = List.of(f64s(2, -1, 3).toValue(), f64s(10, 4, -5).toValue());
    FlatRun value =
        runFlat(
            HostRunner.compile(portfolio, new JvmKernelExecutor()), portfolio, "main", positions);
    assertEquals(
        RunOutcome.of(() -> new Interpreter(portfolio).call("main", positions)), value.outcome());
    assertEquals(0, value.meter().boxedArrays());
  }

  @Test
  void hostIotaAndReplicateAreMadeFlatAndFailAsTheInterpreterFails() {
    Program program =
        L0Parser.parse(
            """
        fun {[i32], [i64], [f64], [f64]} main(i32 n, i64 m, f64 v) =
          {iota(n), iota(m), replicate(n, v), map(fn f64 (i32 i, f64 x) => f64(i) * x, zip(iota(n), replicate(n, v)))}
        """,
            "fills.l0");
    HostRunner runner = HostRunner.compile(program, new JvmKernelExecutor());
    for (String args : List.of("5 3i64 2.5", "0 0i64 1.0", "-1 2i64 1.0", "2 -3i64 1.0")) {
      List<Value> values =
          ValueReader.read(args, List.of(ScalarType.I32, ScalarType.I64, ScalarType.F64), "args");
      FlatRun run = runFlat(runner, program, "main", values);
      assertEquals(
          RunOutcome.of(() -> new Interpreter(program).call("main", values)).withoutMessage(),
          run.outcome().withoutMessage(),
          args);
      if (run.outcome().failure() == null) {
        assertTrue(
            run.components().stream().allMatch(HostValue.Flat.class::isInstance),
            run.components()::toString);
      }
    }
  }

  @Test
  void aTransposeOnlyAKernelReadsIsNotComputedOnTheHost() {
    Program matmul = TestPrograms.load(TestPrograms.P1_MATMUL);
    HostRunner runner = HostRunner.compile(matmul, new JvmKernelExecutor());
    Value x =
        new FlatArray(ScalarType.I32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3}).toValue();
    Value y =
        new FlatArray(ScalarType.I32, new int[] {7, 8, 9, 10, 11, 12}, new int[] {3, 2}).toValue();
    for (int call = 0; call < 2; call++) {
      FlatRun run = runFlat(runner, matmul, "main", List.of(x, y));
      assertEquals(
          RunOutcome.of(() -> new Interpreter(matmul).call("main", List.of(x, y))), run.outcome());
      assertEquals(0, run.meter().boxedArrays(), "the kernel reads y transposed as a view");
    }
  }

  @Test
  void kernelsReadTheCallersArraysThemselves() {
    List<FlatArray> seen = new ArrayList<>();
    KernelExecutor recording =
        new KernelExecutor() {
          private final JvmKernelExecutor jvm = new JvmKernelExecutor();

          @Override
          public String name() {
            return "recording";
          }

          @Override
          public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
            PreparedKernel compiled = jvm.prepare(kernel, scope);
            return environment -> {
              kernel.inputs().stream()
                  .filter(SubExp.Var.class::isInstance)
                  .forEach(input -> seen.add(environment.flat(((SubExp.Var) input).name())));
              return compiled.run(environment);
            };
          }
        };
    Program portfolio = TestPrograms.load("portfolio");
    HostRunner runner = HostRunner.compile(portfolio, recording);
    FlatArray quantities = f64s(1, 2, 3);
    FlatArray prices = f64s(4, 5, 6);
    Value total =
        runner
            .callFlattened(
                "main", List.of(HostValue.of(quantities), HostValue.of(prices)), new RunMeter())
            .get(0)
            .boxed();
    assertEquals(
        new Interpreter(portfolio).call("main", List.of(quantities.toValue(), prices.toValue())),
        total);
    assertEquals(2, seen.size());
    assertSame(quantities, seen.get(0));
    assertSame(prices, seen.get(1));
  }

  @Test
  void theEnvironmentConvertsOncePerValueAndSizesFollowTheInterpreter() {
    RunMeter meter = new RunMeter();
    HostEnvironment environment = new HostEnvironment(meter);
    HostValue matrix = HostValue.of(new FlatArray(ScalarType.F64, new double[0], new int[] {0, 3}));
    environment.bind("m", matrix);
    environment.bind("alias", matrix);
    assertEquals(0, environment.size("m", 0));
    assertEquals(
        3,
        environment.size("m", 1),
        "an empty array keeps its inner sizes, as the interpreter's does");
    assertEquals(0, meter.boxedArrays());
    Value boxed = environment.value("m");
    assertSame(boxed, environment.value("alias"));
    assertEquals(1, meter.boxedArrays());
    HostValue rows = HostValue.of(new FlatArray(ScalarType.I32, new int[6], new int[] {2, 3}));
    environment.bind("m", rows);
    assertEquals(3, environment.size("m", 1));
    assertEquals(2, ((Value.Array) environment.value("m")).length());
    assertEquals(2, meter.boxedArrays());
    environment.bind("v", HostValue.of(boxed));
    assertSame(environment.flat("v"), environment.flat("v"));
  }
}
