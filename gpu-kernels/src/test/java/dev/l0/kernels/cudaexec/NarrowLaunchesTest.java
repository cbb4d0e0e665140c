package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The CUDA executor's placement of narrow launches ({@link NarrowLaunches}), with the simulator
 * standing in for the GPU (the same lowering and skeleton of blocks): a launch of fewer parallel
 * rows than the limit whose rows run loops runs on the JVM backend and is counted in the call's
 * meter, a wider one or one of straight-line rows on the "GPU"; a map counts its rows, a reduction
 * the chunks of the reduction order, or its rows where a thread per row runs its fold's work first;
 * the results are the interpreter's either way.
 */
class NarrowLaunchesTest {
  /** A map whose rows run a loop, and a reduction of pairs whose operator is a map. */
  private static final String PROGRAM =
      """
      fun {[f64], [f64]} main([f64] xs) =
        let ys = map(fn f64 (f64 x) => loop (y = x) = for i < 3 do y * 0.5 + x in y, xs) in
        let pairs = map(fn [f64] (f64 x) => [x, x * 2.0], xs) in
        {ys, reduce(fn [f64] ([f64] a, [f64] b) => map(op +, zip(a, b)), [0.0, 0.0], pairs)}
      """;

  /** Straight-line rows: a map of arithmetic and a sum. */
  private static final String STRAIGHT_LINE =
      """
      fun {[f64], f64} main([f64] xs) =
        let ys = map(fn f64 (f64 x) => x * 2.0 + 1.0, xs) in
        {ys, reduce(op +, 0.0, ys)}
      """;

  /** A reduction whose fold runs a loop on each row: split, a thread per row runs that loop. */
  private static final String LOOP_PER_ROW =
      """
      fun f64 main([f64] xs) =
        reduce(op +, 0.0,
               map(fn f64 (f64 x) => loop (y = x) = for i < 3 do y * 0.5 + x in y, xs))
      """;

  /** The executor the CUDA executor is, with the simulator for the GPU; records where each ran. */
  private static final class Placing implements KernelExecutor {
    private final int minRows;
    private final SimulatorExecutor gpu = new SimulatorExecutor(32);
    private final JvmKernelExecutor jvm = new JvmKernelExecutor(2);
    final List<String> ran = Collections.synchronizedList(new ArrayList<>());

    /** The block size of each launch on the "GPU", for an H200's 132 multiprocessors. */
    final List<String> blocks = Collections.synchronizedList(new ArrayList<>());

    Placing(int minRows) {
      this.minRows = minRows;
    }

    @Override
    public String name() {
      return "placing";
    }

    @Override
    public PreparedKernel prepare(KernelPlan.Kernel kernel, KernelScope scope) {
      PreparedKernel onGpu = gpu.prepare(kernel, scope);
      KernelGroup group =
          KernelLowering.lower(
              KernelPlan.of(scope.program(), List.of(kernel.function())),
              kernel,
              LaunchConfiguration.DEFAULT);
      return NarrowLaunches.placed(
          kernel,
          group,
          minRows,
          environment -> {
            ran.add(kernel.kind() + " on gpu");
            blocks.add(
                kernel.kind()
                    + " in blocks of "
                    + NarrowLaunches.blockSize(kernel, group, environment, 132, 256));
            return onGpu.run(environment);
          },
          () -> {
            PreparedKernel onJvm = jvm.prepare(kernel, scope);
            return environment -> {
              ran.add(kernel.kind() + " on jvm");
              return onJvm.run(environment);
            };
          });
    }
  }

  private static List<Value> input(int n) {
    return List.of(
        new Value.Array(
            ScalarType.F64,
            IntStream.range(0, n).mapToObj(i -> (Value) ScalarValue.f64(i % 7 - 3)).toList()));
  }

  /** Runs the program over {@code n} rows; returns where each kernel ran and the meter's count. */
  private static List<String> run(Placing executor, int n, RunMeter meter) {
    return run(executor, PROGRAM, n, meter);
  }

