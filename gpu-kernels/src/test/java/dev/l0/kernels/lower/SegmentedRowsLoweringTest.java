package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.ScalarValue;
import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.cuda.NvccCompiler;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The launch configuration and the block-per-row lowering of maps whose body is one integer or
 * boolean reduction or scan over a row: which maps get it, the kernel's structure, the grid cap,
 * and the CUDA C of both lowerings compiled with {@code nvcc -ptx} where nvcc is present.
 */
class SegmentedRowsLoweringTest {
  static final String ROW_SUMS =
      "fun [i32] main([[i32]] m) = map(fn i32 ([i32] row) => reduce(op +, 0, row), m)";
  static final String ROW_SQUARES =
      "fun [i64] main([[i32]] m) = "
          + "map(fn i64 ([i32] row) => reduce(op +, 0i64, map(fn i64 (i32 x) => i64(x) * i64(x), row)), m)";
  static final String ROW_AFFINE =
      "fun [{i32, i32}] main([[i32]] a, [[i32]] b) = map(fn {i32, i32} ([i32] xs, [i32] ys) => "
          + "reduce(fn {i32, i32} ({i32, i32} f, {i32, i32} g) => let {p, q} = f in let {r, s} = g in {p * r, q * r + s}, "
          + "{1, 0}, zip(xs, ys)), zip(a, b))";
  static final String ROWS_ALL_POSITIVE =
      "fun [bool] main([[i32]] m) = "
          + "map(fn bool ([i32] row) => reduce(op &&, true, map(fn bool (i32 x) => 0 < x, row)), m)";
  static final String ROW_PREFIX_SUMS =
      "fun [[i32]] main([[i32]] m) = map(fn [i32] ([i32] row) => scan(op +, 0, row), m)";
  static final String ROW_AFFINE_PREFIXES =
      "fun [[{i32, i32}]] main([[i32]] a, [[i32]] b) = "
          + "map(fn [{i32, i32}] ([i32] xs, [i32] ys) => scan(fn {i32, i32} ({i32, i32} f, {i32, i32} g) => "
          + "let {p, q} = f in let {r, s} = g in {p * r, q * r + s}, {1, 0}, zip(xs, ys)), zip(a, b))";
  private static final String FLOAT_ROW_SUMS =
      "fun [f64] main([[f64]] m) = map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)";

