package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.doubles;
import static dev.l0.spark.pipeline.PipelineFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import org.junit.jupiter.api.Test;

/**
 * The per-JVM program cache compiles each program once per device and GPU: the task's GPU ordinal
 * reaches the compiled program's device selection, tasks on one GPU share a program, tasks on
 * different GPUs do not, a task without a GPU (ordinal -1) shares GPU 0's, and a JVM program serves
 * every GPU; beyond its capacity the least recently used program leaves it. The cache lives as long
 * as the JVM, so each test compiles a program of its own (leases are left open: closing them only
 * matters for programs that left the cache, which {@code LeaseCacheTest} covers).
 */
class ProgramCacheTest {
  /** A one-column map pipeline whose program text is unique to {@code factor}. */
  private static PipelineSpec scaling(double factor) {
    return plan(
        "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * " + factor + ", xs)\n",
        doubles("x"),
        "x");
  }

  private static LeaseCache.Lease<CompiledProgram> main(
      PipelineSpec spec, DeviceKind device, int gpuOrdinal) {
    return ProgramCache.get(
        "main", spec.programs().main(), new ExecutionSettings(device, gpuOrdinal, 2));
  }

  @Test
  void tasksOnOneGpuShareOneProgramCompiledForIt() {
    PipelineSpec spec = scaling(17.0);
    LeaseCache.Lease<CompiledProgram> first = main(spec, DeviceKind.AUTO, 2);
    LeaseCache.Lease<CompiledProgram> second = main(spec, DeviceKind.AUTO, 2);
    assertTrue(first.createdNow());
    assertFalse(second.createdNow());
    assertSame(first.value(), second.value());
    assertEquals(2, first.value().device().gpuOrdinal());
    assertArrayEquals(
        new double[] {17.0, -34.0},
        (double[]) first.value().run((Object) new double[] {1.0, -2.0}));
  }

  @Test
  void tasksWithDifferentCpuCountsGetProgramsCappedAtTheirOwn() {
    PipelineSpec spec = scaling(43.0);
    LeaseCache.Lease<CompiledProgram> oneCpu =
        ProgramCache.get(
            "main", spec.programs().main(), new ExecutionSettings(DeviceKind.JVM, -1, 1));
    LeaseCache.Lease<CompiledProgram> twoCpus = main(spec, DeviceKind.JVM, -1);
    LeaseCache.Lease<CompiledProgram> oneCpuAgain =
        ProgramCache.get(
            "main", spec.programs().main(), new ExecutionSettings(DeviceKind.JVM, -1, 1));
    assertTrue(oneCpu.createdNow());
    assertTrue(twoCpus.createdNow());
    assertNotSame(oneCpu.value(), twoCpus.value());
    assertSame(oneCpu.value(), oneCpuAgain.value());
    assertArrayEquals(
        (double[]) twoCpus.value().run((Object) new double[] {1.0, -2.0}),
        (double[]) oneCpu.value().run((Object) new double[] {1.0, -2.0}));
  }

  @Test
  void tasksOnDifferentGpusGetProgramsCompiledForTheirOwn() {
    PipelineSpec spec = scaling(19.0);
    LeaseCache.Lease<CompiledProgram> onGpu1 = main(spec, DeviceKind.AUTO, 1);
    LeaseCache.Lease<CompiledProgram> onGpu3 = main(spec, DeviceKind.AUTO, 3);
    assertTrue(onGpu1.createdNow());
    assertTrue(onGpu3.createdNow());
    assertNotSame(onGpu1.value(), onGpu3.value());
    assertEquals(1, onGpu1.value().device().gpuOrdinal());
    assertEquals(3, onGpu3.value().device().gpuOrdinal());
  }

  @Test
  void aTaskWithoutAGpuSharesTheDefaultGpusProgram() {
    PipelineSpec spec = scaling(23.0);
    LeaseCache.Lease<CompiledProgram> noGpu = main(spec, DeviceKind.AUTO, -1);
    LeaseCache.Lease<CompiledProgram> gpuZero =
        main(spec, DeviceKind.AUTO, CudaProbe.DEFAULT_ORDINAL);
    assertTrue(noGpu.createdNow());
    assertFalse(gpuZero.createdNow());
    assertSame(noGpu.value(), gpuZero.value());
    assertEquals(CudaProbe.DEFAULT_ORDINAL, noGpu.value().device().gpuOrdinal());
  }

  @Test
  void aJvmProgramServesEveryGpuAndIsNotTheAutoProgram() {
    PipelineSpec spec = scaling(29.0);
    LeaseCache.Lease<CompiledProgram> onGpu1 = main(spec, DeviceKind.JVM, 1);
    LeaseCache.Lease<CompiledProgram> onGpu4 = main(spec, DeviceKind.JVM, 4);
    assertTrue(onGpu1.createdNow());
    assertFalse(onGpu4.createdNow());
    assertSame(onGpu1.value(), onGpu4.value());
    assertEquals("jvm: requested", onGpu1.value().device().report());
    LeaseCache.Lease<CompiledProgram> auto = main(spec, DeviceKind.AUTO, 1);
    assertTrue(auto.createdNow());
    assertNotSame(onGpu1.value(), auto.value());
  }

  @Test
  void beyondItsCapacityTheLeastRecentlyUsedProgramIsCompiledAgain() {
    PipelineSpec a = scaling(31.0);
    PipelineSpec b = scaling(37.0);
    PipelineSpec c = scaling(41.0);
    ProgramCache.limit(2);
    try {
      assertTrue(main(a, DeviceKind.JVM, -1).createdNow());
      assertTrue(main(b, DeviceKind.JVM, -1).createdNow());
      assertFalse(main(a, DeviceKind.JVM, -1).createdNow());
      assertTrue(main(c, DeviceKind.JVM, -1).createdNow());
      assertEquals(2, ProgramCache.size());
      assertFalse(main(a, DeviceKind.JVM, -1).createdNow(), "a was used after b");
      LeaseCache.Lease<CompiledProgram> again = main(b, DeviceKind.JVM, -1);
      assertTrue(again.createdNow(), "b was the least recently used");
      assertArrayEquals(
          new double[] {37.0}, (double[]) again.value().run((Object) new double[] {1.0}));
    } finally {
      ProgramCache.limit(ProgramCache.DEFAULT_CAPACITY);
    }
  }
}
