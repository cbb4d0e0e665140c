package dev.l0.kernels.runtime;

import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.cuda.NvccCompiler;
import dev.l0.kernels.report.JsonLine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Smoke check of this runtime on a GPU machine, run by {@code bin/gpu-check}: probes the driver,
 * compiles a small kernel through a fresh {@link KernelCache} twice (cold, then warm), loads it,
 * copies inputs from a Java array into pooled device buffers, launches, copies back and compares
 * with the JVM. Prints one JSON line: {@code {"check": "cuda-runtime", "device": ..., "mismatches":
 * 0, ...}}.
 *
 * <p>Exit codes: 0 checked and correct, or no CUDA driver/device here (one line saying so, {@code
 * nothing checked}); 1 a result differs or a released buffer was not reused; 2 no compiler to make
 * the PTX; 3 a driver call or the compilation failed (the line names the {@code CUresult}). The
 * kernel cache it uses is a temporary folder, deleted at the end.
 */
public final class CudaRuntimeCheck {
  static final String KERNEL_NAME = "l0_runtime_check";
  static final String KERNEL_SOURCE =
      String.join(
          "\n",
          "extern \"C\" __global__ void "
              + KERNEL_NAME
              + "(const double *in, double *out, int n) {",
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
          "  if (i < n) {",
          "    out[i] = in[i] * 2.0 + 1.0;",
          "  }",
          "}",
          "");
  private static final int ELEMENTS = 1 << 20;
  private static final int THREADS_PER_BLOCK = 256;

  private CudaRuntimeCheck() {}

  /** Takes no arguments. */
  public static void main(String[] args) throws IOException {
    System.exit(run(System.out));
  }

  static int run(PrintStream out) throws IOException {
    Availability<CudaDevice> probed = CudaProbe.probe();
    if (probed.value().isEmpty()) {
      out.println("CudaRuntimeCheck: " + probed.description() + "; nothing checked");
      return 0;
    }
    CudaDevice device = probed.value().get();
    Availability<PtxCompiler> compiler = PtxCompilers.onThisMachine();
    if (compiler.value().isEmpty()) {
      out.println("CudaRuntimeCheck: " + compiler.description() + "; nothing checked");
      return 2;
    }
    Path cacheFolder = Files.createTempDirectory("l0-kernel-cache-check-");
    KernelCache cache = new KernelCache(cacheFolder, compiler.value().get());
    try {
      long coldStart = System.nanoTime();
      Ptx ptx =
          cache.compile(KERNEL_SOURCE, NvccCompiler.ARITHMETIC_OPTIONS, device.computeCapability());
      long warmStart = System.nanoTime();
      cache.compile(KERNEL_SOURCE, NvccCompiler.ARITHMETIC_OPTIONS, device.computeCapability());
      long warmEnd = System.nanoTime();
      Measurement measured = launchAndCompare(ptx);
      out.println(
          new JsonLine()
              .add("check", "cuda-runtime")
              .add("device", device.name())
              .add("computeCapability", device.computeCapability().toString())
              .add("driverVersion", device.driverVersionText())
              .add("totalMemoryBytes", device.totalMemoryBytes())
              .add("compiler", compiler.value().get().identity())
              .add("coldCompileMs", millis(warmStart - coldStart))
              .add("warmCompileMs", millis(warmEnd - warmStart))
              .add("cacheHits", cache.statistics().hits())
              .add("cacheMisses", cache.statistics().misses())
              .add("elements", ELEMENTS)
              .add("kernelMs", millis(measured.kernelNanos()))
              .add("poolReused", measured.poolReused())
              .add("mismatches", measured.mismatches())
              .text());
      return measured.mismatches() == 0 && measured.poolReused() ? 0 : 1;
    } catch (CudaDriverException | CudaCompileException e) {
      out.println(
          new JsonLine()
              .add("check", "cuda-runtime")
              .add("device", device.name())
              .add("error", FailureMessages.oneLine(e))
              .text());
      return 3;
    } finally {
      KernelCache.deleteFolder(cacheFolder);
    }
  }

  private record Measurement(long kernelNanos, long mismatches, boolean poolReused) {}

  private static Measurement launchAndCompare(Ptx ptx) {
    long bytes = (long) ELEMENTS * Double.BYTES;
    double[] inputs = new double[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      inputs[i] = input(i);
    }
    double[] results = new double[ELEMENTS];
    try (CudaContext context = CudaContext.open(CudaProbe.DEFAULT_ORDINAL);
        CudaModule module = context.loadModule(ptx)) {
      CudaKernel kernel = module.kernel(KERNEL_NAME);
      DeviceMemoryPool pool = context.memoryPool();
      long kernelNanos;
      try (DeviceBuffer in = pool.allocate(bytes);
          DeviceBuffer out = pool.allocate(bytes)) {
        context.upload(inputs, in, bytes);
        long start = System.nanoTime();
        kernel.launch(
            LaunchShape.linear(ELEMENTS, THREADS_PER_BLOCK),
            0,
            List.of(KernelArgument.of(in), KernelArgument.of(out), KernelArgument.ofInt(ELEMENTS)));
        kernelNanos = System.nanoTime() - start;
        context.download(out, 0, results, bytes);
      }
      boolean poolReused;
      try (DeviceBuffer again = pool.allocate(bytes)) {
        poolReused =
            pool.bytesInUse() == again.capacity() && pool.bytesWaiting() == again.capacity();
      }
      long mismatches = 0;
      for (int i = 0; i < ELEMENTS; i++) {
        if (Double.doubleToRawLongBits(results[i])
            != Double.doubleToRawLongBits(input(i) * 2.0 + 1.0)) {
          mismatches++;
        }
      }
      return new Measurement(kernelNanos, mismatches, poolReused);
    }
  }

  private static double input(int i) {
    return i * 0.25 - 1000.0;
  }

  private static double millis(long nanos) {
    return Math.round(nanos / 1e4) / 100.0;
  }
}
