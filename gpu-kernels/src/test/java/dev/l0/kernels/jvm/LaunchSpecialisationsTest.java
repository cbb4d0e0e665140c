package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.cli.FinparBenchmark;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.ScalarSpecialisation;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.vector.VectorMath;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JVM backend runs a kernel launched again with the same integer scalars in a form compiled
 * with them as constants ({@link LaunchSpecialisations}) once such launches have run long enough,
 * with the same results bit for bit, and compiles at most {@link LaunchSpecialisations#MAX_FORMS}
 * forms per kernel.
 */
class LaunchSpecialisationsTest {
  /** Per row, a loop whose trip count is the scalar {@code k}, with {@code exp} and a sum. */
  private static final String PROGRAM =
      "fun [f64] main(i32 k, [f64] xs) =\n"
          + "  map(fn f64 (f64 x) => loop (s = x) = for i < k do s * 0.5 + exp(x / real(i + 1))"
          + " in s, xs)\n";

  @Test
  void aKernelLaunchedAgainWithTheSameScalarsRunsItsSpecialisedFormWithTheSameResults() {
    KernelGroup group = group();
    AtomicInteger compiled = new AtomicInteger();
    // a form is asked for once launches with the same values have run 1 ns
    JvmGroupRunner specialising = specialising(group, compiled, 1);
    JvmGroupRunner general = new JvmGroupRunner(group, 1, JaninoKernels::compile);
    int kernels = compiled.get();
    double[] xs = {0.25, 1.5, -3.0, 7.75, 0.0, 2.0e-3};
    double[] expected = run(general, group, 9, xs);
    assertArrayEquals(bits(expected), bits(run(specialising, group, 9, xs)), "first launch");
    assertEquals(0, specialising.specialisedLaunches(), "the first launch runs the general form");
    assertEquals(kernels + 1, compiled.get(), "after it, its specialised form is compiled");
    for (int launch = 2; launch <= 4; launch++) {
      assertArrayEquals(bits(expected), bits(run(specialising, group, 9, xs)), "launch " + launch);
    }
    assertEquals(3, specialising.specialisedLaunches(), "launches 2 to 4 ran the specialised form");
    assertArrayEquals(bits(run(general, group, 4, xs)), bits(run(specialising, group, 4, xs)));
    assertEquals(3, specialising.specialisedLaunches(), "other values run the general form");
  }

  /**
   * The number of rows a launch has is not part of its form: launches over 6, 3 and 11 rows with
   * the same {@code k} share one form, with the general form's results bit for bit (a Spark job's
   * partitions and batches differ in size; specialised to it, the risk batch's path pipelines
   * compiled a form per partition size).
   */
  @Test
  void launchesOverDifferentNumbersOfRowsShareTheirForm() {
    KernelGroup group = group();
    Kernel kernel = group.kernels().get(0);
    assertEquals(
        1,
        ScalarSpecialisation.rowCountScalars(kernel).size(),
        "the row count of " + kernel.scalars());
    AtomicInteger compiled = new AtomicInteger();
    JvmGroupRunner specialising = specialising(group, compiled, 1);
    JvmGroupRunner general = new JvmGroupRunner(group, 1, JaninoKernels::compile);
    int kernels = compiled.get();
    double[] six = {0.25, 1.5, -3.0, 7.75, 0.0, 2.0e-3};
    run(specialising, group, 9, six);
    assertEquals(kernels + 1, compiled.get(), "the first launch asks for the form");
    for (double[] xs : List.of(six, new double[] {4.0, -0.5, 1.0e-8}, new double[11])) {
      assertArrayEquals(
          bits(run(general, group, 9, xs)),
          bits(run(specialising, group, 9, xs)),
          xs.length + " rows");
    }
    assertEquals(3, specialising.specialisedLaunches(), "6, 3 and 11 rows ran the form");
    assertEquals(kernels + 1, compiled.get(), "and no other form was compiled");
  }

  /**
   * Five launches compile no form where they run too short a time (three iterations per row,
   * against a minute) or where the values fix no short loop (one iteration past {@link
   * LaunchSpecialisations#SHORT_LOOP}, against 1 ns).
   */
  @ParameterizedTest
  @CsvSource({"3, 60000000000", "17, 1"})
  void shortRunsAndLongLoopsCompileNoForm(int k, long runTimeBeforeAForm) {
    assertEquals(LaunchSpecialisations.SHORT_LOOP + 1, 17, "the second case's loop is long");
    KernelGroup group = group();
    AtomicInteger compiled = new AtomicInteger();
    JvmGroupRunner runner = specialising(group, compiled, runTimeBeforeAForm);
    int kernels = compiled.get();
    for (int launch = 0; launch < 5; launch++) {
      run(runner, group, k, new double[] {1.0, 2.0});
    }
    assertEquals(kernels, compiled.get(), "no form compiled");
    assertEquals(0, runner.specialisedLaunches());
  }

  @Test
  void aKernelHasAtMostMaxFormsSpecialisedForms() {
    KernelGroup group = group();
    AtomicInteger compiled = new AtomicInteger();
    JvmGroupRunner runner = specialising(group, compiled, 1);
    int kernels = compiled.get();
    double[] xs = {1.0, 2.0};
    for (int k = 0; k < LaunchSpecialisations.MAX_FORMS + 3; k++) {
      run(runner, group, k, xs);
      run(runner, group, k, xs);
    }
    assertEquals(kernels + LaunchSpecialisations.MAX_FORMS, compiled.get());
    assertEquals(LaunchSpecialisations.MAX_FORMS, runner.specialisedLaunches());
  }

  /**
   * A launch's ranges of blocks count as each finishes: one long launch on two workers asks for its
   * form after its first range, while its other ranges still run (OptionPricing large's first run
   * is one launch of several seconds; counted per launch, its form was asked for only at its end),
   * and the next launch runs the form with the same results.
   */
  @Test
  void aLongLaunchAsksForItsFormWhileItRuns() {
    KernelGroup group = group();
    AtomicBoolean built = new AtomicBoolean();
    AtomicInteger generalRanges = new AtomicInteger();
    AtomicInteger rangesWhenAsked = new AtomicInteger(-1);
    Function<Kernel, KernelThreads> compiler =
        kernel -> {
          KernelThreads code = JaninoKernels.compile(kernel);
          if (built.get()) {
            rangesWhenAsked.compareAndSet(-1, generalRanges.get());
            return code;
          }
          return new KernelThreads() {
            @Override
            public int run(
                Object[] memory, Object[] scalars, int firstBlock, int endBlock, int gridDim) {
              int raised = code.run(memory, scalars, firstBlock, endBlock, gridDim);
              generalRanges.incrementAndGet();
              return raised;
            }

            @Override
            public Object newWorkspace() {
              return code.newWorkspace();
            }
          };
        };
    JvmGroupRunner runner =
        new JvmGroupRunner(
            group, 2, compiler, LaunchSpecialisations.on(compiler, Runnable::run, 1));
    built.set(true);
    double[] xs = new double[4096];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = (i - 2048) / 64.0;
    }
    double[] first = run(runner, group, 9, xs);
    int ranges = generalRanges.get();
    assertTrue(ranges > 2, "the launch ran in " + ranges + " ranges on two workers");
    assertTrue(
        rangesWhenAsked.get() >= 1 && rangesWhenAsked.get() < ranges,
        "the form was asked for after "
            + rangesWhenAsked.get()
            + " of the launch's "
            + ranges
            + " ranges");
    assertEquals(0, runner.specialisedLaunches(), "the first launch ran the general form");
    assertArrayEquals(bits(first), bits(run(runner, group, 9, xs)), "the second launch");
    assertEquals(1, runner.specialisedLaunches(), "the second launch ran the form");
    assertEquals(ranges, generalRanges.get(), "and none of the general form's ranges");
  }

  /**
   * A form's loops whose trip counts are constants print only the variant they run (the per-row
   * loop where a run is too short to stage, the staged one where it is long enough), where the
   * general form prints both and decides per run: OptionPricing large's form went from 237 KB of
   * Java with seven calls of the draws' region to 154 KB with one.
   */
  @Test
  void aFormPrintsOnlyTheVariantItsConstantTripCountsRun() {
    assumeTrue(VectorMath.lanewise(), "the loop stages lane-wise only with the vector module");
    Kernel kernel = group().kernels().get(0);
    String decidedPerRun = JvmSupport.class.getName() + ".runsPlain(";
    String general = JavaKernelIrPrinter.print(kernel).source();
    assertTrue(general.contains(decidedPerRun), "the general form decides per run");
    assertTrue(general.contains("VectorMath.exp"), "and has the staged variant");
    KernelExpr.Var k =
        kernel.scalars().stream().filter(v -> v.type() == ScalarType.I32).findFirst().orElseThrow();
    String few = specialised(kernel, k, 9);
    assertFalse(few.contains(decidedPerRun), "a form of a short loop decides nothing per run");
    assertFalse(few.contains("VectorMath.exp"), "and prints only the per-row loop");
    String many = specialised(kernel, k, InnerLoopStages.MIN_ITERATIONS);
    assertFalse(many.contains(decidedPerRun), "a form of a long loop decides nothing per run");
    assertTrue(many.contains("VectorMath.exp"), "and prints the staged loop");
    // the form of the short loop (the one LaunchSpecialisations compiles) gives the same bits
    KernelGroup group = group();
    double[] xs = {0.25, 1.5, -3.0, 7.75, 0.0, 2.0e-3};
    double[] expected = run(new JvmGroupRunner(group, 1, JaninoKernels::compile), group, 9, xs);
    JvmGroupRunner specialising = specialising(group, new AtomicInteger(), 1);
    run(specialising, group, 9, xs);
    assertArrayEquals(bits(expected), bits(run(specialising, group, 9, xs)), "the form's results");
    assertEquals(1, specialising.specialisedLaunches(), "the second launch ran the form");
  }

  private static String specialised(Kernel kernel, KernelExpr.Var k, int value) {
    return JavaKernelIrPrinter.print(
            ScalarSpecialisation.of(kernel, Map.of(k.name(), new ScalarValue.Int(k.type(), value))))
        .source();
  }

  /**
   * A runner of {@code group} on one thread whose kernels and forms compile on the calling thread,
   * counted in {@code compiled}, a form once launches with the same values have run {@code
   * runTimeBeforeAForm} nanoseconds.
   */
  private static JvmGroupRunner specialising(
      KernelGroup group, AtomicInteger compiled, long runTimeBeforeAForm) {
    Function<Kernel, KernelThreads> compiler =
        kernel -> {
          compiled.incrementAndGet();
          return JaninoKernels.compile(kernel);
        };
    return new JvmGroupRunner(
        group, 1, compiler, LaunchSpecialisations.on(compiler, Runnable::run, runTimeBeforeAForm));
  }

  /**
   * OptionPricing (small and medium, cut to 4096 and 512 paths) through the host runner on the JVM
   * backend: the third call runs the specialised form of its kernels, with the first call's prices
   * bit for bit (skipped where ../shared/data/finpar is absent).
   */
  @ParameterizedTest
  @CsvSource({"small,4096", "medium,512"})
  void optionPricingRunsSpecialisedWithTheSamePrices(String size, int paths) throws IOException {
    Path data = finparData();
    assumeTrue(data != null, "FinPar datasets not found at ../shared/data/finpar; skipped");
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    List<Value> input =
        new ArrayList<>(bench.readInput(bench.program(), bench.dataset(data, size)));
    input.set(1, new ScalarValue.Int(ScalarType.I32, paths));
    JvmKernelExecutor executor =
        new JvmKernelExecutor(
            2, LaunchSpecialisations.on(JaninoKernels::compile, Runnable::run, 1));
    HostRunner runner = new HostRunner(Optimizer.optimize(bench.program()), executor);
    Value first = runner.call(FinparBenchmark.ENTRY, input);
    assertEquals(0, executor.specialisedLaunches(), "the first call runs the general forms");
    Value second = runner.call(FinparBenchmark.ENTRY, input);
    assertTrue(executor.specialisedLaunches() > 0, "the second call runs specialised forms");
    assertEquals(first, second, size);
  }

  /**
   * A form keeps reading the part starts of the thread's arrays ({@code ThreadScratch}) as
   * variables, so it stages the loops the general form stages: at a method budget of 4500 bytes
   * OptionPricing medium's path kernel (cut to 512 paths) stages its draws (a split region) and its
   * Black-Scholes step over the dates ({@code exp}), and so does its form. With the part starts
   * folded into constants the form staged only the draws: the step reads the bridged paths and
   * writes the prices, two arrays it could no longer tell apart.
   */
  @Test
  void aFormOfOptionPricingStagesItsDrawsAndItsBlackScholesStep() throws IOException {
    Kernel form = optionPricingPathKernelForm();
    int budget = 4500;
    Kernel general = lowered(FinparBenchmark.OPTION_PRICING, form.name());
    List<List<String>> staged = List.of(List.of("split region"), List.of("exp"));
    assertEquals(staged, stagedFunctions(general, budget), "the general form of " + form.name());
    assertEquals(staged, stagedFunctions(form, budget), "the form of " + form.name());
  }

  /**
   * Folded ({@link KernelFolding}, as the printer folds every kernel), the form's Java stages the
   * Black-Scholes step's {@code exp} over a chunk's paths (lane-wise): the checks its constant trip
   * counts decide no longer count against the staged method's budget. Unfolded, that method would
   * have been too large, and {@code exp} ran per element.
   */
  @Test
  void theFoldedFormOfOptionPricingStagesItsBlackScholesExp() throws IOException {
    assumeTrue(VectorMath.lanewise(), "the loop stages lane-wise only with the vector module");
    String source = JaninoKernels.compiledForm(optionPricingPathKernelForm()).source();
    assertTrue(source.contains("VectorMath.exp("), "the step's exp runs lane-wise");
  }

  /**
   * The form of OptionPricing medium's path kernel (cut to 512 paths) that the second call compiles
   * (skipped where ../shared/data/finpar is absent).
   */
  private static Kernel optionPricingPathKernelForm() throws IOException {
    Path data = finparData();
    assumeTrue(data != null, "FinPar datasets not found at ../shared/data/finpar; skipped");
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    List<Value> input =
        new ArrayList<>(bench.readInput(bench.program(), bench.dataset(data, "medium")));
    input.set(1, new ScalarValue.Int(ScalarType.I32, 512));
    List<Kernel> compiled = new ArrayList<>();
    Function<Kernel, KernelThreads> compiler =
        kernel -> {
          compiled.add(kernel);
          return JaninoKernels.compile(kernel);
        };
    JvmKernelExecutor executor =
        new JvmKernelExecutor(2, LaunchSpecialisations.on(compiler, Runnable::run, 1));
    HostRunner runner = new HostRunner(Optimizer.optimize(bench.program()), executor);
    runner.call(FinparBenchmark.ENTRY, input);
    runner.call(FinparBenchmark.ENTRY, input);
    assertTrue(executor.specialisedLaunches() > 0, "the second call runs specialised forms");
    return compiled.stream()
        .filter(k -> k.name().endsWith("_partials"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no form of the path kernel compiled"));
  }

  /**
   * A form's Java is printed with twice the method budget, the general form's with the budget:
   * OptionPricing's path kernel comes out as fewer, larger methods in its form, each still within
   * what HotSpot compiles.
   */
  @Test
  void aFormIsPrintedWithTwiceTheMethodBudget() throws IOException {
    Kernel kernel = lowered(FinparBenchmark.OPTION_PRICING, "main_sums_552_0_array_partials");
    int budget = JavaKernelIrPrinter.methodBudget();
    boolean lanewise = VectorMath.lanewise();
    JaninoKernels.Compiled general = JaninoKernels.compiled(kernel);
    JaninoKernels.Compiled form = JaninoKernels.compiledForm(kernel);
    assertEquals(JavaKernelIrPrinter.print(kernel, lanewise, budget).source(), general.source());
    assertEquals(
        JavaKernelIrPrinter.print(kernel, lanewise, JaninoKernels.FORM_BUDGET_FACTOR * budget)
            .source(),
        form.source());
    assertTrue(
        movedMethods(form.source()) < movedMethods(general.source()),
        () -> movedMethods(form.source()) + " against " + movedMethods(general.source()));
    assertTrue(form.largestMethodBytes() > general.largestMethodBytes());
    assertTrue(form.largestMethodBytes() <= JaninoKernels.HUGE_METHOD_BYTES);
  }

  /** The methods of statements moved out of {@code source}'s methods. */
  private static long movedMethods(String source) {
    return source.lines().filter(line -> line.contains(" int moved$")).count();
  }

  /** The functions each loop of {@code kernel} that runs lane-wise applies. */
  private static List<List<String>> stagedFunctions(Kernel kernel, int methodBudget) {
    return InnerLoopStages.inside(kernel.body(), methodBudget).stream()
        .map(InnerLoopStages::functions)
        .toList();
  }

  /** The kernel named {@code name} of {@code bench}'s optimised program, lowered for the JVM. */
  private static Kernel lowered(FinparBenchmark bench, String name) throws IOException {
    KernelPlan plan = Optimizer.optimize(bench.program()).kernelPlan();
    return plan.kernels().stream()
        .flatMap(
            k ->
                KernelLowering.lower(plan, k, LaunchConfiguration.THREAD_PER_ROW)
                    .kernels()
                    .stream())
        .filter(k -> k.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no kernel " + name));
  }

  private static Path finparData() {
    return Stream.of(
            Path.of("..", "..", "shared", "data", "finpar"),
            Path.of("..", "shared", "data", "finpar"))
        .filter(Files::isDirectory)
        .findFirst()
        .orElse(null);
  }

  private static KernelGroup group() {
    KernelGroup group =
        LoweredPrograms.jvmGroupOfOnlyPlanKernel(L0Parser.parse(PROGRAM, "specialise.l0"));
    assertTrue(
        group.inputs().stream().anyMatch(GroupInput.Scalar.class::isInstance),
        "k reaches the kernel as a scalar");
    return group;
  }

  private static double[] run(JvmGroupRunner runner, KernelGroup group, int k, double[] xs) {
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array) {
        environment.bind(
            input.name(), HostValue.of(new FlatArray(ScalarType.F64, xs, new int[] {xs.length})));
      } else {
        environment.bind(input.name(), HostValue.of(new ScalarValue.Int(ScalarType.I32, k)));
      }
    }
    List<HostValue> outputs = new ArrayList<>(runner.run(environment).values());
    return (double[]) outputs.get(0).flat().data();
  }

  private static long[] bits(double[] values) {
    long[] bits = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Double.doubleToRawLongBits(values[i]);
    }
    return bits;
  }
}
