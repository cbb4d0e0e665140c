package dev.l0.kernels.cudaexec;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.report.JsonLine;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaDevice;
import dev.l0.kernels.runtime.CudaDriverException;
import dev.l0.kernels.runtime.CudaModule;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.FailureMessages;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.Ptx;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.kernels.runtime.PtxCompilers;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Memory-bandwidth micro-benchmark of the CUDA executor's kernels, run by {@code bin/gpu-check}:
 * two L0 programs, an elementwise f64 map ({@code x * 2.0 + 1.0}, P0's shape) and a redomap (the
 * sum of squares), each optimised, lowered for this GPU ({@link
 * CudaKernelExecutor#launchConfiguration}) and compiled through a fresh kernel cache twice (cold,
 * then cached), then run by the executor's {@link DeviceGroupRunner} on 2^24 to 2^27 doubles. Only
 * the launches are timed (each launch to the synchronisation after it; no transfers), best of
 * {@value #TIMED_RUNS} runs after one warm-up. Prints one JSON line per kernel and size: {@code
 * {"check": "kernel-bandwidth", "device": ..., "kernel": "map", "n": ..., "bytesMoved": ...,
 * "seconds": ..., "gbPerSecond": ..., "fractionOfPeak": ..., ...}}, where the bytes moved are the
 * array bytes read and written once and the peak is {@link CudaDevice#peakMemoryBytesPerSecond}.
 *
 * <p>Exit codes as {@code CudaRuntimeCheck}'s: 0 measured with correct results, or no CUDA driver
 * or device here (one line saying so, {@code nothing measured}); 1 a result is wrong; 2 no compiler
 * to make the PTX; 3 a driver call or the compilation failed.
 */
public final class KernelBandwidthBenchmark {
  private static final int TIMED_RUNS = 3;
  private static final int SMALLEST_LOG2_N = 24;
  private static final int LARGEST_LOG2_N = 27;
  private static final double INPUT = 1.5;

  /** A benchmarked program: its one kernel and the bytes it moves per input element. */
  enum Case {
    MAP(
        "map",
        "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * 2.0 + 1.0, xs)",
        2 * Double.BYTES),
    REDOMAP(
        "redomap",
        "fun f64 main([f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => x * x, xs))",
        Double.BYTES);

    final String kernel;
    final String source;
    final int bytesPerElement;

    Case(String kernel, String source, int bytesPerElement) {
      this.kernel = kernel;
      this.source = source;
      this.bytesPerElement = bytesPerElement;
    }

    /** The program's one kernel lowered for {@code configuration}. */
    KernelGroup lowered(LaunchConfiguration configuration) {
      KernelPlan plan =
          Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, kernel + ".l0")))
              .kernelPlan();
      if (plan.kernels().size() != 1 || !plan.kernels().get(0).kind().keyword().equals(kernel)) {
        throw new IllegalStateException(
            kernel
                + " benchmark plans "
                + plan.kernels().stream().map(KernelPlan.Kernel::structure).toList());
      }
      return KernelLowering.lower(plan, plan.kernels().get(0), configuration);
    }

    /** Whether {@code result} is this program's value on {@code n} copies of {@link #INPUT}. */
    boolean isCorrect(HostValue result, int n) {
      if (this == MAP) {
        double[] array = (double[]) result.flat().data();
        return array.length == n
            && Arrays.stream(array).allMatch(x -> Double.compare(x, MAP_ELEMENT) == 0);
      }
      return result.boxed().equals(ScalarValue.f64(n * (INPUT * INPUT)));
    }
  }

  private static final double MAP_ELEMENT = INPUT * 2.0 + 1.0;

  private KernelBandwidthBenchmark() {}

  /** Takes no arguments. */
  public static void main(String[] args) throws IOException {
    System.exit(run(System.out));
  }

  static int run(PrintStream out) throws IOException {
    Availability<CudaDevice> probed = CudaProbe.probe();
    if (probed.value().isEmpty()) {
      out.println("KernelBandwidthBenchmark: " + probed.description() + "; nothing measured");
      return 0;
    }
    CudaDevice device = probed.value().get();
    Availability<PtxCompiler> compiler = PtxCompilers.onThisMachine();
    if (compiler.value().isEmpty()) {
      out.println("KernelBandwidthBenchmark: " + compiler.description() + "; nothing measured");
      return 2;
    }
    LaunchConfiguration configuration =
        CudaKernelExecutor.launchConfiguration(device, CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    Path cacheFolder = Files.createTempDirectory("l0-kernel-cache-bandwidth-");
    GroupCompiler groupCompiler =
        new GroupCompiler(
            new KernelCache(cacheFolder, compiler.value().get()),
            device.computeCapability(),
            CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    int status = 0;
    try (CudaContext context = CudaContext.open(CudaProbe.DEFAULT_ORDINAL)) {
      for (Case benchmarked : Case.values()) {
        KernelGroup group = benchmarked.lowered(configuration);
        long coldStart = System.nanoTime();
        groupCompiler.compile(group);
        long cachedStart = System.nanoTime();
        Ptx ptx = groupCompiler.compile(group);
        long cachedEnd = System.nanoTime();
        try (CudaModule module = context.loadModule(ptx)) {
          DeviceGroupRunner runner = new DeviceGroupRunner(group, context, module);
          for (int log2 = SMALLEST_LOG2_N; log2 <= LARGEST_LOG2_N; log2++) {
            int n = 1 << log2;
            Measurement measured = measure(runner, group, benchmarked, n);
            double seconds = measured.kernelNanos() / 1e9;
            long bytes = (long) n * benchmarked.bytesPerElement;
            out.println(
                new JsonLine()
                    .add("check", "kernel-bandwidth")
                    .add("device", device.name())
                    .add("kernel", benchmarked.kernel)
                    .add("n", n)
                    .add("bytesMoved", bytes)
                    .add("seconds", seconds)
                    .add("gbPerSecond", bytes / seconds / 1e9)
                    .add("fractionOfPeak", bytes / seconds / device.peakMemoryBytesPerSecond())
                    .add("peakGbPerSecond", device.peakMemoryBytesPerSecond() / 1e9)
                    .add("maxBlocks", configuration.maxBlocks())
                    .add("coldCompileSeconds", (cachedStart - coldStart) / 1e9)
                    .add("cachedCompileSeconds", (cachedEnd - cachedStart) / 1e9)
                    .add("correct", measured.correct())
                    .text());
            if (!measured.correct()) {
              status = 1;
            }
          }
        }
      }
      return status;
    } catch (CudaDriverException | CudaCompileException e) {
      out.println(
          new JsonLine()
              .add("check", "kernel-bandwidth")
              .add("device", device.name())
              .add("error", FailureMessages.oneLine(e))
              .text());
      return 3;
    } finally {
      KernelCache.deleteFolder(cacheFolder);
    }
  }

  private record Measurement(long kernelNanos, boolean correct) {}

  /**
   * The fastest of the timed runs' launch times on {@code n} copies of {@link #INPUT}, and whether
   * every run was right.
   */
  private static Measurement measure(
      DeviceGroupRunner runner, KernelGroup group, Case benchmarked, int n) {
    double[] data = new double[n];
    Arrays.fill(data, INPUT);
    HostValue xs = HostValue.of(new FlatArray(ScalarType.F64, data, new int[] {n}));
    boolean correct = true;
    long best = Long.MAX_VALUE;
    for (int run = 0; run <= TIMED_RUNS; run++) {
      AtomicLong launchNanos = new AtomicLong();
      HostEnvironment inputs = new HostEnvironment(new RunMeter());
      group.inputs().forEach(input -> inputs.bind(input.name(), xs));
      Map<String, HostValue> results =
          runner.run(inputs, CudaKernelExecutor.DEFAULT_BLOCK_SIZE, launchNanos::addAndGet);
      correct &=
          results.size() == 1 && benchmarked.isCorrect(results.values().iterator().next(), n);
      if (run > 0) {
        best = Math.min(best, launchNanos.get());
      }
    }
    return new Measurement(best, correct);
  }
}