  private static List<String> run(Placing executor, String source, int n, RunMeter meter) {
    Program program = L0Parser.parse(source, "narrow.l0");
    HostRunner runner = new HostRunner(Optimizer.optimize(TypeChecker.check(program)), executor);
    executor.ran.clear();
    Value result = runner.call("main", input(n), meter);
    assertEquals(new Interpreter(program).call("main", input(n)), result, n + " rows");
    return List.copyOf(executor.ran);
  }

  @Test
  void aLaunchOfFewerRowsThanTheLimitRunsOnTheJvmAndIsCounted() {
    Placing executor = new Placing(256);
    RunMeter narrow = new RunMeter();
    assertEquals(List.of("map on jvm", "redomap on jvm"), sorted(run(executor, 100, narrow)));
    assertEquals(2, narrow.launchesPlacedOnJvm());
  }

  @Test
  void aNarrowLaunchOfStraightLineRowsStaysOnTheGpu() {
    Placing executor = new Placing(256);
    RunMeter meter = new RunMeter();
    assertEquals(
        List.of("map on gpu", "reduce on gpu"), sorted(run(executor, STRAIGHT_LINE, 100, meter)));
    assertEquals(0, meter.launchesPlacedOnJvm());
  }

  @Test
  void aNarrowLaunchWhoseRowsMakeArraysRunsOnTheJvm() {
    Placing executor = new Placing(256);
    RunMeter meter = new RunMeter();
    assertEquals(
        List.of("map on jvm"),
        run(
            executor,
            "fun [[f64]] main([f64] xs) = map(fn [f64] (f64 x) => replicate(1000, x), xs)",
            100,
            meter));
    assertEquals(1, meter.launchesPlacedOnJvm());
  }

  @Test
  void aNarrowLaunchWhoseRowsRunByBlockStaysOnTheGpu() {
    Placing executor = new Placing(256);
    RunMeter meter = new RunMeter();
    // each row's loop runs a map, which a block of threads shares (a block per row)
    String sweeps =
        """
        fun [f64] main([f64] xs) =
          map(fn f64 (f64 x) =>
                let v = loop (v = replicate(64, x)) = for s < 3 do
                          map(fn f64 (int i) => v[i] * 0.5 + v[(i + 1) % 64], iota(64))
                        in v in
                reduce(op +, 0.0, v),
              xs)
        """;
    assertEquals(List.of("map on gpu"), run(executor, sweeps, 100, meter));
    assertEquals(0, meter.launchesPlacedOnJvm());
  }

  @Test
  void aMapCountsItsRowsAndAReductionItsChunks() {
    Placing executor = new Placing(256);
    RunMeter meter = new RunMeter();
    // 1000 rows: the map has 1000 rows, the reduction of pairs ceil(1000 / 16) = 63 chunks
    assertEquals(List.of("map on gpu", "redomap on jvm"), sorted(run(executor, 1000, meter)));
    assertEquals(1, meter.launchesPlacedOnJvm());
    // 4096 rows: 256 chunks, as many as the limit
    RunMeter wide = new RunMeter();
    assertEquals(List.of("map on gpu", "redomap on gpu"), sorted(run(executor, 4096, wide)));
    assertEquals(0, wide.launchesPlacedOnJvm());
  }

  @Test
  void aReductionThatRunsAThreadPerRowCountsItsRows() {
    Placing executor = new Placing(256);
    // 1000 rows, 63 chunks: the fold's loop runs a thread per row first
    RunMeter wide = new RunMeter();
    assertEquals(List.of("redomap on gpu"), run(executor, LOOP_PER_ROW, 1000, wide));
    assertEquals(0, wide.launchesPlacedOnJvm());
    RunMeter narrow = new RunMeter();
    assertEquals(List.of("redomap on jvm"), run(executor, LOOP_PER_ROW, 200, narrow));
    assertEquals(1, narrow.launchesPlacedOnJvm());
  }

  @Test
  void aLimitOfZeroKeepsEveryLaunchOnTheGpu() {
    RunMeter meter = new RunMeter();
    assertEquals(List.of("map on gpu", "redomap on gpu"), sorted(run(new Placing(0), 3, meter)));
    assertEquals(0, meter.launchesPlacedOnJvm());
  }