  private static KernelGroup lower(String source, LaunchConfiguration configuration) {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(source, "test.l0")));
    KernelPlan plan = optimized.kernelPlan();
    assertEquals(1, plan.kernels().size(), "kernels of " + source);
    return KernelLowering.lower(plan, plan.kernels().get(0), configuration);
  }

  @Test
  void devicePropertiesGiveTheGridCapAndTheThreshold() {
    LaunchConfiguration h100 = LaunchConfiguration.forDevice(132, 16);
    assertEquals(2112, h100.maxBlocks());
    assertEquals(4224, h100.segmentedRowsBelow());
    assertEquals(new LaunchConfiguration(1024, 2048), LaunchConfiguration.DEFAULT);
    assertEquals(new LaunchConfiguration(2112, 5), h100.withSegmentedRowsBelow(5));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfiguration.forDevice(0, 16));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfiguration.forDevice(8, 0));
    assertThrows(IllegalArgumentException.class, () -> new LaunchConfiguration(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new LaunchConfiguration(10, -1));
  }

  @Test
  void integerAndBooleanRowReductionsAndScansGetTheBlockPerRowLoop() {
    for (String source :
        List.of(
            ROW_SUMS,
            ROW_SQUARES,
            ROW_AFFINE,
            ROWS_ALL_POSITIVE,
            ROW_PREFIX_SUMS,
            ROW_AFFINE_PREFIXES)) {
      KernelGroup group = lower(source, LaunchConfiguration.DEFAULT);
      Kernel kernel = single(group.kernels());
      assertTrue(kernel.name().endsWith("_rows"), kernel.name());
      assertFalse(kernel.shared().isEmpty(), "the block tree's shared arrays in " + source);
      assertTrue(
          barriers(kernel.body()) >= 3,
          "the block's steps and the row's end are separated by barriers in " + source);
      KernelLoweringTest.assertWellFormed(group);
    }
  }

  @Test
  void floatRowsAndOtherBodiesKeepTheThreadPerRow() {
    for (String source :
        List.of(
            FLOAT_ROW_SUMS,
            "fun [[f32]] main([[f32]] m) = map(fn [f32] ([f32] row) => scan(op +, 0.0f32, row), m)",
            "fun [i32] main([[i32]] m) = map(fn i32 ([i32] row) => reduce(op +, 0, row) * 2, m)",
            "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => x + 1, xs)")) {
      List<Kernel> kernels = lower(source, LaunchConfiguration.DEFAULT).kernels();
      assertTrue(
          kernels.subList(0, kernels.size() - 1).stream()
              .allMatch(k -> k.name().contains("_transpose")),
          "only transposes of rows read by threads come before the row kernel: " + source);
      Kernel kernel = kernels.get(kernels.size() - 1);
      assertTrue(kernel.name().endsWith("_map"), kernel.name());
      assertEquals(List.of(), kernel.shared(), source);
      assertEquals(0, barriers(kernel.body()), source);
    }
  }

  @Test
  void theGridIsCappedAtTheConfiguredBlocks() {
    for (String source : List.of(ROW_SUMS, FLOAT_ROW_SUMS)) {
      KernelGroup group = lower(source, new LaunchConfiguration(7, 100));
      List<HostStep.Launch> launches =
          group.steps().stream()
              .filter(s -> s instanceof HostStep.Launch)
              .map(s -> (HostStep.Launch) s)
              .toList();
      assertFalse(launches.isEmpty(), source);
      for (HostStep.Launch launch : launches) {
        HostStep.Define grid =
            single(
                group.steps().stream()
                    .filter(
                        s ->
                            s instanceof HostStep.Define d
                                && d.variable().equals(launch.gridSize()))
                    .map(s -> (HostStep.Define) s)
                    .toList());
        KernelExpr.Call cap = (KernelExpr.Call) grid.value();
        assertEquals(
            new KernelExpr.Constant(ScalarValue.i64(7)),
            cap.args().get(1),
            source + ": " + launch.kernel().name());
      }
    }
  }

  @Test
  void bothLoweringsCompileToPtx() {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    assumeTrue(
        nvcc.isPresent(),
        "nvcc is not on the PATH nor in $CUDA_HOME/bin: generated kernels are not compiled");
    List<Kernel> kernels = new ArrayList<>();
    List<String> sources =
        List.of(
            ROW_SUMS,
            ROW_SQUARES,
            ROW_AFFINE,
            ROWS_ALL_POSITIVE,
            ROW_PREFIX_SUMS,
            ROW_AFFINE_PREFIXES,
            FLOAT_ROW_SUMS);
    for (int p = 0; p < sources.size(); p++) {
      for (KernelGroup group :
          List.of(
              lower(sources.get(p), LaunchConfiguration.DEFAULT),
              lower(sources.get(p), new LaunchConfiguration(16, 0)))) {
        for (Kernel k : group.kernels()) {
          kernels.add(
              new Kernel(
                  "p" + p + "_" + kernels.size() + "_" + k.name(),
                  k.buffers(),
                  k.scalars(),
                  k.shared(),
                  k.body()));
        }
      }
    }
    String ptx =
        nvcc.get()
            .compileToPtx(
                CudaPrinter.printModule(kernels, CudaKernelExecutor.DEFAULT_BLOCK_SIZE),
                "segmented");
    for (Kernel k : kernels) {
      assertTrue(ptx.contains(".entry " + k.name() + "("), "PTX lacks " + k.name());
    }
  }

  private static int barriers(List<KernelStmt> body) {
    int[] count = {0};
    KernelLoweringTest.forEachStatement(
        body, s -> count[0] += s instanceof KernelStmt.Barrier ? 1 : 0);
    return count[0];
  }

  private static <T> T single(List<T> items) {
    assertEquals(1, items.size(), items.toString());
    return items.get(0);
  }
}
