package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.testing.TestPrograms;
import org.junit.jupiter.api.Test;

/**
 * The GPU a program is compiled for, named by its device ordinal: the overloads without one mean
 * GPU {@value CudaProbe#DEFAULT_ORDINAL}, the ordinal reaches the program's device selection, a GPU
 * the machine does not have runs under {@code auto} on the JVM with the same results, and a
 * negative ordinal is refused.
 */
class L0RuntimeGpuOrdinalTest {
  /** A GPU no test machine has. */
  private static final int MISSING_GPU = 1000;

  private static final String SCALE =
      "fun [f64] main([f64] xs, f64 k) = map(fn f64 (f64 x) => x * k, xs)\n";

  @Test
  void withoutAnOrdinalTheProgramIsForTheDefaultGpu() {
    try (CompiledProgram text = L0Runtime.compile(SCALE, "scale.l0", "main", DeviceKind.JVM);
        CompiledProgram staged =
            L0Runtime.compile(
                TestPrograms.load(TestPrograms.P0_BLACKSCHOLES), "blackscholes", DeviceKind.JVM)) {
      assertEquals(CudaProbe.DEFAULT_ORDINAL, text.device().gpuOrdinal());
      assertEquals(CudaProbe.DEFAULT_ORDINAL, staged.device().gpuOrdinal());
    }
  }

  @Test
  void theOrdinalReachesTheSelectionOfBothOverloads() {
    try (CompiledProgram text = L0Runtime.compile(SCALE, "scale.l0", "main", DeviceKind.JVM, 3);
        CompiledProgram staged =
            L0Runtime.compile(
                TestPrograms.load(TestPrograms.P0_BLACKSCHOLES),
                "blackscholes",
                DeviceKind.JVM,
                5)) {
      assertEquals(3, text.device().gpuOrdinal());
      assertEquals("jvm: requested", text.device().report());
      assertEquals(5, staged.device().gpuOrdinal());
    }
  }

  @Test
  void aGpuTheMachineDoesNotHaveRunsOnTheJvmUnderAuto() {
    try (CompiledProgram missing =
            L0Runtime.compile(SCALE, "scale.l0", "main", DeviceKind.AUTO, MISSING_GPU);
        CompiledProgram jvm = L0Runtime.compile(SCALE, "scale.l0", "main", DeviceKind.JVM)) {
      DeviceSelection selection = missing.device();
      assertEquals(DeviceKind.JVM, selection.chosen());
      assertEquals(MISSING_GPU, selection.gpuOrdinal());
      assertEquals("jvm", missing.executorName());
      assertEquals(CudaProbe.probe(MISSING_GPU).description(), selection.reason());
      double[] xs = {1.5, -2.0, 0.25};
      assertArrayEquals((double[]) jvm.run(xs, 4.0), (double[]) missing.run(xs, 4.0));
    }
  }

  @Test
  void aNegativeOrdinalIsRefusedByBothOverloads() {
    IllegalArgumentException text =
        assertThrows(
            IllegalArgumentException.class,
            () -> L0Runtime.compile(SCALE, "scale.l0", "main", DeviceKind.AUTO, -1));
    assertEquals("GPU ordinal -1 is not a device number (0, 1, ...)", text.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            L0Runtime.compile(
                TestPrograms.load(TestPrograms.P0_BLACKSCHOLES),
                "blackscholes",
                DeviceKind.JVM,
                -4));
  }
}
