package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.lower.LoweredPrograms;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The tiled transpose in CUDA C: its padded tile is a static {@code __shared__} array, which takes
 * no dynamic shared memory, its barriers are {@code __syncthreads()}, and the groups that launch it
 * compile with {@code nvcc -ptx -arch=sm_90} (skipped where nvcc is absent), for every element
 * type.
 */
class TiledTransposePtxTest {
  private static final List<String> PROGRAMS =
      List.of(
          "fun [f64] main([[f64]] m) = map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m)",
          "fun [f32] main([[f32]] m) = map(fn f32 ([f32] row) => reduce(op +, 0.0f32, row), m)",
          "fun [[i64]] main([[i64]] m) = map(fn [i64] ([i64] row) => map(fn i64 (i64 x) => x * 2i64, row), m)",
          "fun [[[i32]]] main([[[i32]]] c) = map(fn [[i32]] ([[i32]] p) => map(fn [i32] ([i32] r) => scan(op +, 0, r), p), c)",
          "fun [[bool]] main([[bool]] m) = map(fn [bool] ([bool] row) => map(fn bool (bool b) => not b, row), m)");

  private static KernelGroup lowered(String source) {
    LoweredPrograms lowered = LoweredPrograms.of(dev.l0.syntax.L0Parser.parse(source, "test.l0"));
    assertEquals(List.of(), lowered.rejections(), source);
    assertEquals(1, lowered.groups().size(), source);
    return lowered.groups().get(0);
  }

  private static Kernel transpose(KernelGroup group) {
    return group.kernels().stream()
        .filter(k -> k.name().contains("_transpose"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no transpose in " + group.name()));
  }

  @Test
  void theTileIsAStaticSharedArrayAndTheBarriersAreSyncthreads() {
    KernelGroup group = lowered(PROGRAMS.get(0));
    Kernel transpose = transpose(group);
    String text = CudaPrinter.print(group, CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    SharedArray tile = transpose.shared().get(0);
    assertTrue(text.contains("__shared__ double " + tile.name() + "[1056];"), text);
    assertEquals(2, text.split("__syncthreads\\(\\);", -1).length - 1, text);
    assertEquals(
        0,
        CudaPrinter.sharedMemoryBytes(transpose, 256),
        "a static tile needs no dynamic shared memory");
  }

  @Test
  void fixedAndBlockSizedSharedArraysMixInOneKernel() {
    SharedArray tile = SharedArray.ofFixedSize("tile", ScalarType.I32, 10);
    SharedArray sums = new SharedArray("sums", ScalarType.F64, 2);
    Kernel kernel =
        new Kernel(
            "k", List.of(), List.of(), List.of(tile, sums), List.of(new KernelStmt.Barrier()));
    assertEquals(
        2 * 4 * 8,
        CudaPrinter.sharedMemoryBytes(kernel, 4),
        "only the block-sized array is dynamic");
    String text = CudaPrinter.printModule(List.of(kernel), CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    assertTrue(text.contains("__shared__ int tile[10];"), text);
    assertTrue(text.contains("double* sums = (double*)((unsigned char*)l0_shared + 0);"), text);
  }

  @Test
  void groupsWithATransposeCompileToPtx() throws CudaCompileException {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    assumeTrue(
        nvcc.isPresent(),
        "nvcc is not on the PATH nor in $CUDA_HOME/bin: the transpose kernels are not compiled");
    for (String source : PROGRAMS) {
      KernelGroup group = lowered(source);
      String ptx =
          nvcc.get()
              .compileToPtx(
                  CudaPrinter.print(group, CudaKernelExecutor.DEFAULT_BLOCK_SIZE), "transpose");
      assertTrue(ptx.contains(".entry " + transpose(group).name() + "("), source);
      assertTrue(ptx.contains(".shared"), "PTX of " + source + " declares no shared memory");
      assertTrue(ptx.contains("bar.sync"), "PTX of " + source + " has no barrier");
    }
  }
}
