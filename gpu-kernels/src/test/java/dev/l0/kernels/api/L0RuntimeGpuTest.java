package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.cudaexec.EveryLaunchOnTheGpu;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.PtxCompilers;
import dev.l0.testing.TestPrograms;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a machine with a working GPU: {@code auto} chooses CUDA, and P0 (from Java arrays) and P1
 * (from direct buffers) give the JVM backend's results bit for bit; a program compiled for GPU 0
 * named explicitly runs on CUDA as the default one does.
 */
@Tag("gpu")
@ExtendWith(EveryLaunchOnTheGpu.class)
class L0RuntimeGpuTest {
  @BeforeEach
  void needsAGpu() {
    assumeTrue(CudaProbe.probe().isAvailable(), CudaProbe.probe().description());
    assumeTrue(
        PtxCompilers.onThisMachine().isAvailable(), PtxCompilers.onThisMachine().description());
  }

  @Test
  void blackScholesOnTheGpuEqualsTheJvm() {
    int n = 100_000;
    Random random = new Random(7);
    boolean[] call = new boolean[n];
    double[][] numbers = new double[5][n];
    for (int i = 0; i < n; i++) {
      call[i] = random.nextBoolean();
      numbers[0][i] = 10 + 90 * random.nextDouble();
      numbers[1][i] = 10 + 90 * random.nextDouble();
      numbers[2][i] = 0.1 + 2 * random.nextDouble();
      numbers[3][i] = 0.1 * random.nextDouble();
      numbers[4][i] = 0.05 + 0.5 * random.nextDouble();
    }
    Object[] columns = {call, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]};
    String p0 = TestPrograms.text(TestPrograms.P0_BLACKSCHOLES);
    try (CompiledProgram gpu = L0Runtime.compile(p0, "p0.l0", "blackscholes", DeviceKind.AUTO);
        CompiledProgram jvm = L0Runtime.compile(p0, "p0.l0", "blackscholes", DeviceKind.JVM)) {
      assertEquals(DeviceKind.CUDA, gpu.device().chosen());
      assertArrayEquals((double[]) jvm.run((Object) columns), (double[]) gpu.run((Object) columns));
    }
  }

  @Test
  void matrixMultiplicationOnTheGpuEqualsTheJvmFromOffHeapRows() {
    int n = 64;
    Random random = new Random(11);
    Object[] a = new Object[n];
    Object[] b = new Object[n];
    for (int i = 0; i < n; i++) {
      a[i] = row(random, n);
      b[i] = row(random, n);
    }
    String p1 = TestPrograms.text(TestPrograms.P1_MATMUL);
    try (CompiledProgram gpu = L0Runtime.compile(p1, "p1.l0", "main", DeviceKind.CUDA);
        CompiledProgram jvm = L0Runtime.compile(p1, "p1.l0", "main", DeviceKind.JVM)) {
      assertEquals(DeviceKind.CUDA, gpu.device().chosen());
      assertArrayEquals(((FlatArray) jvm.run(a, b)).shape(), ((FlatArray) gpu.run(a, b)).shape());
      assertArrayEquals(
          (int[]) ((FlatArray) jvm.run(a, b)).data(), (int[]) ((FlatArray) gpu.run(a, b)).data());
    }
  }

  @Test
  void gpuZeroNamedExplicitlyRunsOnCudaLikeTheDefault() {
    int n = 10_000;
    double[] xs = new Random(13).doubles(n, -100, 100).toArray();
    String scale = "fun [f64] main([f64] xs, f64 k) = map(fn f64 (f64 x) => x * k + 1.0, xs)\n";
    try (CompiledProgram gpuZero =
            L0Runtime.compile(scale, "scale.l0", "main", DeviceKind.CUDA, 0);
        CompiledProgram byDefault = L0Runtime.compile(scale, "scale.l0", "main", DeviceKind.CUDA);
        CompiledProgram jvm = L0Runtime.compile(scale, "scale.l0", "main", DeviceKind.JVM)) {
      assertEquals(DeviceKind.CUDA, gpuZero.device().chosen());
      assertEquals(0, gpuZero.device().gpuOrdinal());
      assertEquals("cuda", gpuZero.executorName());
      assertEquals(byDefault.device(), gpuZero.device());
      assertArrayEquals((double[]) jvm.run(xs, 3.0), (double[]) gpuZero.run(xs, 3.0));
      assertArrayEquals((double[]) gpuZero.run(xs, 3.0), (double[]) byDefault.run(xs, 3.0));
    }
  }

  private static IntBuffer row(Random random, int n) {
    IntBuffer row =
        ByteBuffer.allocateDirect(n * Integer.BYTES).order(ByteOrder.nativeOrder()).asIntBuffer();
    for (int j = 0; j < n; j++) {
      row.put(j, random.nextInt(2001) - 1000);
    }
    return row;
  }
}
