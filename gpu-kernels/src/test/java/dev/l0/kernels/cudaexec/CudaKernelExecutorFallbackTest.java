package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaDevice;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.JvmFallback;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.LogRecorder;
import dev.l0.kernels.runtime.Ptx;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.opt.Optimizer;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a usable GPU path the CUDA executor gives the JVM backend's results, which are the
 * interpreter's, and logs one line saying why: once for the whole executor where this machine has
 * no CUDA driver, once per kernel where the PTX compiler rejects the kernels.
 */
class CudaKernelExecutorFallbackTest {
  private static final Program PORTFOLIO = TestPrograms.load("portfolio");

  @TempDir Path cacheFolder;

  /** Portfolio inputs with integer values, whose float sums are exact in every order. */
  private static List<Value> portfolioInputs(int n) {
    Random random = new Random(n);
    List<Value> quantities = new ArrayList<>();
    List<Value> prices = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      quantities.add(ScalarValue.f64(random.nextInt(21) - 10));
      prices.add(ScalarValue.f64(random.nextInt(100)));
    }
    return List.of(
        new Value.Array(ScalarType.F64, quantities), new Value.Array(ScalarType.F64, prices));
  }

  private static int kernelCount(Program program) {
    return Optimizer.optimize(TypeChecker.check(program)).kernelPlan().kernels().size();
  }

  private static void assertInterpretersResults(HostRunner runner) {
    for (int n : List.of(0, 1, 1000)) {
      List<Value> args = portfolioInputs(n);
      assertEquals(
          new Interpreter(PORTFOLIO).call("main", args),
          runner.call("main", args),
          "portfolio of " + n);
    }
  }

  @Test
  void withoutADriverTheJvmRunsEveryKernelAndOneLineSaysWhy() {
    assumeFalse(CudaProbe.probe().isAvailable(), "this machine has a GPU");
    try (LogRecorder log = new LogRecorder(JvmFallback.class);
        CudaKernelExecutor executor = CudaKernelExecutor.onThisMachine()) {
      HostRunner runner =
          new HostRunner(Optimizer.optimize(TypeChecker.check(PORTFOLIO)), executor);
      assertEquals("cuda", runner.executorName());
      assertInterpretersResults(runner);
      assertEquals(1, log.lines().size(), log.lines().toString());
      assertTrue(
          log.lines().get(0).startsWith("the CUDA executor: running on the JVM: no CUDA driver"),
          log.lines().get(0));
    }
  }

  @Test
  void aKernelThatDoesNotCompileRunsOnTheJvmWithOneLinePerKernel() {
    AtomicInteger compilations = new AtomicInteger();
    PtxCompiler failing =
        new PtxCompiler() {
          @Override
          public String identity() {
            return "failing test compiler";
          }

          @Override
          public Ptx compile(String source, List<String> options, ComputeCapability target) {
            compilations.incrementAndGet();
            throw new CudaCompileException(
                "l0_kernel.cu(1): error: this compiler rejects everything\nsecond line");
          }
        };
    CudaDevice device =
        new CudaDevice(
            "Test GPU", new ComputeCapability(9, 0), 1L << 30, 13000, 4, 1024, 32, 1000000, 256);
    IntFunction<CudaContext> noContext =
        ordinal -> {
          throw new AssertionError("a context is opened for a kernel that did not compile");
        };
    try (LogRecorder log = new LogRecorder(JvmFallback.class);
        CudaKernelExecutor executor =
            new CudaKernelExecutor(
                0,
                Availability.available(device, device.describe()),
                Availability.available(new KernelCache(cacheFolder, failing), "failing"),
                noContext,
                32)) {
      HostRunner runner =
          new HostRunner(Optimizer.optimize(TypeChecker.check(PORTFOLIO)), executor);
      assertInterpretersResults(runner);
      int kernels = kernelCount(PORTFOLIO);
      assertTrue(kernels > 0, "portfolio has kernels");
      assertEquals(kernels, compilations.get());
      assertEquals(kernels, log.lines().size(), log.lines().toString());
      for (String line : log.lines()) {
        assertTrue(
            line.contains(
                    ": running on the JVM: kernel compilation failed (CudaCompileException: l0_kernel.cu(1)")
                && !line.contains("\n"),
            line);
      }
    }
  }

  @Test
  void aMissingCompilerIsReportedOnceWithTheProbesReason() {
    CudaDevice device =
        new CudaDevice(
            "Test GPU", new ComputeCapability(9, 0), 1L << 30, 13000, 4, 1024, 32, 1000000, 256);
    try (LogRecorder log = new LogRecorder(JvmFallback.class);
        CudaKernelExecutor executor =
            new CudaKernelExecutor(
                0,
                Availability.available(device, device.describe()),
                Availability.unavailable("no CUDA compiler: test"),
                ordinal -> {
                  throw new AssertionError("a context is opened without a compiler");
                },
                32)) {
      HostRunner runner =
          new HostRunner(Optimizer.optimize(TypeChecker.check(PORTFOLIO)), executor);
      assertInterpretersResults(runner);
      assertEquals(
          List.of("the CUDA executor: running on the JVM: no CUDA compiler: test"), log.lines());
    }
  }
}
