package dev.l0.kernels.jvm;

import dev.l0.ir.Program;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.exact.ExactFloatSum;
import dev.l0.kernels.report.JsonLine;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.L0Parser;
import java.math.BigDecimal;
import java.util.Random;

/**
 * A benchmark, not a test: the cost of exact float sums. A map-then-sum over N rows (default
 * 10,000,000) of doubles over 120 binary orders of magnitude, run through the runtime API on the
 * JVM backend as compiled ({@link L0Runtime#compile}: a fused redomap in the documented order) and
 * with exact float sums ({@link L0Runtime#compileWithExactFloatSums}: the map as a kernel, its
 * summands added exactly on the host, on the same threads), plus the host's exact sum alone over
 * the same summands on one thread, in one run ({@code ExactReduceBenchmark [ROWS [WARMUP
 * [RUNS]]]}). Prints one JSON line with the best of the timed runs and whether each result is the
 * correctly rounded (BigDecimal) sum.
 */
public final class ExactReduceBenchmark {
  private static final String PROGRAM =
      "fun f64 main([f64] x) = reduce(op +, 0.0, map(fn f64 (f64 v) => v * 3.0, x))";

  private ExactReduceBenchmark() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Random random = new Random(20261126);
    double[] xs = new double[n];
    double[] summands = new double[n];
    BigDecimal exact = BigDecimal.ZERO;
    for (int i = 0; i < n; i++) {
      xs[i] = random.nextGaussian() * Math.scalb(1.0, random.nextInt(120) - 60);
      summands[i] = xs[i] * 3.0;
      exact = exact.add(new BigDecimal(summands[i]));
    }
    Program program = L0Parser.parse(PROGRAM, "scaled_sum.l0");
    int threads = JvmKernelExecutor.defaultParallelism();
    CompiledProgram ordinary =
        L0Runtime.compile(program, "main", DeviceKind.JVM, CudaProbe.DEFAULT_ORDINAL, threads);
    CompiledProgram exactSums =
        L0Runtime.compileWithExactFloatSums(
            program, "main", DeviceKind.JVM, CudaProbe.DEFAULT_ORDINAL, threads);
    double[] results = new double[3];
    double ordinarySeconds =
        PathBenchmark.best(warmup, runs, () -> results[0] = (Double) ordinary.run((Object) xs));
    double exactSeconds =
        PathBenchmark.best(warmup, runs, () -> results[1] = (Double) exactSums.run((Object) xs));
    double hostSumSeconds =
        PathBenchmark.best(warmup, runs, () -> results[2] = ExactFloatSum.of(summands).value());
    double correct = exact.doubleValue();

    System.out.println(
        new JsonLine()
            .add("benchmark", "exact_reduce_jvm")
            .add("rows", n)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("java", System.getProperty("java.version"))
            .add("ordinary_s", ordinarySeconds)
            .add("exact_s", exactSeconds)
            .add("exact_host_sum_one_thread_s", hostSumSeconds)
            .add("ratio_exact_vs_ordinary", exactSeconds / ordinarySeconds)
            .add("host_sum_ns_per_value", hostSumSeconds * 1e9 / Math.max(n, 1))
            .add(
                "ordinary_correctly_rounded",
                Double.doubleToRawLongBits(results[0]) == Double.doubleToRawLongBits(correct))
            .add(
                "exact_correctly_rounded",
                Double.doubleToRawLongBits(results[1]) == Double.doubleToRawLongBits(correct))
            .add(
                "host_sum_correctly_rounded",
                Double.doubleToRawLongBits(results[2]) == Double.doubleToRawLongBits(correct))
            .text());
  }
}
