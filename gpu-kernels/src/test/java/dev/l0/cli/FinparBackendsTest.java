package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The FinPar programs on every backend: none of their kernels is left to the optimiser's evaluator
 * (each lowers for CUDA, and the JVM backend and the simulator prepare every one), and the
 * simulator computes OptionPricing and LocVolCalib, on the small datasets cut down, exactly as the
 * JVM backend does (skipped where ../shared/data/finpar is absent).
 */
class FinparBackendsTest {
  private static Path data;

  @BeforeAll
  static void findData() {
    data =
        List.of(
                Path.of("..", "..", "shared", "data", "finpar"),
                Path.of("..", "shared", "data", "finpar"))
            .stream()
            .filter(Files::isDirectory)
            .findFirst()
            .orElse(null);
  }

  @ParameterizedTest
  @EnumSource(FinparBenchmark.class)
  void noKernelIsLeftToTheEvaluatorOnAnyBackend(FinparBenchmark bench) throws IOException {
    LoweredPrograms cuda = LoweredPrograms.of(bench.program().program());
    assertEquals(
        List.of(), cuda.rejections(), bench.folderName() + ": kernels the CUDA lowering rejects");
    assertEquals(
        cuda.optimized().kernelPlan().kernels().size(), cuda.groups().size(), bench.folderName());
    assertFalse(cuda.groups().isEmpty(), bench.folderName() + " has no kernel");
    for (KernelExecutor executor :
        List.of(new JvmKernelExecutor(), new SimulatorExecutor(Devices.SIMULATOR_BLOCK_SIZE))) {
      // a kernel the executor cannot run fails the runner's construction (never falls back on the
      // evaluator)
      HostRunner runner = new HostRunner(cuda.optimized(), executor);
      assertEquals(executor.name(), runner.executorName());
    }
  }

  /**
   * On a GPU's configuration, the kernels whose rows are OptionPricing's chunks of paths and
   * LocVolCalib's strikes also hold a block per row, whose threads share a row's inner maps (the
   * simulator tests below run it: their rows are fewer than the threshold).
   */
  @ParameterizedTest
  @EnumSource(
      value = FinparBenchmark.class,
      names = {"OPTION_PRICING", "LOC_VOL_CALIB"})
  void theOuterRowsRunByBlockOnAGpu(FinparBenchmark bench) throws IOException {
    LoweredPrograms cuda = LoweredPrograms.of(bench.program().program());
    assertTrue(
        cuda.groups().stream().anyMatch(KernelLowering::runsFewRowsByBlock),
        bench.folderName() + ": no kernel runs a block per row");
  }

  private static void assumeData() {
    assumeTrue(
        data != null,
        "FinPar datasets not found at ../shared/data/finpar beside the repository; skipped");
  }

  /** {@code input} with the integer at {@code index} replaced by {@code value}. */
  private static List<Value> withInt(List<Value> input, int index, int value) {
    List<Value> changed = new ArrayList<>(input);
    changed.set(index, new ScalarValue.Int(ScalarType.I32, value));
    return changed;
  }

  /**
   * The entry's result on {@code input} on the simulator and on the JVM backend, asserted equal bit
   * for bit and where each ran; its summary (FinPar's output values).
   */
  private static double[] simulatorEqualsJvm(FinparBenchmark bench, List<Value> input)
      throws IOException {
    OptimizedProgram optimized = Optimizer.optimize(bench.program());
    HostRunner simulator =
        new HostRunner(optimized, new SimulatorExecutor(Devices.SIMULATOR_BLOCK_SIZE));
    HostRunner jvm = new HostRunner(optimized, new JvmKernelExecutor());
    assertEquals("sim", simulator.executorName());
    assertEquals("jvm", jvm.executorName());

    Value simulated = simulator.call(FinparBenchmark.ENTRY, input);
    Value onJvm = jvm.call(FinparBenchmark.ENTRY, input);

    // every element, bit for bit (InterestCalib's per-swaption rows included)
    assertEquals(onJvm, simulated, bench.folderName());
    double[] summary = bench.summary(FinparBenchmark.components(onJvm));
    assertTrue(summary.length > 0, bench.folderName() + " gave no result");
    assertTrue(
        Arrays.stream(summary).allMatch(Double::isFinite), "results: " + Arrays.toString(summary));
    return summary;
  }

  /** {@link #simulatorEqualsJvm}, for results that are prices: each positive. */
  private static void simulatorPricesEqualJvm(FinparBenchmark bench, List<Value> input)
      throws IOException {
    double[] prices = simulatorEqualsJvm(bench, input);
    assertTrue(Arrays.stream(prices).allMatch(p -> p > 0.0), "prices: " + Arrays.toString(prices));
  }

  @ParameterizedTest
  @CsvSource({"small,256", "medium,32", "large,4"})
  void optionPricingOnTheSimulatorEqualsTheJvmBackend(String size, int paths) throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    List<Value> input = bench.readInput(bench.program(), bench.dataset(data, size));
    simulatorPricesEqualJvm(bench, withInt(input, 1, paths));
  }

  @Test
  void interestCalibOnTheSimulatorEqualsTheJvmBackend() throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.INTEREST_CALIB;
    List<Value> input = bench.readInput(bench.program(), bench.dataset(data, "small"));
    // 4 genomes over 1 iteration of the convergence loop (small: 256 over 128), every swaption
    simulatorEqualsJvm(bench, withInt(withInt(input, 0, 4), 1, 1));
  }

  @Test
  void locVolCalibOnTheSimulatorEqualsTheJvmBackend() throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.LOC_VOL_CALIB;
    List<Value> input = bench.readInput(bench.program(), bench.dataset(data, "small"));
    // 2 strikes on a 32 x 32 grid over 4 time steps (the small dataset: 16 strikes, 32 x 256, 256
    // steps)
    simulatorPricesEqualJvm(bench, withInt(withInt(withInt(input, 0, 2), 2, 32), 3, 4));
  }
}
