package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link DeviceSelector} and {@link DeviceKind}: the chosen device and the reason reported for it.
 */
class DeviceSelectorTest {
  private static final CudaDevice H100 =
      new CudaDevice(
          "NVIDIA H100 80GB HBM3",
          new ComputeCapability(9, 0),
          85L << 30,
          13000,
          132,
          2048,
          32,
          2619000,
          5120);
  private static final Supplier<Availability<CudaDevice>> GPU =
      () -> Availability.available(H100, H100.describe());
  private static final Supplier<Availability<CudaDevice>> NO_DRIVER =
      () ->
          Availability.unavailable(
              "no CUDA driver (UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file)");
  private static final Supplier<Availability<PtxCompiler>> NVCC =
      () -> Availability.available(new CountingCompiler("nvcc 13.0"), "nvcc 13.0");
  private static final Supplier<Availability<PtxCompiler>> NO_COMPILER =
      () -> Availability.unavailable("no CUDA compiler: NVRTC does not load; no nvcc on the PATH");

  @Test
  void autoTakesAWorkingGpu() {
    DeviceSelection selection = DeviceSelector.select(DeviceKind.AUTO, 0, GPU, NVCC);
    assertEquals(DeviceKind.CUDA, selection.chosen());
    assertEquals("cuda: NVIDIA H100 80GB HBM3 (sm_90)", selection.report());
    assertEquals(selection.report(), DeviceSelector.select(DeviceKind.CUDA, 0, GPU, NVCC).report());
  }

  /**
   * AUTO falls back to the JVM with the reason, logged once per reason and JVM (the reasons here
   * are this run's own, so no earlier test in the JVM has logged them).
   */
  @Test
  void autoFallsBackToTheJvmWithOneLoggedLinePerReason() {
    String run = " (test run " + System.nanoTime() + ")";
    Supplier<Availability<CudaDevice>> noDriver =
        () -> Availability.unavailable("no CUDA driver" + run);
    Supplier<Availability<PtxCompiler>> noCompiler =
        () -> Availability.unavailable("no CUDA compiler" + run);
    try (LogRecorder log = new LogRecorder(DeviceSelector.class)) {
      DeviceSelection withoutDriver = DeviceSelector.select(DeviceKind.AUTO, 0, noDriver, NVCC);
      assertEquals("jvm: no CUDA driver" + run, withoutDriver.report());
      DeviceSelection withoutCompiler = DeviceSelector.select(DeviceKind.AUTO, 0, GPU, noCompiler);
      assertEquals("jvm: no CUDA compiler" + run, withoutCompiler.report());
      DeviceSelector.select(DeviceKind.AUTO, 0, noDriver, NVCC);
      DeviceSelector.select(DeviceKind.AUTO, 0, GPU, noCompiler);
      assertEquals(List.of(withoutDriver.report(), withoutCompiler.report()), log.lines());
    }
  }

  @Test
  void requestedJvmIsTakenWithoutProbing() {
    Supplier<Availability<CudaDevice>> mustNotProbe =
        () -> {
          throw new AssertionError("probed although the JVM was requested");
        };
    assertEquals(
        "jvm: requested", DeviceSelector.select(DeviceKind.JVM, 0, mustNotProbe, NVCC).report());
  }

  @Test
  void requestedCudaWhereItCannotWorkIsAClearError() {
    CudaUnavailableException error =
        assertThrows(
            CudaUnavailableException.class,
            () -> DeviceSelector.select(DeviceKind.CUDA, 0, NO_DRIVER, NVCC));
    assertEquals(
        "device cuda was requested, but CUDA cannot be used here: no CUDA driver "
            + "(UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file)",
        error.getMessage());
    assertThrows(
        CudaUnavailableException.class,
        () -> DeviceSelector.select(DeviceKind.CUDA, 0, GPU, NO_COMPILER));
  }

  /** GPU {@code ordinal} on a machine whose driver reports one GPU, the H100. */
  private static Supplier<Availability<CudaDevice>> onAOneGpuMachine(int ordinal) {
    return () ->
        CudaProbe.probe(
            ordinal,
            Availability.available(1, "1 CUDA device(s)"),
            gpu -> {
              assertEquals(0, gpu, "the probe read a GPU the machine does not have");
              return GPU.get();
            });
  }

  @Test
  void aGpuTheMachineDoesNotHaveFallsBackToTheJvmUnderAutoAndIsRefusedUnderCuda() {
    try (LogRecorder log = new LogRecorder(DeviceSelector.class)) {
      DeviceSelection auto = DeviceSelector.select(DeviceKind.AUTO, 3, onAOneGpuMachine(3), NVCC);
      assertEquals("jvm: GPU 3 requested, the machine has 1", auto.report());
      assertEquals(3, auto.gpuOrdinal());
      assertEquals(List.of(auto.report()), log.lines());
    }
    CudaUnavailableException refused =
        assertThrows(
            CudaUnavailableException.class,
            () -> DeviceSelector.select(DeviceKind.CUDA, 1, onAOneGpuMachine(1), NVCC));
    assertEquals(
        "device cuda was requested, but CUDA cannot be used here: GPU 1 requested, the machine has 1",
        refused.getMessage());
    DeviceSelection gpuZero = DeviceSelector.select(DeviceKind.CUDA, 0, onAOneGpuMachine(0), NVCC);
    assertEquals("cuda: NVIDIA H100 80GB HBM3 (sm_90)", gpuZero.report());
    assertEquals(0, gpuZero.gpuOrdinal());
  }

  @Test
  void theSelectionKeepsTheGpuItWasMadeFor() {
    assertEquals(2, DeviceSelector.select(DeviceKind.CUDA, 2, GPU, NVCC).gpuOrdinal());
    assertEquals(5, DeviceSelector.select(DeviceKind.JVM, 5).gpuOrdinal());
    assertEquals(CudaProbe.DEFAULT_ORDINAL, DeviceSelector.select(DeviceKind.JVM).gpuOrdinal());
  }

  @Test
  void aNegativeOrdinalIsRefusedForEveryKind() {
    for (DeviceKind kind : DeviceKind.values()) {
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> DeviceSelector.select(kind, -1));
      assertEquals("GPU ordinal -1 is not a device number (0, 1, ...)", error.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class, () -> new DeviceSelection(DeviceKind.JVM, "requested", -2));
  }

  @Test
  void onThisMachineAutoNeverFails() {
    DeviceSelection selection = DeviceSelector.select(DeviceKind.AUTO);
    assertTrue(
        selection.report().startsWith(selection.chosen().label() + ": "), selection.report());
    assertEquals(
        CudaProbe.probe().isAvailable() && PtxCompilers.onThisMachine().isAvailable(),
        selection.chosen() == DeviceKind.CUDA,
        selection.report());
  }

  @Test
  void kindsParseFromTheirLabels() {
    assertEquals(DeviceKind.AUTO, DeviceKind.parse("auto"));
    assertEquals(DeviceKind.CUDA, DeviceKind.parse(" CUDA "));
    assertEquals(DeviceKind.JVM, DeviceKind.parse("Jvm"));
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> DeviceKind.parse("gpu"));
    assertEquals("unknown device 'gpu'; expected one of auto, cuda, jvm", error.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> new DeviceSelection(DeviceKind.AUTO, "x", 0));
  }
}
