package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * FISSION-REDOMAP ({@code FoldFission}): on a GPU's configuration a redomap whose fold runs a loop
 * on each row apart from its accumulators runs that work in a map kernel of its own, a thread per
 * row, then the redomap of what remains; on the JVM backend's configuration it stays fused. The
 * split group gives the fused group's results bit for bit (the same chunks, the same tree, each
 * row's arithmetic unchanged), floats included, and fails where the interpreter fails.
 */
class FoldFissionTest {
  /** A sum over rows of a loop's result per row: scalar accumulators. */
  private static final String LOOP_SUM =
      """
      fun f64 main([f64] xs, i32 steps) =
        reduce(op +, 0.0,
               map(fn f64 (f64 x) =>
                     loop (y = x) = for i < steps do y * 0.75 + x / (f64(i) + 1.5)
                     in y,
                   xs))
      """;

  /**
   * OptionPricing's shape: each row a loop that builds an array, the accumulator an array added
   * element by element; and a second accumulator, a maximum, that folds the row's own value.
   */
  private static final String ARRAY_SUMS =
      """
      fun {[f64], f64} main([f64] xs, i32 models) =
        let {sums, top} =
          reduce(fn {[f64], f64} ([f64] a, f64 am, [f64] b, f64 bm) =>
                   {map(op +, zip(a, b)), max(am, bm)},
                 {replicate(models, 0.0), -1.0e300},
                 map(fn {[f64], f64} (f64 x) =>
                       {loop (row = replicate(models, x)) = for m < models do
                          let row[m] = row[m] * (x + f64(m)) / 3.0 in row
                        in row,
                        x},
                     xs)) in
        {sums, top}
      """;

  /**
   * A nested reduce per row: split, a thread per row sums its row, reading the matrix from a
   * transposed copy (a GPU reads along rows per thread badly).
   */
  private static final String ROW_SUMS =
      """
      fun f64 main([[f64]] m) =
        reduce(op +, 0.0, map(fn f64 ([f64] row) => reduce(op +, 0.0, row) * 0.5, m))
      """;

  /** Cheap arithmetic per row: writing and reading its values would cost more than it gains. */
  private static final String CHEAP =
      """
      fun f64 main([f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => x * x + 1.0, xs))
      """;

  /** A loop per row that reads nothing but the row: fails at row 37 by its index. */
  private static final String FAILING_ROW =
      """
      fun i32 main([i32] xs, [i32] table) =
        reduce(op +, 0,
               map(fn i32 (i32 x) =>
                     loop (s = 0) = for i < 3 do s + table[x + i]
                     in s,
                   xs))
      """;

  @Test
  void aLoopPerRowIsSplitIntoAMapOnAGpuAndStaysFusedOnTheJvm() {
    assertEquals(
        List.of("fold_map", "chunks", "tree"), kernelKinds(LOOP_SUM, LaunchConfiguration.DEFAULT));
    assertEquals(
        List.of("chunks", "tree"), kernelKinds(LOOP_SUM, LaunchConfiguration.THREAD_PER_ROW));
    assertEquals(
        List.of("fold_map", "array_partials", "array_tree"),
        kernelKinds(ARRAY_SUMS, LaunchConfiguration.DEFAULT));
  }

  @Test
  void cheapArithmeticPerRowStaysFused() {
    assertEquals(List.of("chunks", "tree"), kernelKinds(CHEAP, LaunchConfiguration.DEFAULT));
  }

  @Test
  void theSplitSumIsTheFusedSumBitForBit() {
    for (int rows : new int[] {0, 1, 15, 16, 17, 100, 1000}) {
      String input = doubles(rows, 11 + rows) + " 7";
      assertSameOnSimulatorAndJvm(LOOP_SUM, input, rows + " rows");
    }
  }

  @Test
  void splitArrayAccumulatorsAreTheFusedOnesBitForBit() {
    for (int rows : new int[] {0, 3, 16, 33, 400}) {
      String input = doubles(rows, 5 + rows) + " 4";
      assertSameOnSimulatorAndJvm(ARRAY_SUMS, input, rows + " rows");
    }
  }

  @Test
  void splitRowSumsReadFromATransposedCopyAreTheFusedOnesBitForBit() {
    assertEquals(
        List.of("transpose", "fold_map", "chunks", "tree"),
        kernelKinds(ROW_SUMS, LaunchConfiguration.DEFAULT));
    assertTrue(KernelLowering.runsAThreadPerRow(group(ROW_SUMS, LaunchConfiguration.DEFAULT)));
    assertFalse(KernelLowering.runsAThreadPerRow(group(CHEAP, LaunchConfiguration.DEFAULT)));
    for (int rows : new int[] {0, 5, 40}) {
      StringBuilder m = new StringBuilder("[");
      for (int r = 0; r < rows; r++) {
        m.append(r == 0 ? "" : ", ").append(doubles(7, 100 + r));
      }
      assertSameOnSimulatorAndJvm(ROW_SUMS, m.append("]").toString(), rows + " rows");
    }
  }

  @Test
  void aRowThatFailsInTheSplitMapFailsWhereTheInterpreterFails() {
    StringBuilder rows = new StringBuilder("[");
    for (int i = 0; i < 60; i++) {
      rows.append(i == 0 ? "" : ", ").append(i == 37 ? 9 : i % 5);
    }
    EveryBackend.assertFailsAs(
        List.of("redomap"), FAILING_ROW, "failing.l0", rows + "] [1, 2, 3, 4, 5, 6, 7, 8, 9]");
  }

  /** The group of the program's one plan kernel lowered for {@code configuration}. */
  private static KernelGroup group(String source, LaunchConfiguration configuration) {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "fission.l0")));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), kernels::toString);
    return KernelLowering.lower(optimized.kernelPlan(), kernels.get(0), configuration);
  }

  /** The kernels of the program's one plan kernel lowered for {@code configuration}, by suffix. */
  private static List<String> kernelKinds(String source, LaunchConfiguration configuration) {
    return group(source, configuration).kernels().stream()
        .map(Kernel::name)
        .map(name -> name.replaceFirst("_\\d+$", "").replaceFirst("^.*_\\d+_", ""))
        .collect(Collectors.toList());
  }

  /**
   * The simulator (the split group, blocks of 1 and 32 threads) gives the JVM backend's result (the
   * fused group) bit for bit.
   */
  private static void assertSameOnSimulatorAndJvm(String source, String input, String what) {
    Program program = L0Parser.parse(source, "fission.l0");
    List<Value> args = EveryBackend.mainArguments(program, input);
    Value fused = HostRunner.compile(program, new JvmKernelExecutor(2)).call("main", args);
    for (int blockSize : new int[] {1, 32}) {
      assertEquals(
          fused,
          HostRunner.compile(program, new SimulatorExecutor(blockSize)).call("main", args),
          what + ", blocks of " + blockSize);
    }
  }

  /** {@code n} doubles of mixed signs and magnitudes, as an L0 array literal. */
  private static String doubles(int n, long seed) {
    Random random = new Random(seed);
    return random
        .doubles(n)
        .mapToObj(d -> String.format(Locale.ROOT, "%.17g", (d - 0.3) * Math.pow(10, d * 6 - 3)))
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
