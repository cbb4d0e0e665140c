package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaDevice;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.Ptx;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.opt.Optimizer;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CUDA executor belongs to one GPU, named by its device ordinal: it opens that GPU's context, and
 * its kernel groups take turns with every other executor's on the same GPU while executors on other
 * GPUs run side by side. No GPU is needed: the turns are taken around plain work, and the context
 * opener records the ordinal it is asked for. The ordinals used here (2 to 6) are used by no other
 * test, so the process-wide locks are this test's alone.
 */
class CudaKernelExecutorGpuOrdinalTest {
  private static final long WAIT_SECONDS = 10;

  /** Longer than any wait of the test, so a hold ends only when the test releases it. */
  private static final long HOLD_SECONDS = 6 * WAIT_SECONDS;

  private static final long BLOCKED_MILLIS = 300;
  private static final IntFunction<CudaContext> NO_CONTEXT =
      ordinal -> {
        throw new AssertionError("no context is needed to take turns on GPU " + ordinal);
      };

  private final ExecutorService threads = Executors.newCachedThreadPool();

  @TempDir Path cacheFolder;

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  private static CudaKernelExecutor withoutCuda(int gpuOrdinal) {
    return new CudaKernelExecutor(
        gpuOrdinal,
        Availability.unavailable("no CUDA driver (test)"),
        Availability.unavailable("no CUDA compiler: test"),
        NO_CONTEXT,
        CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
  }

  /** A call on {@code executor} that holds its GPU until {@link Holder#release()}. */
  private final class Holder {
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final Future<String> call;

    Holder(CudaKernelExecutor executor) throws InterruptedException {
      call =
          threads.submit(
              () ->
                  executor.onGpuInTurn(
                      new RunMeter(),
                      () -> {
                        holding.countDown();
                        awaitWhileHolding(released);
                        return "held";
                      }));
      awaitOrFail(holding, WAIT_SECONDS);
    }

    void release() throws Exception {
      released.countDown();
      assertEquals("held", call.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    boolean finished() {
      return call.isDone();
    }
  }

  private static void awaitOrFail(CountDownLatch latch, long seconds) throws InterruptedException {
    assertTrue(
        latch.await(seconds, TimeUnit.SECONDS), "waited " + seconds + " s for the other call");
  }

  private static void awaitWhileHolding(CountDownLatch latch) {
    try {
      awaitOrFail(latch, HOLD_SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while holding the GPU", e);
    }
  }

  private Future<String> callOn(CudaKernelExecutor executor) {
    return threads.submit(() -> executor.onGpuInTurn(new RunMeter(), () -> "ran"));
  }

  @Test
  void callsOnOneGpuTakeTurnsAcrossExecutors() throws Exception {
    try (CudaKernelExecutor first = withoutCuda(2);
        CudaKernelExecutor second = withoutCuda(2)) {
      Holder holder = new Holder(first);
      Future<String> waiting = callOn(second);
      assertThrows(
          TimeoutException.class,
          () -> waiting.get(BLOCKED_MILLIS, TimeUnit.MILLISECONDS),
          "a second executor on GPU 2 ran while the first held it");
      holder.release();
      assertEquals("ran", waiting.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void callsOnDifferentGpusRunSideBySide() throws Exception {
    try (CudaKernelExecutor onGpu3 = withoutCuda(3);
        CudaKernelExecutor onGpu4 = withoutCuda(4)) {
      Holder holder = new Holder(onGpu3);
      assertEquals(
          "ran",
          callOn(onGpu4).get(WAIT_SECONDS, TimeUnit.SECONDS),
          "an executor on GPU 4 waited for one on GPU 3");
      assertFalse(holder.finished(), "the call on GPU 3 ended before it was released");
      holder.release();
    }
  }

  @Test
  void theContextOpenedIsTheExecutorsGpus() {
    Program portfolio = TestPrograms.load("portfolio");
    CudaDevice device =
        new CudaDevice(
            "Test GPU", new ComputeCapability(9, 0), 1L << 30, 13000, 4, 1024, 32, 1000000, 256);
    PtxCompiler anyPtx =
        new PtxCompiler() {
          @Override
          public String identity() {
            return "test compiler";
          }

          @Override
          public Ptx compile(String source, List<String> options, ComputeCapability target) {
            return new Ptx("// test ptx\n");
          }
        };
    List<Integer> opened = new CopyOnWriteArrayList<>();
    IntFunction<CudaContext> recordingOpener =
        ordinal -> {
          opened.add(ordinal);
          throw new CudaUnavailableException("test: no context for GPU " + ordinal);
        };
    try (CudaKernelExecutor executor =
        new CudaKernelExecutor(
            6,
            Availability.available(device, device.describe()),
            Availability.available(new KernelCache(cacheFolder, anyPtx), "test compiler"),
            recordingOpener,
            32)) {
      HostRunner runner =
          new HostRunner(Optimizer.optimize(TypeChecker.check(portfolio)), executor);
      List<Value> inputs =
          List.of(
              new Value.Array(ScalarType.F64, List.of(ScalarValue.f64(2), ScalarValue.f64(-1))),
              new Value.Array(ScalarType.F64, List.of(ScalarValue.f64(3), ScalarValue.f64(5))));
      assertEquals(new Interpreter(portfolio).call("main", inputs), runner.call("main", inputs));
    }
    assertFalse(opened.isEmpty(), "no context was opened for a kernel that compiled");
    assertEquals(List.of(6), opened.stream().distinct().toList());
  }
}
