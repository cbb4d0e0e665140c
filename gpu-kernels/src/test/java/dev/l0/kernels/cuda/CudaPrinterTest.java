package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.ir.SharedArray;
import dev.l0.kernels.ir.ThreadIndex;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CUDA C text of kernel IR: signatures, shared memory, and scalar operations with L0's meaning.
 */
class CudaPrinterTest {
  private static final Buffer XS = new Buffer("xs", ScalarType.I32);
  private static final Buffer YS = new Buffer("ys", ScalarType.F32);
  private static final KernelExpr.Var N = new KernelExpr.Var("n", ScalarType.I64);
  private static final KernelExpr I = new KernelExpr.Thread(ThreadIndex.THREAD_IDX);

  @Test
  void constantsKeepTheirExactValues() {
    assertEquals("(-2147483647 - 1)", CudaPrinter.constant(ScalarValue.i32(Integer.MIN_VALUE)));
    assertEquals(
        "(-9223372036854775807LL - 1LL)", CudaPrinter.constant(ScalarValue.i64(Long.MIN_VALUE)));
    assertEquals("(0.1)", CudaPrinter.constant(ScalarValue.f64(0.1)));
    assertEquals("(0.1f)", CudaPrinter.constant(ScalarValue.f32(0.1f)));
    assertEquals("(-0.0)", CudaPrinter.constant(ScalarValue.f64(-0.0)));
    assertEquals(
        "l0_bits_double(" + Double.doubleToLongBits(Double.NaN) + "LL)",
        CudaPrinter.constant(ScalarValue.f64(Double.NaN)));
    assertEquals(
        "((float)l0_bits_double(" + Double.doubleToLongBits(Double.NEGATIVE_INFINITY) + "LL))",
        CudaPrinter.constant(ScalarValue.f32(Float.NEGATIVE_INFINITY)));
  }

  @Test
  void theErrorWordComesFirstThenBuffersThenScalars() {
    Kernel kernel = new Kernel("k", List.of(XS, YS), List.of(N), List.of(), List.of());
    assertTrue(
        CudaPrinter.print(groupOf(kernel), CudaKernelExecutor.DEFAULT_BLOCK_SIZE)
            .contains(
                "extern \"C\" __global__ void __launch_bounds__(256) k(int* l0_error, int* __restrict__ xs, float* __restrict__ ys,"
                    + " long long n) {"));
  }

