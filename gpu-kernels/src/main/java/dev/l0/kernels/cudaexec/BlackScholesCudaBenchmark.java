package dev.l0.kernels.cudaexec;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.api.MeasuredRun;
import dev.l0.kernels.jvm.BlackScholesBenchmark;
import dev.l0.kernels.report.JsonLine;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.PtxCompilers;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Random;

/**
 * A benchmark, not a test, run by {@code bin/gpu-check}: the thesis's P0 (Black-Scholes) over N
 * options (default 10,000,000) through the public API, compiled for CUDA twice (the first compile
 * fills the kernel cache, the second finds it there) and for the JVM backend, then run on both, the
 * devices taking turns. Prints one JSON line: the GPU's kernel time, host/device transfer time and
 * bytes and end-to-end time of a run (best of {@value #RUNS} after a warm-up), the JVM backend's
 * end-to-end time, both compile times and the kernel cache hits of the second compile, and whether
 * every price agrees bit for bit. Exit codes: 0 measured with identical prices, or no CUDA driver
 * or compiler here (one line saying so, {@code nothing measured}); 1 the prices differ or the
 * program did not run on CUDA.
 */
public final class BlackScholesCudaBenchmark {
  private static final int RUNS = 3;

  private BlackScholesCudaBenchmark() {}

  /** Takes the number of options, default 10,000,000. */
  public static void main(String[] args) throws IOException {
    System.exit(run(args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000, System.out));
  }

  static int run(int n, PrintStream out) throws IOException {
    if (!CudaProbe.probe().isAvailable() || !PtxCompilers.onThisMachine().isAvailable()) {
      out.println(
          "BlackScholesCudaBenchmark: "
              + CudaProbe.probe().description()
              + "; "
              + PtxCompilers.onThisMachine().description()
              + "; nothing measured");
      return 0;
    }
    String p0 = BlackScholesBenchmark.programText();
    BlackScholesBenchmark.Options options =
        BlackScholesBenchmark.Options.random(n, new Random(20261122));
    Object columns =
        new Object[] {
          options.call,
          options.price,
          options.strike,
          options.years,
          options.rate,
          options.volatility
        };
    long coldCompileNanos;
    try (CompiledProgram cold = compile(p0, DeviceKind.CUDA)) {
      coldCompileNanos = cold.compileNanos();
    }
    try (CompiledProgram gpu = compile(p0, DeviceKind.CUDA);
        CompiledProgram jvm = compile(p0, DeviceKind.JVM)) {
      MeasuredRun bestGpu = null;
      long bestGpuNanos = Long.MAX_VALUE;
      long bestJvmNanos = Long.MAX_VALUE;
      double[] gpuPrices = null;
      double[] jvmPrices = null;
      for (int round = 0; round <= RUNS; round++) {
        long start = System.nanoTime();
        MeasuredRun onGpu = gpu.runMeasured(columns);
        long gpuNanos = System.nanoTime() - start;
        start = System.nanoTime();
        Object onJvm = jvm.run(columns);
        long jvmNanos = System.nanoTime() - start;
        gpuPrices = (double[]) onGpu.result();
        jvmPrices = (double[]) onJvm;
        if (round > 0 && gpuNanos < bestGpuNanos) {
          bestGpuNanos = gpuNanos;
          bestGpu = onGpu;
        }
        if (round > 0) {
          bestJvmNanos = Math.min(bestJvmNanos, jvmNanos);
        }
      }
      boolean identical = Arrays.equals(gpuPrices, jvmPrices);
      boolean onCuda = gpu.device().chosen() == DeviceKind.CUDA;
      out.println(
          new JsonLine()
              .add("check", "blackscholes-cuda")
              .add("selection", gpu.device().toString())
              .add("executor", gpu.executorName())
              .add("options", n)
              .add("gpuKernelSeconds", bestGpu.measurements().kernelNanos() / 1e9)
              .add("gpuTransferSeconds", bestGpu.measurements().transferNanos() / 1e9)
              .add("gpuTransferBytes", bestGpu.measurements().transferBytes())
              .add("gpuEndToEndSeconds", bestGpuNanos / 1e9)
              .add("jvmEndToEndSeconds", bestJvmNanos / 1e9)
              .add("jvmThreads", Runtime.getRuntime().availableProcessors())
              .add("coldCompileSeconds", coldCompileNanos / 1e9)
              .add("cachedCompileSeconds", gpu.compileNanos() / 1e9)
              .add("cachedKernelHits", gpu.kernelCacheHits())
              .add("bitIdentical", identical)
              .text());
      return identical && onCuda ? 0 : 1;
    }
  }

  private static CompiledProgram compile(String p0, DeviceKind device) {
    return L0Runtime.compile(p0, "p0_blackscholes.l0", "blackscholes", device);
  }
}
