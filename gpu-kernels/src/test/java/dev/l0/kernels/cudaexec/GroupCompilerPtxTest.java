package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.KernelCacheStatistics;
import dev.l0.kernels.runtime.NvccPtxCompiler;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.testing.TestPrograms;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executor's compile path, up to PTX, on the corpus: every kernel group of the appendix
 * programs and the portfolio compiles with nvcc for sm_90 through the kernel cache, its PTX holds
 * an entry for each of the group's kernels, and compiling it again is a cache hit. Skipped where
 * nvcc is absent.
 */
class GroupCompilerPtxTest {
  @TempDir Path cacheFolder;

  @Test
  void corpusGroupsCompileToPtxThroughTheCache() {
    Availability<PtxCompiler> nvcc = NvccPtxCompiler.onThisMachine();
    assumeTrue(nvcc.isAvailable(), nvcc.description());
    KernelCache cache = new KernelCache(cacheFolder, nvcc.value().orElseThrow());
    GroupCompiler compiler =
        new GroupCompiler(
            cache, new ComputeCapability(9, 0), CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    int groups = 0;
    for (String name :
        List.of(
            TestPrograms.P0_BLACKSCHOLES,
            TestPrograms.P1_MATMUL,
            TestPrograms.P2_SHORTEST_PATHS,
            "portfolio")) {
      for (KernelGroup group : LoweredPrograms.of(TestPrograms.load(name)).groups()) {
        String ptx = compiler.compile(group).text();
        assertTrue(
            ptx.contains(".target sm_90"),
            name + ": " + group.name() + " is not compiled for sm_90");
        assertFalse(group.kernels().isEmpty(), group.name());
        for (Kernel kernel : group.kernels()) {
          assertTrue(
              ptx.contains(".entry " + kernel.name() + "("),
              name + ": no entry for " + kernel.name());
        }
        KernelCacheStatistics before = cache.statistics();
        assertEquals(ptx, compiler.compile(group).text());
        assertEquals(
            before.hits() + 1,
            cache.statistics().hits(),
            group.name() + " is not taken from the cache");
        groups++;
      }
    }
    assertTrue(groups >= 4, "the corpus lowers to " + groups + " groups");
  }
}