  @Test
  void aNarrowLaunchOnTheGpuTakesBlocksThatSpreadItsRowsOverEveryMultiprocessor() {
    // an H200's 132 multiprocessors: OptionPricing large's 4,096 rows in 128 blocks of a warp
    assertEquals(32, NarrowLaunches.blockSize(4096, 132, 256));
    assertEquals(32, NarrowLaunches.blockSize(1, 132, 256));
    // 8,448 rows give each multiprocessor 64, 8,449 one more
    assertEquals(64, NarrowLaunches.blockSize(8448, 132, 256));
    assertEquals(128, NarrowLaunches.blockSize(8449, 132, 256));
    // at most the executor's block size, however many rows; never more than it, even under a warp
    assertEquals(256, NarrowLaunches.blockSize(10_000_000, 132, 256));
    assertEquals(256, NarrowLaunches.blockSize(Long.MAX_VALUE, 132, 256));
    assertEquals(8, NarrowLaunches.blockSize(5, 1, 8));
  }

  @Test
  void aNarrowLaunchOfAThreadPerRowRunsInBlocksThatSpreadItsRows() {
    Placing executor = new Placing(0);
    run(executor, STRAIGHT_LINE, 1000, new RunMeter());
    assertEquals(
        List.of("map in blocks of 32", "reduce in blocks of 256"), sorted(executor.blocks));
    executor.blocks.clear();
    run(executor, STRAIGHT_LINE, 100_000, new RunMeter());
    assertEquals(
        List.of("map in blocks of 256", "reduce in blocks of 256"), sorted(executor.blocks));
    executor.blocks.clear();
    run(executor, LOOP_PER_ROW, 5000, new RunMeter());
    assertEquals(List.of("redomap in blocks of 64"), executor.blocks);
  }

  /**
   * Only groups that run their rows a thread each take smaller blocks: a map and a split reduction
   * do; a plain reduction (a thread per chunk), a map of integer sums over rows (a block per row
   * below the segmented threshold) and a map that reads its rows from a transposed copy (a tile per
   * block) do not.
   */
  @Test
  void onlyLaunchesOfAThreadPerRowTakeSmallerBlocks() {
    assertEquals(
        List.of(true, false), threadPerRow(STRAIGHT_LINE), "a map, then a plain sum of its rows");
    assertEquals(List.of(true), threadPerRow(LOOP_PER_ROW), "a split reduction");
    assertEquals(
        List.of(false),
        threadPerRow(
            "fun [i32] main([[i32]] rows) = map(fn i32 ([i32] row) => reduce(op +, 0, row), rows)"),
        "segmented rows");
    assertEquals(
        List.of(false),
        threadPerRow(
            "fun [f64] main([[f64]] rows) =\n"
                + "  map(fn f64 ([f64] row) => loop (s = 0.0) = for j < size(0, row) do s * 0.5 +"
                + " row[j] in s, rows)"),
        "rows read from a transposed copy");
  }

  private static List<Boolean> threadPerRow(String source) {
    KernelPlan plan =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "rows.l0"))).kernelPlan();
    return plan.kernels().stream()
        .map(
            kernel ->
                NarrowLaunches.runsAThreadPerRow(
                    kernel, KernelLowering.lower(plan, kernel, LaunchConfiguration.DEFAULT)))
        .toList();
  }

  @Test
  void theLimitIsASystemPropertyOfAtLeastZero() {
    String before = System.getProperty(NarrowLaunches.PROPERTY);
    try {
      System.clearProperty(NarrowLaunches.PROPERTY);
      assertEquals(1024, NarrowLaunches.minRows());
      System.setProperty(NarrowLaunches.PROPERTY, "300");
      assertEquals(300, NarrowLaunches.minRows());
      System.setProperty(NarrowLaunches.PROPERTY, "-1");
      L0ConfigurationError negative =
          assertThrows(L0ConfigurationError.class, NarrowLaunches::minRows);
      assertTrue(negative.getMessage().contains(NarrowLaunches.PROPERTY), negative.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty(NarrowLaunches.PROPERTY);
      } else {
        System.setProperty(NarrowLaunches.PROPERTY, before);
      }
    }
  }

  private static List<String> sorted(List<String> ran) {
    return ran.stream().sorted().toList();
  }
}
