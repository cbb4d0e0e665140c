package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.doubles;
import static dev.l0.spark.pipeline.PipelineFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import org.junit.jupiter.api.Test;

/**
 * The per-JVM program cache compiles each program once per device and GPU: the task's GPU ordinal
 * reaches the compiled program's device selection, tasks on one GPU share a program, tasks on
 * different GPUs do not, a task without a GPU (ordinal -1) shares GPU 0's, and a JVM program serves
 * every GPU. The cache lives as long as the JVM, so each test compiles a program of its own.
 */
class ProgramCacheTest {
  /** A one-column map pipeline whose program text is unique to {@code factor}. */
  private static PipelineSpec scaling(double factor) {
    return plan("fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * " + factor + ", xs)\n", doubles("x"), "x");
  }

  private static ProgramCache.Lookup main(PipelineSpec spec, DeviceKind device, int gpuOrdinal) {
    return ProgramCache.get(spec, "main", spec.programs().main(), new ExecutionSettings(device, gpuOrdinal));
  }

  @Test
  void tasksOnOneGpuShareOneProgramCompiledForIt() {
    PipelineSpec spec = scaling(17.0);
    ProgramCache.Lookup first = main(spec, DeviceKind.AUTO, 2);
    ProgramCache.Lookup second = main(spec, DeviceKind.AUTO, 2);
    assertTrue(first.compiledNow());
    assertFalse(second.compiledNow());
    assertSame(first.program(), second.program());
    assertEquals(2, first.program().device().gpuOrdinal());
    assertArrayEquals(new double[] {17.0, -34.0}, (double[]) first.program().run((Object) new double[] {1.0, -2.0}));
  }

  @Test
  void tasksOnDifferentGpusGetProgramsCompiledForTheirOwn() {
    PipelineSpec spec = scaling(19.0);
    ProgramCache.Lookup onGpu1 = main(spec, DeviceKind.AUTO, 1);
    ProgramCache.Lookup onGpu3 = main(spec, DeviceKind.AUTO, 3);
    assertTrue(onGpu1.compiledNow());
    assertTrue(onGpu3.compiledNow());
    assertNotSame(onGpu1.program(), onGpu3.program());
    assertEquals(1, onGpu1.program().device().gpuOrdinal());
    assertEquals(3, onGpu3.program().device().gpuOrdinal());
  }

  @Test
  void aTaskWithoutAGpuSharesTheDefaultGpusProgram() {
    PipelineSpec spec = scaling(23.0);
    ProgramCache.Lookup noGpu = main(spec, DeviceKind.AUTO, -1);
    ProgramCache.Lookup gpuZero = main(spec, DeviceKind.AUTO, CudaProbe.DEFAULT_ORDINAL);
    assertTrue(noGpu.compiledNow());
    assertFalse(gpuZero.compiledNow());
    assertSame(noGpu.program(), gpuZero.program());
    assertEquals(CudaProbe.DEFAULT_ORDINAL, noGpu.program().device().gpuOrdinal());
  }

  @Test
  void aJvmProgramServesEveryGpuAndIsNotTheAutoProgram() {
    PipelineSpec spec = scaling(29.0);
    ProgramCache.Lookup onGpu1 = main(spec, DeviceKind.JVM, 1);
    ProgramCache.Lookup onGpu4 = main(spec, DeviceKind.JVM, 4);
    assertTrue(onGpu1.compiledNow());
    assertFalse(onGpu4.compiledNow());
    assertSame(onGpu1.program(), onGpu4.program());
    assertEquals("jvm: requested", onGpu1.program().device().report());
    ProgramCache.Lookup auto = main(spec, DeviceKind.AUTO, 1);
    assertTrue(auto.compiledNow());
    assertNotSame(onGpu1.program(), auto.program());
  }
}
