package dev.l0.kernels.exact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.Program;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.api.MeasuredRun;
import dev.l0.kernels.cudaexec.EveryLaunchOnTheGpu;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.PtxCompilers;
import dev.l0.syntax.L0Parser;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Exact float sums on a GPU: the summands' kernel runs on CUDA, and the sum has the JVM backend's
 * bits.
 */
@Tag("gpu")
@ExtendWith(EveryLaunchOnTheGpu.class)
class ExactFloatSumCudaGpuTest {

  @Test
  void theExactSumOnCudaIsTheJvmBackendsBitForBit() {
    assumeTrue(CudaProbe.probe().isAvailable(), CudaProbe.probe().description());
    assumeTrue(
        PtxCompilers.onThisMachine().isAvailable(), PtxCompilers.onThisMachine().description());
    Program program =
        L0Parser.parse(
            "fun f64 main([f64] x) = reduce(op +, 0.0, map(fn f64 (f64 v) => v * 3.0, x))",
            "scaled_sum.l0");
    Random random = new Random(12);
    double[] xs = new double[1 << 20];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = random.nextGaussian() * Math.scalb(1.0, random.nextInt(120) - 60);
    }

    try (CompiledProgram cuda =
            L0Runtime.compileWithExactFloatSums(
                program, "main", DeviceKind.CUDA, CudaProbe.DEFAULT_ORDINAL, 1);
        CompiledProgram jvm =
            L0Runtime.compileWithExactFloatSums(
                program, "main", DeviceKind.JVM, CudaProbe.DEFAULT_ORDINAL, 2)) {
      MeasuredRun onGpu = cuda.runMeasured((Object) xs);

      assertEquals("cuda", cuda.executorName());
      assertTrue(onGpu.measurements().kernelNanos() > 0, "no kernel ran on the GPU");
      assertEquals(
          Double.doubleToRawLongBits((Double) jvm.run((Object) xs)),
          Double.doubleToRawLongBits((Double) onGpu.result()));
    }
  }
}
