package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.sim.MapOfReducesSimulationTest;
import dev.l0.opt.KernelPlan;
import dev.l0.testing.TestPrograms;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Explain's line per kernel and backend: skeleton, per-thread arrays in bytes, and how the kernel
 * reads.
 */
class KernelExplanationTest {
  private static String explain(LoweredPrograms lowered, LaunchConfiguration configuration) {
    KernelPlan plan = lowered.optimized().kernelPlan();
    assertEquals(1, plan.kernels().size(), plan.kernels()::toString);
    return KernelExplanation.explain(plan, plan.kernels().get(0), configuration);
  }

  @Test
  void aPerRowArrayNamesItsBytesPerThread() {
    LoweredPrograms lowered =
        LoweredPrograms.of(
            """
        fun [f64] main([f64] xs) =
          map(fn f64 (f64 x) =>
                let acc0 = copy(replicate(16, 0.0)) in
                loop (acc = acc0) = for i < 16 do
                  let acc[i] = x * toReal(i) in acc
                in reduce(op +, 0.0, acc), xs)
        """);
    String jvm = explain(lowered, LaunchConfiguration.THREAD_PER_ROW);
    assertTrue(jvm.startsWith("map: ") && jvm.contains("_map (a thread per row)"), jvm);
    assertTrue(jvm.matches(".*per-thread arrays: \\d+ bytes \\(\\d+ f64\\).*"), jvm);
    assertTrue(jvm.endsWith("reads: each thread reads its rows in order"), jvm);
    String cuda = explain(lowered, LaunchConfiguration.DEFAULT);
    assertTrue(cuda.endsWith("reads: coalesced"), cuda);
    // its loop runs no map, so its rows keep a thread each on a GPU too (no block per row)
    assertTrue(cuda.contains("_map (a thread per row)"), cuda);
  }

  @Test
  void rowsRunByBlockNameTheArraysTheBlockShares() {
    LoweredPrograms lowered =
        LoweredPrograms.of(
            """
        fun [f64] main([f64] xs) =
          map(fn f64 (f64 x) =>
                loop (v = replicate(64, x)) = for s < 3 do
                  map(fn f64 (int i) => v[i] * 0.5 + v[(i + 1) % 64], iota(64))
                in reduce(op +, 0.0, v), xs)
        """);
    String cuda = explain(lowered, LaunchConfiguration.DEFAULT);
    assertTrue(
        cuda.contains("_rows (a thread per row, or a block per row where the rows are few)"), cuda);
    // the loop's array and the map's new one, 64 f64 each
    assertTrue(cuda.contains("per-block arrays: 1024 bytes (128 f64)"), cuda);
    String jvm = explain(lowered, LaunchConfiguration.THREAD_PER_ROW);
    assertTrue(jvm.contains("_map (a thread per row)") && !jvm.contains("per-block"), jvm);
  }

  @Test
  void aReductionIsChunksThenATree() {
    String line =
        explain(
            LoweredPrograms.of(
                "fun f64 main([f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => x * x, xs))"),
            LaunchConfiguration.DEFAULT);
    assertTrue(line.startsWith("redomap: "), line);
    assertTrue(
        line.contains("(a thread per chunk of the reduction order), then ")
            && line.contains("(pairwise tree of the chunk partials)"),
        line);
    assertTrue(line.contains("per-thread arrays: none"), line);
  }

  @Test
  void aReduceOfRowsIsAMapOfReducesOnAGpuWhereItsRowsAreWide() {
    LoweredPrograms wideRows = LoweredPrograms.of(MapOfReducesSimulationTest.SUM_OF_ROWS);
    LoweredPrograms narrowRows =
        LoweredPrograms.of(
            MapOfReducesSimulationTest.sumOfConstantRows(
                (int) MapOfReducesLowering.MIN_COLUMNS - 1));
    LoweredPrograms thresholdRows =
        LoweredPrograms.of(
            MapOfReducesSimulationTest.sumOfConstantRows((int) MapOfReducesLowering.MIN_COLUMNS));
    String perThread = "(array accumulators per thread, folded over chunks), then ";
    for (LoweredPrograms wide : List.of(wideRows, thresholdRows)) {
      String cuda = explain(wide, LaunchConfiguration.DEFAULT);
      assertTrue(
          cuda.contains("(map of reduces: a thread per chunk and column of the rows), then ")
              && cuda.contains("(pairwise tree of the column partials, a thread per column)"),
          cuda);
      assertTrue(cuda.contains("per-thread arrays: none") && !cuda.contains("_array_"), cuda);
      String jvm = explain(wide, LaunchConfiguration.THREAD_PER_ROW);
      assertTrue(jvm.contains(perThread) && !jvm.contains("_column_"), jvm);
    }
    String narrow = explain(narrowRows, LaunchConfiguration.DEFAULT);
    assertTrue(narrow.contains(perThread) && !narrow.contains("_column_"), narrow);
  }

  @Test
  void rowReadsOnAGpuGoThroughATiledTransposeAndOnTheJvmDoNot() {
    LoweredPrograms matmul = LoweredPrograms.of(TestPrograms.load(TestPrograms.P1_MATMUL));
    String cuda = explain(matmul, LaunchConfiguration.DEFAULT);
    assertTrue(cuda.contains("(tiled shared-memory transpose of an input), then "), cuda);
    assertTrue(cuda.contains("reads: coalesced through a tiled transpose of "), cuda);
    String jvm = explain(matmul, LaunchConfiguration.THREAD_PER_ROW);
    assertTrue(!jvm.contains("transpose"), jvm);
  }

  @Test
  void everyKernelTheLoweringNamesHasASkeleton() {
    for (String program : java.util.List.of("OptionPricing", "LocVolCalib", "InterestCalib")) {
      KernelPlan plan =
          LoweredPrograms.of(TestPrograms.load("finpar/" + program)).optimized().kernelPlan();
      for (KernelPlan.Kernel kernel : plan.kernels()) {
        String line = KernelExplanation.explain(plan, kernel, LaunchConfiguration.THREAD_PER_ROW);
        assertTrue(line.startsWith(kernel.kind() + ": "), line);
      }
    }
  }
}
