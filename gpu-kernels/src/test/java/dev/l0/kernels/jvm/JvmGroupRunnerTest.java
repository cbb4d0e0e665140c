package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The JVM backend runs what the one lowering lowers: per-thread arrays built in a loop with
 * in-place updates run as kernels (no evaluator fallback), their arrays in thread-private memory
 * that each worker allocates once and reuses for every row it runs; a staged kernel's workspace is
 * made once and reused by later runs.
 */
class JvmGroupRunnerTest {
  /**
   * issue 13's smallest case, a per-row array updated in place in a loop, with {@code STEPS} steps.
   */
  private static Program perRowArray(int steps) {
    return L0Parser.parse(
        "fun [f64] main([f64] xs) =\n"
            + "  map(fn f64 (f64 x) =>\n"
            + "        let acc0 = copy(replicate("
            + steps
            + ", 0.0)) in\n"
            + "        loop (acc = acc0) = for i < "
            + steps
            + " do\n"
            + "          let acc[i] = x * toReal(i) in acc\n"
            + "        in reduce(op +, 0.0, acc), xs)\n",
        "per_row_array.l0");
  }

  @Test
  void aPerRowArrayUpdatedInALoopRunsOnTheJvmBackendWithoutFallback() {
    Program program = perRowArray(16);
    HostRunner runner = HostRunner.compile(program, new JvmKernelExecutor());
    Random random = new Random(13);
    for (int n : new int[] {0, 1, 17, 1000}) {
      List<Value> xs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        xs.add(ScalarValue.f64(random.nextGaussian() * 100));
      }
      List<Value> args = List.of(new Value.Array(ScalarType.F64, xs));
      assertEquals(new Interpreter(program).call("main", args), runner.call("main", args));
    }
  }

  @Test
  void threadPrivateArraysAreAllocatedPerWorkerNotPerRow() {
    // rows x 256 elements if each row had its own array; the lowering copies the loop's array every
    // step, so few rows keep the test short
    int rows = 20_000;
    int steps = 256;
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(perRowArray(steps)));
    KernelPlan.Kernel map = optimized.kernelPlan().kernels().get(0);
    KernelScope scope =
        KernelScope.topLevel(
            optimized.internal(), optimized.internal().function(map.function()).orElseThrow());
    int parallelism = 2;
    JvmGroupRunner runner = new JvmKernelExecutor(parallelism).runner(map, scope);
    List<Buffer> threadPrivate =
        runner.group().steps().stream()
            .filter(s -> s instanceof HostStep.Allocate a && a.buffer().isThreadPrivate())
            .map(s -> ((HostStep.Allocate) s).buffer())
            .toList();
    assertEquals(
        1,
        threadPrivate.size(),
        "the per-row arrays live in one thread-private buffer: " + runner.group().steps());

    double[] xs = new double[rows];
    Random random = new Random(256);
    for (int i = 0; i < rows; i++) {
      xs[i] = random.nextDouble();
    }
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    environment.bind(
        ((SubExp.Var) map.inputs().get(0)).name(),
        HostValue.of(new FlatArray(ScalarType.F64, xs, new int[] {rows})));
    double[] sums =
        (double[]) runner.run(environment).get(map.outputs().get(0).name()).flat().data();

    double[] expected = new double[rows];
    for (int i = 0; i < rows; i++) {
      double acc = 0.0;
      for (int k = 0; k < steps; k++) {
        acc += xs[i] * k;
      }
      expected[i] = acc;
    }
    assertArrayEquals(expected, sums);
    long allocated = runner.threadPrivateElementsAllocated();
    // each of the at most `parallelism` workers holds the row's arrays (the loop's array and its
    // copy): a few times 256 elements
    assertTrue(
        allocated > 0 && allocated <= parallelism * 4L * steps,
        "thread-private elements allocated for "
            + rows
            + " rows on "
            + parallelism
            + " workers: "
            + allocated);
  }

  @Test
  void aStagedKernelsWorkspaceIsMadeOnceAndReusedByLaterRuns() {
    OptimizedProgram optimized =
        Optimizer.optimize(
            TypeChecker.check(
                L0Parser.parse(
                    "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => exp(x) * 2.0 + log(x), xs)\n",
                    "exp_log.l0")));
    KernelPlan.Kernel map = optimized.kernelPlan().kernels().get(0);
    KernelScope scope =
        KernelScope.topLevel(
            optimized.internal(), optimized.internal().function(map.function()).orElseThrow());
    KernelGroup group =
        KernelLowering.lower(
            KernelPlan.of(scope.program(), List.of(map.function())),
            map,
            LaunchConfiguration.THREAD_PER_ROW);
    AtomicInteger made = new AtomicInteger();
    JvmGroupRunner runner =
        new JvmGroupRunner(
            group,
            1,
            kernel -> {
              KernelThreads compiled = JaninoKernels.compile(kernel);
              return new KernelThreads() {
                @Override
                public int run(
                    Object[] memory, Object[] scalars, int firstBlock, int endBlock, int gridDim) {
                  return compiled.run(memory, scalars, firstBlock, endBlock, gridDim);
                }

                @Override
                public Object newWorkspace() {
                  made.incrementAndGet();
                  return compiled.newWorkspace();
                }
              };
            });
    assertTrue(
        JavaKernelIrPrinter.print(group.kernels().get(0)).staged(), "the map kernel is staged");
    Random random = new Random(17);
    // batches of several sizes: each run's workspace holds the previous run's values
    for (int rows : new int[] {4096, 1000, 4096, 37}) {
      double[] xs = new double[rows];
      double[] expected = new double[rows];
      for (int i = 0; i < rows; i++) {
        xs[i] = random.nextDouble() * 20;
        expected[i] = StrictMath.exp(xs[i]) * 2.0 + StrictMath.log(xs[i]);
      }
      HostEnvironment environment = new HostEnvironment(new RunMeter());
      environment.bind(
          ((SubExp.Var) map.inputs().get(0)).name(),
          HostValue.of(new FlatArray(ScalarType.F64, xs, new int[] {rows})));
      double[] result =
          (double[]) runner.run(environment).get(map.outputs().get(0).name()).flat().data();
      assertArrayEquals(expected, result, rows + " rows");
    }
    assertEquals(1, made.get(), "workspaces made for four runs on one worker");
  }
}
