package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.report.JsonLine;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * A benchmark, not a test: the risk batch's scenario revaluation ({@code scenarios} of {@code
 * risk_vanilla.l0}, a map over positions with an inner map over the scenarios pricing Black-Scholes
 * with {@code log} and {@code erf}) on the JVM backend on all cores, its inner loop run lane-wise
 * ({@link InnerLoopStages}) and per iteration with StrictMath ({@link
 * JavaKernelIrPrinter#printPerRow}, the form before), taking turns in the same run ({@code
 * ScenarioBenchmark [PROGRAM [POSITIONS [SCENARIOS]]]}, by default the program under {@code
 * integration-tests}, 20,000 positions, 100 scenarios). Prints one JSON line with the best time of
 * each and whether the P&L arrays are the same bits.
 */
public final class ScenarioBenchmark {
  private ScenarioBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path file =
        Path.of(
            args.length > 0
                ? args[0]
                : "integration-tests/src/main/resources/programs/risk_vanilla.l0");
    int positions = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    int scenarios = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int threads = Runtime.getRuntime().availableProcessors();
    OptimizedProgram program =
        Optimizer.optimize(
            TypeChecker.check(
                L0Parser.parse(Files.readString(file), file.getFileName().toString())));
    KernelPlan.Kernel map =
        program.kernelPlan().kernels().stream()
            .filter(k -> k.function().equals("scenarios"))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException(file + " has no scenarios kernel"));
    KernelGroup group =
        KernelLowering.lower(program.kernelPlan(), map, LaunchConfiguration.THREAD_PER_ROW);
    JvmGroupRunner lanewise = new JvmGroupRunner(group, threads);
    JvmGroupRunner perIteration =
        new JvmGroupRunner(
            group, threads, k -> JaninoKernels.compile(JavaKernelIrPrinter.printPerRow(k)));
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    bindInputs(group, environment, positions, scenarios, new Random(20261126));

    double[][] pnl = new double[2][];
    double[] best =
        BlackScholesBenchmark.bestInRounds(
            List.of(
                () -> pnl[0] = pnl(lanewise, environment),
                () -> pnl[1] = pnl(perIteration, environment)));
    System.out.println(
        new JsonLine()
            .add("benchmark", "risk_scenarios_jvm")
            .add("positions", positions)
            .add("scenarios", scenarios)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("threads", threads)
            .add("java", System.getProperty("java.version"))
            .add("lanewise", dev.l0.kernels.vector.VectorMath.lanewise())
            .add("kernel", JvmKernelForm.describe(group.kernels().get(0)))
            .add("inner_lanewise_s", best[0])
            .add("inner_per_iteration_s", best[1])
            .add("ratio_lanewise_vs_per_iteration", best[0] / best[1])
            .add("bit_identical", Arrays.equals(pnl[0], pnl[1]))
            .text());
  }

  /**
   * Binds the shocks (spot moves within 30%, volatility moves within 10 points), random positions
   * and their sizes to the group's inputs: the arrays named after the entry's parameters, the
   * positions' components in their tuple's order {id, quantity, call, spot, strike, years, rate,
   * volatility}.
   */
  private static void bindInputs(
      KernelGroup group, HostEnvironment environment, int positions, int scenarios, Random random) {
    List<GroupInput.Array> components = new ArrayList<>();
    for (GroupInput input : group.inputs()) {
      if (input instanceof GroupInput.Array a) {
        if (a.name().startsWith("spot_shocks")) {
          bind(environment, a, scenarios, k -> -0.3 + 0.6 * k / Math.max(1, scenarios - 1));
        } else if (a.name().startsWith("vol_shocks")) {
          bind(environment, a, scenarios, k -> -0.1 + 0.2 * ((k * 37) % scenarios) / scenarios);
        } else if (a.name().startsWith("positions")) {
          components.add(a);
        }
      } else {
        // a size: of the positions, or of the shocks
        GroupInput.Scalar size = (GroupInput.Scalar) input;
        long n = size.name().startsWith("positions") ? positions : scenarios;
        environment.bind(
            size.name(),
            HostValue.of(
                size.variable().type() == ScalarType.I32
                    ? dev.l0.ir.ScalarValue.i32((int) n)
                    : dev.l0.ir.ScalarValue.i64(n)));
      }
    }
    components.sort(Comparator.comparingInt(a -> suffix(a.name())));
    if (components.size() != 8) {
      throw new IllegalArgumentException(
          "the scenarios kernel reads " + components.size() + " position components, not 8");
    }
    long[] ids = new long[positions];
    boolean[] calls = new boolean[positions];
    for (int i = 0; i < positions; i++) {
      ids[i] = i;
      calls[i] = random.nextBoolean();
    }
    environment.bind(components.get(0).name(), array(ScalarType.I64, ids, positions));
    bind(environment, components.get(1), positions, k -> 1 + random.nextInt(100));
    environment.bind(components.get(2).name(), array(ScalarType.BOOL, calls, positions));
    bind(environment, components.get(3), positions, k -> 50 + random.nextDouble() * 100);
    bind(environment, components.get(4), positions, k -> 50 + random.nextDouble() * 100);
    bind(environment, components.get(5), positions, k -> 0.1 + random.nextDouble() * 2);
    bind(environment, components.get(6), positions, k -> random.nextDouble() * 0.05);
    bind(environment, components.get(7), positions, k -> 0.12 + random.nextDouble() * 0.4);
  }

  private static int suffix(String name) {
    return Integer.parseInt(name.substring(name.lastIndexOf('_') + 1));
  }

  private static void bind(
      HostEnvironment environment,
      GroupInput.Array input,
      int n,
      java.util.function.IntToDoubleFunction value) {
    double[] values = new double[n];
    for (int k = 0; k < n; k++) {
      values[k] = value.applyAsDouble(k);
    }
    environment.bind(input.name(), array(ScalarType.F64, values, n));
  }

  private static HostValue array(ScalarType type, Object values, int n) {
    return HostValue.of(new FlatArray(type, values, new int[] {n}));
  }

  /** The P&L matrix, positions by scenarios, row-major. */
  private static double[] pnl(JvmGroupRunner runner, HostEnvironment environment) {
    return runner.run(environment).values().stream()
        .map(HostValue::flat)
        .filter(a -> a.elementType() == ScalarType.F64)
        .map(a -> (double[]) a.data())
        .findFirst()
        .orElseThrow();
  }
}
