package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.cuda.NvccCompiler;
import java.nio.file.Path;
import java.util.List;
import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime on a real GPU: compile through the cache, load, launch, copy, pool reuse, driver
 * errors by name.
 */
@Tag("gpu")
class CudaRuntimeGpuTest {
  private static final String SCALE =
      String.join(
          "\n",
          "extern \"C\" __global__ void scale(const float *in, float *out, float factor, long long n) {",
          "  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;",
          "  if (i < n) { out[i] = in[i] * factor; }",
          "}",
          "");

  @TempDir Path cacheFolder;

  @BeforeEach
  void requireAGpuAndACompiler() {
    assumeTrue(CudaProbe.probe().isAvailable(), CudaProbe.probe().description());
    assumeTrue(
        PtxCompilers.onThisMachine().isAvailable(), PtxCompilers.onThisMachine().description());
  }

  private Ptx compileScale(CudaContext context) {
    KernelCache cache =
        new KernelCache(cacheFolder, PtxCompilers.onThisMachine().value().orElseThrow());
    return cache.compile(
        SCALE, NvccCompiler.ARITHMETIC_OPTIONS, context.device().computeCapability());
  }

  @Test
  void scaleKernelRunsAndMatchesTheJvm() {
    int n = 100_003;
    long bytes = (long) n * Float.BYTES;
    float[] host = new float[n];
    for (int i = 0; i < n; i++) {
      host[i] = i * 0.5f - 7f;
    }
    float[] scaled = new float[n];
    try (CudaContext context = CudaContext.open(0);
        CudaModule module = context.loadModule(compileScale(context));
        DeviceBuffer in = context.memoryPool().allocate(bytes);
        DeviceBuffer out = context.memoryPool().allocate(bytes)) {
      context.upload(host, in, bytes);
      module
          .kernel("scale")
          .launch(
              LaunchShape.linear(n, 128),
              0,
              List.of(
                  KernelArgument.of(in),
                  KernelArgument.of(out),
                  KernelArgument.ofFloat(1.5f),
                  KernelArgument.ofLong(n)));
      context.download(out, 0, scaled, bytes);
      for (int i = 0; i < n; i++) {
        assertEquals(
            Float.floatToRawIntBits((i * 0.5f - 7f) * 1.5f),
            Float.floatToRawIntBits(scaled[i]),
            "element " + i);
      }
    }
  }

  @Test
  void thePoolReusesDeviceMemoryAndFreesItOnClose() {
    try (CudaContext context = CudaContext.open(0)) {
      DeviceMemoryPool pool = context.memoryPool();
      DeviceBuffer first = pool.allocate(64 << 20);
      CUdeviceptr address = first.pointer();
      first.close();
      try (DeviceBuffer second = pool.allocate(63 << 20)) {
        assertSame(address, second.pointer());
      }
      long freeBefore = context.freeDeviceMemory();
      pool.freeWaiting();
      assertTrue(
          context.freeDeviceMemory() > freeBefore, "freeing waiting buffers gave memory back");
    }
  }

  @Test
  void impossibleAllocationIsOutOfDeviceMemory() {
    try (CudaContext context = CudaContext.open(0)) {
      long tooMuch = context.device().totalMemoryBytes() * 2;
      assertThrows(OutOfDeviceMemoryException.class, () -> context.memoryPool().allocate(tooMuch));
    }
  }

  @Test
  void missingKernelNameCarriesTheCuresultName() {
    try (CudaContext context = CudaContext.open(0);
        CudaModule module = context.loadModule(compileScale(context))) {
      CudaDriverException error =
          assertThrows(CudaDriverException.class, () -> module.kernel("no_such_kernel"));
      assertEquals("CUDA_ERROR_NOT_FOUND", error.resultName());
    }
  }
}