  @Test
  void integerArithmeticWrapsThroughHelpersAndFloatArithmeticStaysInItsType() {
    KernelExpr x = new KernelExpr.Load(XS, I);
    KernelExpr y = new KernelExpr.Load(YS, I);
    String text =
        body(
            new KernelStmt.Store(
                XS, I, new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I32, x, x)),
            new KernelStmt.Store(
                XS, I, new KernelExpr.Binary(BinaryOperator.SHL, ScalarType.I32, x, x)),
            new KernelStmt.Store(
                YS, I, new KernelExpr.Binary(BinaryOperator.MUL, ScalarType.F32, y, y)),
            new KernelStmt.Store(
                YS, I, new KernelExpr.Binary(BinaryOperator.MOD, ScalarType.F32, y, y)),
            new KernelStmt.RaiseError(3));
    assertTrue(
        text.contains(
            "xs[((long long)threadIdx.x)] = l0_add_i32(xs[((long long)threadIdx.x)], xs[((long long)threadIdx.x)]);"),
        text);
    assertTrue(text.contains("l0_shl_i32("), text);
    assertTrue(
        text.contains("(ys[((long long)threadIdx.x)] * ys[((long long)threadIdx.x)])"), text);
    assertTrue(text.contains("fmodf("), text);
    assertTrue(text.contains("atomicCAS(l0_error, 0, 3);"), text);
  }

  @Test
  void aRaiseWithValuesStoresThemAfterTheCodeOnlyWhereItSetTheCode() {
    String text =
        body(new KernelStmt.RaiseError(2, List.of(new KernelExpr.Constant(ScalarValue.i64(7)), I)));
    assertTrue(text.contains("if (atomicCAS(l0_error, 0, 2) == 0) {"), text);
    assertTrue(text.contains("((long long*) (l0_error + 2))[0] = (long long) ((7LL));"), text);
    assertTrue(text.contains("((long long*) (l0_error + 2))[1] = (long long) ("), text);
  }

  @Test
  void sharedArraysAreCarvedFromDynamicSharedMemoryInEightByteSteps() {
    SharedArray flags = new SharedArray("flags", ScalarType.BOOL, 1);
    SharedArray sums = new SharedArray("sums", ScalarType.F64, 2);
    Kernel kernel =
        new Kernel(
            "k", List.of(), List.of(), List.of(flags, sums), List.of(new KernelStmt.Barrier()));
    assertEquals(8 + 2 * 4 * 8, CudaPrinter.sharedMemoryBytes(kernel, 4));
    assertEquals(32 + 2 * 32 * 8, CudaPrinter.sharedMemoryBytes(kernel, 32));
    String text = CudaPrinter.print(groupOf(kernel), CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    assertTrue(text.contains("extern __shared__ unsigned long long l0_shared[];"), text);
    assertTrue(text.contains("__syncthreads();"), text);
  }

  @Test
  void threadPrivateArraysAreInterleavedSoNeighbouringThreadsElementsAreAdjacent() {
    Buffer scratch = new Buffer("scratch", ScalarType.F64, Buffer.Space.THREAD_PRIVATE);
    KernelExpr k = new KernelExpr.Var("k", ScalarType.I64);
    Kernel kernel =
        new Kernel(
            "k",
            List.of(scratch),
            List.of(),
            List.of(),
            List.of(
                new KernelStmt.Declare(
                    (KernelExpr.Var) k, new KernelExpr.Constant(ScalarValue.i64(3))),
                new KernelStmt.Store(
                    scratch,
                    k,
                    new KernelExpr.Load(scratch, new KernelExpr.Constant(ScalarValue.i64(0))))));
    String text = CudaPrinter.print(groupOf(kernel), CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    assertTrue(
        text.contains("const long long l0_threads = (long long)gridDim.x * blockDim.x;"), text);
    assertTrue(
        text.contains(
            "const long long l0_grid_thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;"),
        text);
    assertTrue(
        text.contains(
            "scratch[(k) * l0_threads + l0_grid_thread] = scratch[((0LL)) * l0_threads + l0_grid_thread];"),
        text);
    assertEquals(3 * 1024, CudaPrinter.threadPrivateElements(3, 1024));
    assertFalse(
        body().contains("l0_threads"),
        "a kernel without thread-private buffers declares no thread count");
  }

  @Test
  void theHelpersDefineEveryOperationThePrinterCalls() {
    for (BinaryOperator op :
        List.of(
            BinaryOperator.ADD,
            BinaryOperator.SUB,
            BinaryOperator.MUL,
            BinaryOperator.DIV,
            BinaryOperator.MOD,
            BinaryOperator.POW,
            BinaryOperator.SHL,
            BinaryOperator.SHR)) {
      for (String suffix : List.of("_i32(", "_i64(")) {
        assertTrue(
            CudaPrinter.PRELUDE.contains("l0_" + op.name().toLowerCase() + suffix), op + suffix);
      }
    }
    assertFalse(CudaPrinter.PRELUDE.contains("atomic"));
  }

  private static String body(KernelStmt... statements) {
    return CudaPrinter.print(
        groupOf(new Kernel("k", List.of(XS, YS), List.of(), List.of(), List.of(statements))),
        CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
  }

  private static dev.l0.kernels.ir.KernelGroup groupOf(Kernel kernel) {
    return new dev.l0.kernels.ir.KernelGroup(
        "g", List.of(), List.of(kernel), List.of(), List.of(), List.of());
  }
}
