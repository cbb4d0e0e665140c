package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A screma's chunk kernel (a reduction and a map of one array joined, {@code FUSE-HORIZONTAL-MAP})
 * on the JVM backend: its map part runs staged, as a redomap's does ({@link StagedRedomap}), the
 * map's rows are stored by the fold, and the sum equals the reduction's own kernel's (the same
 * reduction order) and the mapped array the reference interpreter's, bit for bit, on 1 and 2
 * threads, for sizes around the staged chunk of {@link StagedMapPrinter#REDOMAP_CHUNK} rows and the
 * reduction order's chunks.
 */
class StagedScremaTest {
  private static final Program PROGRAM =
      L0Parser.parse(
          """
          fun {f64, [f64]} main([f64] xs) =
            let s = reduce(op +, 0.0, map(fn f64 (f64 x) => exp(x * 0.001), xs)) in
            let ys = map(fn f64 (f64 x) => log(x * x + 1.0), xs) in
            {s, ys}
          """,
          "screma.l0");

  /** The reduction alone, in the reduction order of its own redomap kernel. */
  private static final Program SUM_ALONE =
      L0Parser.parse(
          "fun f64 main([f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => exp(x * 0.001), xs))",
          "sum.l0");

  /** The map alone. */
  private static final Program MAP_ALONE =
      L0Parser.parse(
          "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => log(x * x + 1.0), xs)", "map.l0");

  /** The same sum beside a map whose rows are arrays of the size of {@code ws}. */
  private static final Program WITH_ARRAY_ROWS =
      L0Parser.parse(
          """
          fun {f64, [[f64]]} main([f64] xs, [f64] ws) =
            let s = reduce(op +, 0.0, map(fn f64 (f64 x) => exp(x * 0.001), xs)) in
            let ys = map(fn [f64] (f64 x) =>
                let l = log(x * x + 1.0) in map(fn f64 (f64 w) => l * w, ws), xs) in
            {s, ys}
          """,
          "rows.l0");

  /** The map of array rows alone. */
  private static final Program ARRAY_ROWS_ALONE =
      L0Parser.parse(
          """
          fun [[f64]] main([f64] xs, [f64] ws) =
            map(fn [f64] (f64 x) => let l = log(x * x + 1.0) in map(fn f64 (f64 w) => l * w, ws), xs)
          """,
          "rows.l0");

  /**
   * A maximum (the same in any reduction order) beside a map of array rows with no work to stage:
   * the chunk kernel runs per row.
   */
  private static final Program WITH_PLAIN_ARRAY_ROWS =
      L0Parser.parse(
          """
          fun {f64, [[f64]]} main([f64] xs, [f64] ws) =
            {reduce(fn f64 (f64 a, f64 b) => if a < b then b else a, -1e308, xs),
             map(fn [f64] (f64 x) => map(fn f64 (f64 w) => x * w, ws), xs)}
          """,
          "plain.l0");

  /** The first kernel of {@code program}'s one screma, lowered for the JVM backend. */
  private static String chunkKernelForm(Program program) {
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), optimized::explain);
    assertEquals(KernelKind.SCREMA, kernels.get(0).kind());
    KernelGroup group =
        KernelLowering.lower(
            optimized.kernelPlan(), kernels.get(0), LaunchConfiguration.THREAD_PER_ROW);
    return JvmKernelForm.describe(group.kernels().get(0));
  }

  @Test
  void aChunkKernelWritingArrayRowsIsStagedOrRunsPerRow() {
    String staged = chunkKernelForm(WITH_ARRAY_ROWS);
    assertTrue(staged.startsWith("map part staged, fold per row in the reduction order"), staged);
    String perRow = chunkKernelForm(WITH_PLAIN_ARRAY_ROWS);
    assertTrue(perRow.startsWith("per row"), perRow);
  }

  @Test
  void theSumAndTheArrayRowsEqualEachRunAloneBitForBit() {
    Random random = new Random(20261127);
    Value ws =
        new Value.Array(
            ScalarType.F64,
            List.of(ScalarValue.f64(1.5), ScalarValue.f64(-0.25), ScalarValue.f64(3.0)));
    for (int rows : new int[] {1, 7, 1023, 1024, 1025, 3 * 1024 + 77}) {
      List<Value> elements = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        elements.add(ScalarValue.f64((random.nextDouble() - 0.4) * 2000));
      }
      Value xs = new Value.Array(ScalarType.F64, elements);
      for (int threads : new int[] {1, 2}) {
        JvmKernelExecutor backend = new JvmKernelExecutor(threads);
        Value expected =
            new Value.Tuple(
                List.of(
                    HostRunner.compile(SUM_ALONE, backend).call("main", List.of(xs)),
                    new Interpreter(ARRAY_ROWS_ALONE).call("main", List.of(xs, ws))));
        assertEquals(
            expected,
            HostRunner.compile(WITH_ARRAY_ROWS, backend).call("main", List.of(xs, ws)),
            rows + " rows on " + threads + " threads");
        assertEquals(
            new Interpreter(WITH_PLAIN_ARRAY_ROWS).call("main", List.of(xs, ws)),
            HostRunner.compile(WITH_PLAIN_ARRAY_ROWS, backend).call("main", List.of(xs, ws)),
            rows + " rows on " + threads + " threads, per row");
      }
    }
  }

  @Test
  void theChunkKernelIsStagedAndExplainSaysSo() {
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(PROGRAM));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), optimized::explain);
    assertEquals(KernelKind.SCREMA, kernels.get(0).kind());
    KernelGroup group =
        KernelLowering.lower(
            optimized.kernelPlan(), kernels.get(0), LaunchConfiguration.THREAD_PER_ROW);
    String form = JvmKernelForm.describe(group.kernels().get(0));
    assertTrue(form.startsWith("map part staged, fold per row in the reduction order"), form);
  }

  @Test
  void theSumAndTheMappedRowsEqualEachRunAloneBitForBit() {
    Random random = new Random(20261126);
    for (int rows : new int[] {1, 7, 1023, 1024, 1025, 3 * 1024 + 77, 20_000}) {
      List<Value> elements = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        elements.add(ScalarValue.f64((random.nextDouble() - 0.4) * 2000));
      }
      List<Value> args = List.of(new Value.Array(ScalarType.F64, elements));
      for (int threads : new int[] {1, 2}) {
        JvmKernelExecutor backend = new JvmKernelExecutor(threads);
        Value expected =
            new Value.Tuple(
                List.of(
                    HostRunner.compile(SUM_ALONE, backend).call("main", args),
                    new Interpreter(MAP_ALONE).call("main", args)));
        assertEquals(
            expected,
            HostRunner.compile(PROGRAM, backend).call("main", args),
            rows + " rows on " + threads + " threads");
      }
    }
  }
}
