package dev.l0.kernels.jvm;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.report.JsonLine;
import dev.l0.kernels.runtime.DeviceKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A benchmark, not a test: a Monte-Carlo-like map over N rows (default 1,000,000) in which every
 * row builds a 256-step path in a local array with a loop and in-place updates, then reduces it
 * ({@code /programs/mc_paths.l0}), run through the public runtime API on the JVM backend, against
 * hand-written Java loops doing the same arithmetic in the same order (sequential, and parallel
 * over the same cores), in one run ({@code PathBenchmark [ROWS [WARMUP [RUNS]]]}). Prints one JSON
 * line with the best of the timed runs after the warm-up ones and whether the results agree bit for
 * bit.
 */
public final class PathBenchmark {
  /** The class-path resource of the program. */
  public static final String PROGRAM = "/programs/mc_paths.l0";

  /** The steps of a path. */
  public static final int STEPS = 256;

  private PathBenchmark() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Random random = new Random(20261125);
    long[] seeds = new long[n];
    double[] spots = new double[n];
    double[] vols = new double[n];
    for (int i = 0; i < n; i++) {
      seeds[i] = random.nextLong();
      spots[i] = 10 + random.nextDouble() * 190;
      vols[i] = 0.05 + random.nextDouble() * 0.6;
    }
    CompiledProgram program =
        L0Runtime.compile(programText(), "mc_paths.l0", "main", DeviceKind.JVM);
    double[][] kernel = new double[1][];
    double kernelSeconds =
        best(warmup, runs, () -> kernel[0] = (double[]) program.run(seeds, spots, vols));
    double[] sequential = new double[n];
    double sequentialSeconds =
        best(
            warmup,
            runs,
            () -> {
              double[] path = new double[STEPS];
              for (int i = 0; i < n; i++) {
                sequential[i] = handWrittenRow(seeds[i], spots[i], vols[i], path);
              }
            });
    double[] parallel = new double[n];
    double parallelSeconds =
        best(
            warmup,
            runs,
            () ->
                IntStream.range(0, n)
                    .parallel()
                    .forEach(
                        i ->
                            parallel[i] =
                                handWrittenRow(seeds[i], spots[i], vols[i], new double[STEPS])));

    System.out.println(
        new JsonLine()
            .add("benchmark", "mc_paths_jvm")
            .add("rows", n)
            .add("steps", STEPS)
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("java", System.getProperty("java.version"))
            .add("executor", program.executorName())
            .add("compile_ms", program.compileNanos() / 1e6)
            .add("l0_s", kernelSeconds)
            .add("hand_loop_sequential_s", sequentialSeconds)
            .add("hand_loop_parallel_s", parallelSeconds)
            .add("ratio_vs_parallel", kernelSeconds / parallelSeconds)
            .add(
                "bit_identical",
                Arrays.equals(kernel[0], sequential) && Arrays.equals(parallel, sequential))
            .text());
  }

  /**
   * One row of {@code /programs/mc_paths.l0} written by hand, in the program's operation order: the
   * walk into {@code path} (at least {@value #STEPS} long, overwritten), then the left folds of the
   * sum and the maximum. The reference the benchmarks compare the L0 results with, bit for bit.
   */
  public static double handWrittenRow(long seed, double spot, double vol, double[] path) {
    long state = seed;
    double x = spot;
    for (int i = 0; i < STEPS; i++) {
      state = state * 6364136223846793005L + 1442695040888963407L;
      double u = (double) (state >> 11) * (1.0 / 9007199254740992.0);
      x = x * (1.0 + vol * (u - 0.25) * 0.1);
      path[i] = x;
    }
    double sum = 0.0;
    double high = 0.0;
    for (int i = 0; i < STEPS; i++) {
      sum = sum + path[i];
    }
    for (int i = 0; i < STEPS; i++) {
      high = high < path[i] ? path[i] : high;
    }
    return sum / 256.0 + high;
  }

  private static String programText() throws IOException {
    try (InputStream in = PathBenchmark.class.getResourceAsStream(PROGRAM)) {
      if (in == null) {
        throw new IOException(PROGRAM + " is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * The fastest of {@code runs} timed runs after {@code warmup} untimed ones, in seconds (also
   * {@link ExactReduceBenchmark}'s).
   */
  static double best(int warmup, int runs, Runnable run) {
    for (int i = 0; i < warmup; i++) {
      run.run();
    }
    long best = Long.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      run.run();
      best = Math.min(best, System.nanoTime() - start);
    }
    return best / 1e9;
  }
}
