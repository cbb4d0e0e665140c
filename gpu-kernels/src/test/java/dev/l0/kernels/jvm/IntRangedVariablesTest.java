package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which {@code i64} locals hold only {@code int} values ({@link IntRangedVariables}), and that a
 * loop bounded by one prints with an {@code int} counter (which the JIT compiler unrolls and checks
 * once) and runs the same iterations, while a loop bounded by a local that may hold any {@code
 * long} keeps its {@code long} counter.
 */
class IntRangedVariablesTest {
  private static final KernelExpr.Var COUNT32 = new KernelExpr.Var("count32", ScalarType.I32);
  private static final KernelExpr.Var COUNT64 = new KernelExpr.Var("count64", ScalarType.I64);
  private static final KernelExpr.Var FLAG = new KernelExpr.Var("flag", ScalarType.BOOL);

  private static KernelExpr.Var i64(String name) {
    return new KernelExpr.Var(name, ScalarType.I64);
  }

  private static KernelExpr constant(long value) {
    return new KernelExpr.Constant(ScalarValue.i64(value));
  }

  private static KernelExpr widened(KernelExpr i32) {
    return new KernelExpr.Call(Builtin.TO_I64, List.of(i32));
  }

  private static Kernel kernel(List<Buffer> buffers, List<KernelStmt> body) {
    return new Kernel("k", buffers, List.of(COUNT32, COUNT64, FLAG), List.of(), body);
  }

  @Test
  void localsGivenOnlyWidenedIntsIntConstantsOrOneAnotherAreIntRanged() {
    KernelExpr.Var rows = i64("rows");
    KernelExpr.Var either = i64("either");
    KernelExpr.Var big = i64("big");
    KernelExpr.Var anyLong = i64("anyLong");
    KernelExpr.Var copied = i64("copied");
    KernelExpr.Var summed = i64("summed");
    KernelExpr.Var counter = i64("counter");
    List<KernelStmt> body =
        List.of(
            new KernelStmt.Declare(rows, constant(0)),
            new KernelStmt.If(
                FLAG,
                List.of(new KernelStmt.Assign(rows, widened(COUNT32))),
                List.of(new KernelStmt.Assign(rows, constant(Integer.MIN_VALUE)))),
            new KernelStmt.Declare(either, new KernelExpr.Select(FLAG, rows, constant(-5))),
            new KernelStmt.Declare(big, constant(1L << 31)),
            new KernelStmt.Declare(anyLong, COUNT64),
            // given an int-ranged value, then one that may be any long: not int-ranged
            new KernelStmt.Declare(copied, rows),
            new KernelStmt.Declare(
                summed, new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.I64, rows, rows)),
            new KernelStmt.For(
                counter,
                constant(0),
                rows,
                constant(1),
                List.of(new KernelStmt.Assign(copied, anyLong))));
    assertEquals(Set.of("rows", "either"), IntRangedVariables.of(kernel(List.of(), body)));
  }

  @Test
  void aScalarIsNeverIntRangedEvenWhereTheCodeAssignsItAnInt() {
    List<KernelStmt> body = List.of(new KernelStmt.Assign(COUNT64, widened(COUNT32)));
    assertEquals(Set.of(), IntRangedVariables.of(kernel(List.of(), body)));
  }

  @Test
  void aLoopBoundedByAnIntRangedLocalRunsWithAnIntCounterOverTheSameIterations() {
    Buffer ints = new Buffer("ints", ScalarType.I64);
    Buffer longs = new Buffer("longs", ScalarType.I64);
    KernelExpr.Var rows = i64("rows");
    KernelExpr.Var anyLong = i64("anyLong");
    KernelExpr.Var i = i64("i");
    KernelExpr.Var j = i64("j");
    List<KernelStmt> body =
        List.of(
            new KernelStmt.Declare(rows, constant(0)),
            new KernelStmt.Assign(rows, widened(COUNT32)),
            new KernelStmt.For(
                i, constant(0), rows, constant(1), List.of(new KernelStmt.Store(ints, i, i))),
            new KernelStmt.Declare(anyLong, COUNT64),
            new KernelStmt.For(
                j, constant(0), anyLong, constant(1), List.of(new KernelStmt.Store(longs, j, j))));
    Kernel kernel = kernel(List.of(ints, longs), body);
    String source = JavaKernelIrPrinter.print(kernel, false).source();
    assertTrue(source.contains("for (int i = "), source);
    assertFalse(source.contains("for (long i = "), source);
    assertTrue(source.contains("for (long j = "), source);

    long[] intsOut = new long[6];
    long[] longsOut = new long[6];
    int error =
        JaninoKernels.compile(kernel)
            .run(new Object[] {intsOut, longsOut}, new Object[] {4, 5L, true}, 0, 1, 1);
    assertEquals(0, error);
    assertArrayEquals(new long[] {0, 1, 2, 3, 0, 0}, intsOut);
    assertArrayEquals(new long[] {0, 1, 2, 3, 4, 0}, longsOut);
  }

  @Test
  void aLoopWhoseBodyAssignsItsCounterKeepsItsLongCounterAndItsBound() {
    Buffer skipping = new Buffer("skipping", ScalarType.I64);
    Buffer never = new Buffer("never", ScalarType.I64);
    KernelExpr.Var i = i64("i");
    KernelExpr.Var j = i64("j");
    List<KernelStmt> body =
        List.of(
            new KernelStmt.For(
                i,
                constant(0),
                constant(4),
                constant(1),
                List.of(
                    new KernelStmt.Store(skipping, i, i),
                    new KernelStmt.Assign(
                        i,
                        new KernelExpr.Binary(
                            BinaryOperator.ADD, ScalarType.I64, i, constant(1))))),
            // a bound below int's range, which an int cast would make 3
            new KernelStmt.For(
                j,
                constant(0),
                constant(-(1L << 32) + 3),
                constant(1),
                List.of(new KernelStmt.Store(never, j, j), new KernelStmt.Assign(j, j))));
    Kernel kernel = kernel(List.of(skipping, never), body);
    String source = JavaKernelIrPrinter.print(kernel, false).source();
    assertTrue(source.contains("for (long i = "), source);
    assertTrue(source.contains("for (long j = "), source);

    long[] skippingOut = {-1, -1, -1, -1};
    long[] neverOut = {-1, -1, -1, -1};
    int error =
        JaninoKernels.compile(kernel)
            .run(new Object[] {skippingOut, neverOut}, new Object[] {4, 5L, true}, 0, 1, 1);
    assertEquals(0, error);
    assertArrayEquals(new long[] {0, -1, 2, -1}, skippingOut);
    assertArrayEquals(new long[] {-1, -1, -1, -1}, neverOut);
  }
}
