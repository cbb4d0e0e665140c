package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The FinPar programs on every backend: none of their kernels is left to the optimiser's evaluator
 * (each lowers for CUDA, and the JVM backend and the simulator prepare every one), and the simulator
 * computes OptionPricing and LocVolCalib, on the small datasets cut down, exactly as the JVM
 * backend does (skipped where ../shared/data/finpar is absent).
 */
class FinparBackendsTest {
  @TempDir Path dir;

  private static Path data;

  @BeforeAll
  static void findData() {
    data = List.of(Path.of("..", "..", "shared", "data", "finpar"), Path.of("..", "shared", "data", "finpar")).stream()
        .filter(Files::isDirectory).findFirst().orElse(null);
  }

  @ParameterizedTest
  @EnumSource(FinparBenchmark.class)
  void noKernelIsLeftToTheEvaluatorOnAnyBackend(FinparBenchmark bench) throws IOException {
    LoweredPrograms cuda = LoweredPrograms.of(bench.program().program());
    assertEquals(List.of(), cuda.rejections(), bench.folderName() + ": kernels the CUDA lowering rejects");
    assertEquals(cuda.optimized().kernelPlan().kernels().size(), cuda.groups().size(), bench.folderName());
    assertFalse(cuda.groups().isEmpty(), bench.folderName() + " has no kernel");
    for (KernelExecutor executor : List.of(new JvmKernelExecutor(), new SimulatorExecutor(Devices.SIMULATOR_BLOCK_SIZE))) {
      // a kernel the executor cannot run fails the runner's construction (never falls back on the evaluator)
      HostRunner runner = new HostRunner(cuda.optimized(), executor);
      assertEquals(executor.name(), runner.executorName());
    }
  }
}
