package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelScope;
import dev.l0.kernels.exec.PreparedKernel;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.report.JsonLine;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A benchmark, not a test: the thesis's P0 (Black-Scholes) as one JVM-backend map kernel over N
 * options (default 10,000,000) in primitive arrays, run bare and through the whole public API
 * ({@link L0Runtime#compile} for the JVM, then {@link CompiledProgram#run} on the {@code double[]}
 * columns), against hand-written Java loops with the same StrictMath formula (sequential, and
 * parallel over the same cores) and the same parallel loop with {@code Math} (not bit-exact), in
 * the same run, taking turns; then the kernel on one thread, timed by that thread's CPU time (per
 * option). Prints one JSON line with the best of several timed runs after warm-up, whether the
 * prices agree bit for bit, whether the backend ran the kernel staged ({@code staged}) and whether
 * {@code VectorMath} ran lane-wise ({@code lanewise}).
 */
public final class BlackScholesBenchmark {
  private static final int WARMUP = 3;
  private static final int RUNS = 5;

  private BlackScholesBenchmark() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    OptimizedProgram p0 =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(programText(), "p0_blackscholes.l0")));
    long compileStart = System.nanoTime();
    KernelPlan.Kernel map = p0.kernelPlan().kernels().get(0);
    PreparedKernel kernel = compileKernel(p0, map, new JvmKernelExecutor());
    long compileNanos = System.nanoTime() - compileStart;
    PreparedKernel oneThreadKernel = compileKernel(p0, map, new JvmKernelExecutor(1));

    Options options = Options.random(n, new Random(20261122));
    List<FlatArray> kernelColumns =
        List.of(
            new FlatArray(ScalarType.BOOL, options.call, new int[] {n}),
            column(options.price),
            column(options.strike),
            column(options.years),
            column(options.rate),
            column(options.volatility));
    double[][] kernelPrices = new double[1][];
    Runnable backend = () -> kernelPrices[0] = prices(kernel, map, kernelColumns);
    CompiledProgram api =
        L0Runtime.compile(programText(), "p0_blackscholes.l0", "blackscholes", DeviceKind.JVM);
    Object[] columns = {
      options.call, options.price, options.strike, options.years, options.rate, options.volatility
    };
    double[][] apiPrices = new double[1][];
    double[] sequential = new double[n];
    double[] parallel = new double[n];
    double[] mathParallel = new double[n];
    double[] best =
        bestInRounds(
            List.of(
                backend,
                () -> apiPrices[0] = (double[]) api.run((Object) columns),
                () -> {
                  for (int i = 0; i < n; i++) {
                    sequential[i] = options.price(i);
                  }
                },
                () -> IntStream.range(0, n).parallel().forEach(i -> parallel[i] = options.price(i)),
                () ->
                    IntStream.range(0, n)
                        .parallel()
                        .forEach(i -> mathParallel[i] = options.priceWithMath(i))));
    double kernelSeconds = best[0];
    double apiSeconds = best[1];
    double sequentialSeconds = best[2];
    double parallelSeconds = best[3];
    double mathParallelSeconds = best[4];
    double[][] oneThreadPrices = new double[1][];
    double oneThreadCpuSeconds =
        leastThreadCpuSeconds(
            () -> oneThreadPrices[0] = prices(oneThreadKernel, map, kernelColumns));

    System.out.println(
        new JsonLine()
            .add("benchmark", "p0_blackscholes_jvm")
            .add("options", n)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("java", System.getProperty("java.version"))
            .add("compile_ms", compileNanos / 1e6)
            .add("api_compile_ms", api.compileNanos() / 1e6)
            .add("jvm_backend_s", kernelSeconds)
            .add("runtime_api_s", apiSeconds)
            .add("hand_loop_sequential_s", sequentialSeconds)
            .add("hand_loop_parallel_s", parallelSeconds)
            .add("ratio_vs_sequential", kernelSeconds / sequentialSeconds)
            .add("hand_loop_math_parallel_s", mathParallelSeconds)
            .add("ratio_vs_parallel", kernelSeconds / parallelSeconds)
            .add("ratio_vs_math_parallel", kernelSeconds / mathParallelSeconds)
            .add("jvm_backend_one_thread_cpu_ns_per_option", oneThreadCpuSeconds * 1e9 / n)
            .add(
                "math_loop_differing_prices",
                IntStream.range(0, n)
                    .filter(
                        i ->
                            Double.doubleToRawLongBits(mathParallel[i])
                                != Double.doubleToRawLongBits(sequential[i]))
                    .count())
            .add("staged", JavaKernelIrPrinter.print(kernelOf(p0, map)).staged())
            .add("lanewise", dev.l0.kernels.vector.VectorMath.lanewise())
            .add("ratio_api_vs_kernel", apiSeconds / kernelSeconds)
            .add(
                "bit_identical",
                Arrays.equals(kernelPrices[0], sequential)
                    && Arrays.equals(oneThreadPrices[0], sequential)
                    && Arrays.equals(apiPrices[0], sequential)
                    && Arrays.equals(parallel, sequential))
            .text());
  }

  /** The prices {@code kernel} (P0's map) computes from the option columns. */
  private static double[] prices(
      PreparedKernel kernel, KernelPlan.Kernel map, List<FlatArray> columns) {
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    for (int k = 0; k < columns.size(); k++) {
      environment.bind(((SubExp.Var) map.inputs().get(k)).name(), HostValue.of(columns.get(k)));
    }
    return (double[]) kernel.run(environment).get(0).flat().data();
  }

  /**
   * The least CPU time of this thread over {@link #RUNS} runs of {@code run} after {@link #WARMUP}
   * untimed ones, in seconds: for a kernel run on the calling thread alone (one worker runs on the
   * caller), less disturbed by other work on the machine than wall-clock time.
   */
  private static double leastThreadCpuSeconds(Runnable run) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < WARMUP; i++) {
      run.run();
    }
    long least = Long.MAX_VALUE;
    for (int i = 0; i < RUNS; i++) {
      long start = threads.getCurrentThreadCpuTime();
      run.run();
      least = Math.min(least, threads.getCurrentThreadCpuTime() - start);
    }
    return least / 1e9;
  }

  /** The one kernel of the group P0's map lowers to for the JVM backend. */
  private static dev.l0.kernels.ir.Kernel kernelOf(OptimizedProgram p0, KernelPlan.Kernel map) {
    KernelScope scope =
        KernelScope.topLevel(p0.internal(), p0.internal().function(map.function()).orElseThrow());
    return dev.l0.kernels.lower.KernelLowering.lower(
            KernelPlan.of(scope.program(), List.of(map.function())),
            map,
            LaunchConfiguration.THREAD_PER_ROW)
        .kernels()
        .get(0);
  }

  /**
   * P0's one kernel {@code map}, the map over the six option columns, compiled for the JVM backend
   * by {@code executor}.
   */
  private static PreparedKernel compileKernel(
      OptimizedProgram p0, KernelPlan.Kernel map, JvmKernelExecutor executor) {
    if (map.kind() != KernelKind.MAP
        || map.inputs().size() != 6
        || !map.inputs().stream().allMatch(SubExp.Var.class::isInstance)) {
      throw new IllegalStateException(
          "P0's kernel should map over the six option columns, is " + map.describe());
    }
    KernelScope scope =
        KernelScope.topLevel(p0.internal(), p0.internal().function(map.function()).orElseThrow());
    return executor.prepare(map, scope);
  }

  private static FlatArray column(double[] values) {
    return new FlatArray(ScalarType.F64, values, new int[] {values.length});
  }

  /** The text of the thesis's P0, {@code /programs/p0_blackscholes.l0} on the class path. */
  public static String programText() throws IOException {
    try (InputStream in =
        BlackScholesBenchmark.class.getResourceAsStream("/programs/p0_blackscholes.l0")) {
      if (in == null) {
        throw new IOException("/programs/p0_blackscholes.l0 is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * The fastest of {@link #RUNS} timed runs of each variant after {@link #WARMUP} untimed ones, in
   * seconds: the variants take turns, one run each per round, so that load from other work on the
   * machine falls on all of them alike.
   */
  static double[] bestInRounds(List<Runnable> variants) {
    for (int i = 0; i < WARMUP; i++) {
      variants.forEach(Runnable::run);
    }
    double[] best = new double[variants.size()];
    Arrays.fill(best, Double.MAX_VALUE);
    for (int i = 0; i < RUNS; i++) {
      for (int v = 0; v < variants.size(); v++) {
        long start = System.nanoTime();
        variants.get(v).run();
        best[v] = Math.min(best[v], (System.nanoTime() - start) / 1e9);
      }
    }
    return best;
  }

  /** The option columns, and P0's formula written by hand in the program's operation order. */
  public static final class Options {
    public final boolean[] call;
    public final double[] price;
    public final double[] strike;
    public final double[] years;
    public final double[] rate;
    public final double[] volatility;

    private Options(int n) {
      call = new boolean[n];
      price = new double[n];
      strike = new double[n];
      years = new double[n];
      rate = new double[n];
      volatility = new double[n];
    }

    /** {@code n} options drawn from {@code random}, in the ranges every benchmark uses. */
    public static Options random(int n, Random random) {
      Options o = new Options(n);
      for (int i = 0; i < n; i++) {
        o.call[i] = random.nextBoolean();
        o.price[i] = 10 + random.nextDouble() * 190;
        o.strike[i] = 10 + random.nextDouble() * 190;
        o.years[i] = 0.05 + random.nextDouble() * 4;
        o.rate[i] = 0.01 + random.nextDouble() * 0.09;
        o.volatility[i] = 0.05 + random.nextDouble() * 0.6;
      }
      return o;
    }

    double price(int i) {
      double v = volatility[i];
      double t = years[i];
      double vSqrtT = v * StrictMath.sqrt(t);
      double d1 = (StrictMath.log(price[i] / strike[i]) + (rate[i] + 0.5 * v * v) * t) / vSqrtT;
      double d2 = d1 - vSqrtT;
      double cndD1 = cnd(d1);
      double cndD2 = cnd(d2);
      double xExpRT = strike[i] * StrictMath.exp(-rate[i] * t);
      return call[i]
          ? price[i] * cndD1 - xExpRT * cndD2
          : xExpRT * (1.0 - cndD2) - price[i] * (1.0 - cndD1);
    }

    private static double cnd(double d) {
      double k = 1.0 / (1.0 + 0.2316419 * (d < 0.0 ? -d : d));
      double p =
          k
              * (0.31938153
                  + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
      double c = 0.39894228040143267793994605993438 * StrictMath.exp(-0.5 * d * d) * p;
      return 0.0 < d ? 1.0 - c : c;
    }

    /**
     * {@link #price} with {@code Math}'s intrinsics instead of {@code StrictMath}: faster, not
     * bit-exact.
     */
    double priceWithMath(int i) {
      double v = volatility[i];
      double t = years[i];
      double vSqrtT = v * Math.sqrt(t);
      double d1 = (Math.log(price[i] / strike[i]) + (rate[i] + 0.5 * v * v) * t) / vSqrtT;
      double d2 = d1 - vSqrtT;
      double cndD1 = cndWithMath(d1);
      double cndD2 = cndWithMath(d2);
      double xExpRT = strike[i] * Math.exp(-rate[i] * t);
      return call[i]
          ? price[i] * cndD1 - xExpRT * cndD2
          : xExpRT * (1.0 - cndD2) - price[i] * (1.0 - cndD1);
    }

    private static double cndWithMath(double d) {
      double k = 1.0 / (1.0 + 0.2316419 * (d < 0.0 ? -d : d));
      double p =
          k
              * (0.31938153
                  + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
      double c = 0.39894228040143267793994605993438 * Math.exp(-0.5 * d * d) * p;
      return 0.0 < d ? 1.0 - c : c;
    }
  }
}
