package dev.l0.kernels.jvm;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.report.JsonLine;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * A benchmark, not a test: the sum of P0's Black-Scholes prices over N options (default
 * 10,000,000), {@code reduce(op +, 0.0, map(go, xs))}, one redomap, run by the JVM backend on all
 * cores with its chunk kernel staged ({@link StagedRedomap}) and with the same kernels run per row
 * ({@link JavaKernelIrPrinter#printPerRow}, the form before staging), taking turns in the same run.
 * Prints one JSON line with the best of several timed runs after warm-up and whether both sums
 * equal the reduction-order contract's sum of a hand-written StrictMath loop bit for bit.
 */
public final class BlackScholesSumBenchmark {
  private BlackScholesSumBenchmark() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int threads = Runtime.getRuntime().availableProcessors();
    String text =
        BlackScholesBenchmark.programText()
            + "\nfun real main ([{bool,real,real,real,real,real}] xs) = reduce(op +, 0.0, map(go, xs))\n";
    OptimizedProgram program =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(text, "p0_blackscholes_sum.l0")));
    KernelPlan.Kernel redomap =
        program.kernelPlan().kernels().stream()
            .filter(k -> k.kind() == KernelKind.REDOMAP)
            .findFirst()
            .orElseThrow();
    KernelGroup group =
        KernelLowering.lower(program.kernelPlan(), redomap, LaunchConfiguration.THREAD_PER_ROW);
    JvmGroupRunner staged = new JvmGroupRunner(group, threads);
    JvmGroupRunner perRow =
        new JvmGroupRunner(
            group, threads, k -> JaninoKernels.compile(JavaKernelIrPrinter.printPerRow(k)));

    BlackScholesBenchmark.Options options =
        BlackScholesBenchmark.Options.random(n, new Random(20261122));
    Object[] columns = {
      options.call, options.price, options.strike, options.years, options.rate, options.volatility
    };
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    for (int k = 0; k < columns.length; k++) {
      environment.bind(
          ((SubExp.Var) redomap.inputs().get(k)).name(),
          HostValue.of(
              new FlatArray(k == 0 ? ScalarType.BOOL : ScalarType.F64, columns[k], new int[] {n})));
    }
    double[] sums = new double[2];
    double[] best =
        BlackScholesBenchmark.bestInRounds(
            List.of(
                () -> sums[0] = sum(staged, environment),
                () -> sums[1] = sum(perRow, environment)));
    double expected =
        ReductionOrder.reduce(n, 0.0, (acc, i) -> acc + options.price((int) i), Double::sum);

    System.out.println(
        new JsonLine()
            .add("benchmark", "p0_blackscholes_sum_jvm")
            .add("options", n)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("threads", threads)
            .add("java", System.getProperty("java.version"))
            .add("staged_redomap_s", best[0])
            .add("per_row_redomap_s", best[1])
            .add("ratio_staged_vs_per_row", best[0] / best[1])
            .add("staged", JavaKernelIrPrinter.print(group.kernels().get(0)).staged())
            .add("lanewise", dev.l0.kernels.vector.VectorMath.lanewise())
            .add("sum", sums[0])
            .add(
                "bit_identical",
                Double.doubleToRawLongBits(sums[0]) == Double.doubleToRawLongBits(expected)
                    && Double.doubleToRawLongBits(sums[1]) == Double.doubleToRawLongBits(expected))
            .text());
  }

  private static double sum(JvmGroupRunner runner, HostEnvironment environment) {
    return ((ScalarValue.Float) runner.run(environment).values().iterator().next().boxed()).value();
  }
}
