package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.NvccPtxCompiler;
import dev.l0.kernels.runtime.PtxCompiler;
import dev.l0.testing.TestPrograms;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kernel group of the FinPar programs (R0 OptionPricing, R1 LocVolCalib, R2 InterestCalib)
 * compiles with nvcc for sm_90, and its PTX holds an entry for each of the group's kernels, with
 * none rejected by the lowering. Skipped where nvcc is absent.
 */
class FinparPtxTest {
  @TempDir Path cacheFolder;

  @ParameterizedTest
  @ValueSource(strings = {"finpar/OptionPricing", "finpar/LocVolCalib", "finpar/InterestCalib"})
  void everyKernelGroupCompilesToPtxForSm90(String name) {
    Availability<PtxCompiler> nvcc = NvccPtxCompiler.onThisMachine();
    assumeTrue(nvcc.isAvailable(), nvcc.description());
    GroupCompiler compiler =
        new GroupCompiler(
            new KernelCache(cacheFolder, nvcc.value().orElseThrow()), new ComputeCapability(9, 0));
    LoweredPrograms lowered = LoweredPrograms.of(TestPrograms.load(name));
    assertTrue(
        lowered.rejections().isEmpty(),
        name + ": kernels the lowering rejects: " + lowered.rejections());
    List<KernelGroup> groups = lowered.groups();
    assertFalse(groups.isEmpty(), name + " has no kernel group");
    for (KernelGroup group : groups) {
      String ptx = compiler.compile(group).text();
      assertTrue(
          ptx.contains(".target sm_90"), name + ": " + group.name() + " is not compiled for sm_90");
      for (Kernel kernel : group.kernels()) {
        assertTrue(
            ptx.contains(".entry " + kernel.name() + "("),
            name + ": no entry for " + kernel.name() + " in " + group.name());
      }
    }
  }
}
