package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Builtin;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link KernelFolding} decides from a kernel's constants (bounds and size checks of loops
 * with constant trip counts, locals that only ever hold a constant, branches on constants), what it
 * leaves (whatever a run could decide otherwise, or an operation that would raise), and that the
 * folded kernel computes and raises as the given one.
 */
class KernelFoldingTest {
  private static final Buffer OUT = new Buffer("out", ScalarType.I64);
  private static final KernelExpr.Var ROWS = new KernelExpr.Var("rows", ScalarType.I64);

  private static KernelExpr i64(long value) {
    return new KernelExpr.Constant(ScalarValue.i64(value));
  }

  private static KernelExpr i32(int value) {
    return new KernelExpr.Constant(ScalarValue.i32(value));
  }

  private static KernelExpr.Var local(String name, ScalarType type) {
    return new KernelExpr.Var(name, type);
  }

  private static KernelExpr binary(BinaryOperator op, ScalarType type, KernelExpr l, KernelExpr r) {
    return new KernelExpr.Binary(op, type, l, r);
  }

  private static KernelExpr not(KernelExpr e) {
    return new KernelExpr.Unary(PrefixOperator.NOT, e);
  }

  private static KernelExpr widened(KernelExpr e) {
    return new KernelExpr.Call(Builtin.TO_I64, List.of(e));
  }

  /** The lowering's check that {@code index} lies in {@code [0, size)}. */
  private static KernelExpr inBounds(KernelExpr index, KernelExpr size) {
    return binary(
        BinaryOperator.AND,
        ScalarType.BOOL,
        not(binary(BinaryOperator.LT, ScalarType.I64, index, i64(0))),
        binary(BinaryOperator.LT, ScalarType.I64, index, size));
  }

  private static Kernel kernel(List<KernelStmt> body) {
    return new Kernel("k", List.of(OUT), List.of(ROWS), List.of(), body);
  }

  /** The error code and the buffer {@code kernel} leaves with {@code rows} as its scalar. */
  private static long[] run(Kernel kernel, long rows) {
    long[] out = new long[8];
    int error = JaninoKernels.compile(kernel).run(new Object[] {out}, new Object[] {rows}, 0, 1, 1);
    long[] result = new long[out.length + 1];
    result[0] = error;
    System.arraycopy(out, 0, result, 1, out.length);
    return result;
  }

  @Test
  void checksOfALoopCounterWithinItsConstantBoundsGoAndOthersStay() {
    KernelExpr.Var i = local("i", ScalarType.I64);
    KernelStmt store = new KernelStmt.Store(OUT, i, i);
    KernelStmt raise = new KernelStmt.RaiseError(7, List.of(i));
    KernelStmt undecided =
        new KernelStmt.If(
            binary(BinaryOperator.LT, ScalarType.I64, i, i64(4)), List.of(), List.of(raise));
    KernelStmt againstTheRows = new KernelStmt.If(inBounds(i, ROWS), List.of(store), List.of());
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.For(
                    i,
                    i64(0),
                    i64(5),
                    i64(1),
                    List.of(
                        // the counter converted to i32 and back: its range fits, so it is kept
                        new KernelStmt.If(
                            inBounds(
                                widened(new KernelExpr.Call(Builtin.TO_I32, List.of(i))), i64(5)),
                            List.of(store),
                            List.of(raise)),
                        undecided,
                        againstTheRows))));
    Kernel folded = KernelFolding.of(given);
    KernelStmt.If keptPart =
        new KernelStmt.If(
            binary(BinaryOperator.LT, ScalarType.I64, i, ROWS), List.of(store), List.of());
    assertEquals(
        List.of(new KernelStmt.For(i, i64(0), i64(5), i64(1), List.of(store, undecided, keptPart))),
        folded.body());
    for (long rows : new long[] {3, 6}) {
      assertArrayEquals(run(given, rows), run(folded, rows), "rows " + rows);
    }
  }

  @Test
  void aCounterIsBelowItsOwnLoopsBoundWhateverThatBoundIs() {
    KernelExpr.Var i = local("i", ScalarType.I64);
    KernelExpr.Var j = local("j", ScalarType.I64);
    KernelExpr.Var rows32 = local("rows32", ScalarType.I32);
    KernelStmt store = new KernelStmt.Store(OUT, j, i);
    KernelStmt raise = new KernelStmt.RaiseError(5, List.of(j));
    // j counts to an i32 widened, so it fits an int and survives the round trip through one
    KernelExpr narrowedJ = widened(new KernelExpr.Call(Builtin.TO_I32, List.of(j)));
    List<KernelStmt> inner =
        List.of(
            new KernelStmt.If(inBounds(narrowedJ, widened(rows32)), List.of(store), List.of(raise)),
            // below the outer loop's bound is not below this one's
            new KernelStmt.If(
                binary(BinaryOperator.LT, ScalarType.I64, j, ROWS), List.of(), List.of(raise)));
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.Declare(rows32, new KernelExpr.Call(Builtin.TO_I32, List.of(ROWS))),
                new KernelStmt.For(
                    i,
                    i64(0),
                    ROWS,
                    i64(1),
                    List.of(
                        new KernelStmt.For(j, i, widened(rows32), i64(1), inner),
                        new KernelStmt.If(
                            binary(BinaryOperator.GEQ, ScalarType.I64, i, ROWS),
                            List.of(raise),
                            List.of())))));
    List<KernelStmt> folded = KernelFolding.of(given).body();
    KernelStmt.For outer = (KernelStmt.For) folded.get(1);
    assertEquals(1, outer.body().size(), "the check of i against its own bound goes");
    KernelStmt.For innerLoop = (KernelStmt.For) outer.body().get(0);
    assertEquals(List.of(store, inner.get(1)), innerLoop.body());
    for (long rows : new long[] {0, 3, 5}) {
      assertArrayEquals(run(given, rows), run(KernelFolding.of(given), rows), "rows " + rows);
    }
  }

  @Test
  void rangesAndComparisonsFollowUnchangingLocalsSumsAndMinima() {
    KernelExpr.Var rows32 = local("rows32", ScalarType.I32);
    KernelExpr.Var n = local("n", ScalarType.I32);
    KernelExpr.Var m = local("m", ScalarType.I32);
    KernelExpr.Var p = local("p", ScalarType.I64);
    KernelExpr.Var q = local("q", ScalarType.I32);
    KernelExpr pAsInt = new KernelExpr.Call(Builtin.TO_I32, List.of(p));
    KernelStmt store = new KernelStmt.Store(OUT, p, widened(q));
    KernelStmt raise = new KernelStmt.RaiseError(4, List.of(p));
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.Declare(rows32, new KernelExpr.Call(Builtin.TO_I32, List.of(ROWS))),
                // n = min(7, rows32) lies in [MIN, 7]; m = n + 1 in [MIN + 1, 8]
                new KernelStmt.Declare(
                    n, new KernelExpr.Call(Builtin.MIN, List.of(i32(7), rows32))),
                new KernelStmt.Declare(m, binary(BinaryOperator.ADD, ScalarType.I32, n, i32(1))),
                new KernelStmt.For(
                    p,
                    i64(0),
                    widened(n),
                    i64(1),
                    List.of(
                        new KernelStmt.Declare(
                            q, binary(BinaryOperator.ADD, ScalarType.I32, pAsInt, i32(1))),
                        // p + 1 < n + 1 because p < n and neither sum wraps; p + 1 >= 1
                        new KernelStmt.If(
                            inBounds(widened(q), widened(m)), List.of(store), List.of(raise)),
                        // p + 1 < 8 follows from the ranges alone: p in [0, 6]
                        new KernelStmt.If(
                            binary(BinaryOperator.LT, ScalarType.I32, q, i32(8)),
                            List.of(),
                            List.of(raise)),
                        // p < n + 1: below the loop's bound plus a constant
                        new KernelStmt.If(
                            binary(BinaryOperator.LT, ScalarType.I64, widened(pAsInt), widened(m)),
                            List.of(),
                            List.of(raise)),
                        // p * 3 + 2 lies in [2, 20]
                        new KernelStmt.If(
                            binary(
                                BinaryOperator.LT,
                                ScalarType.I64,
                                binary(
                                    BinaryOperator.ADD,
                                    ScalarType.I64,
                                    binary(BinaryOperator.MUL, ScalarType.I64, p, i64(3)),
                                    i64(2)),
                                i64(21)),
                            List.of(),
                            List.of(raise)),
                        // but not p + 1 < 7
                        new KernelStmt.If(
                            binary(BinaryOperator.LT, ScalarType.I32, q, i32(7)),
                            List.of(),
                            List.of(raise))))));
    KernelStmt.For loop = (KernelStmt.For) KernelFolding.of(given).body().get(3);
    assertEquals(3, loop.body().size(), loop.body().toString());
    assertEquals(store, loop.body().get(1));
    for (long rows : new long[] {-2, 4, 7, 9}) {
      assertArrayEquals(run(given, rows), run(KernelFolding.of(given), rows), "rows " + rows);
    }
  }

  @Test
  void aLocalIsNotReadAsItsValueWhereAVariableItReadsMayHaveChanged() {
    KernelExpr.Var v = local("v", ScalarType.I64);
    KernelExpr.Var u = local("u", ScalarType.I64);
    KernelExpr.Var i = local("i", ScalarType.I64);
    KernelStmt check =
        new KernelStmt.If(
            binary(BinaryOperator.LT, ScalarType.I64, i, u),
            List.of(new KernelStmt.Store(OUT, i, i)),
            List.of(new KernelStmt.RaiseError(6, List.of(i, u))));
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.Declare(v, ROWS),
                new KernelStmt.Declare(u, v),
                new KernelStmt.Assign(v, binary(BinaryOperator.ADD, ScalarType.I64, ROWS, i64(2))),
                new KernelStmt.For(i, i64(0), v, i64(1), List.of(check))));
    assertEquals(given.body(), KernelFolding.of(given).body());
    assertEquals(6, run(given, 3)[0], "the loop runs past u, and raises");
  }

  /**
   * A local declared once with a load keeps the value the load read, while the memory it read may
   * change: the counter of a loop bounded by that local is not below a later load of the same
   * element (here 0 after the body stores 0 there), so the comparison stays.
   */
  @Test
  void aLocalIsNotReadAsTheLoadItWasDeclaredWithWhereMemoryMayHaveChanged() {
    KernelExpr.Var n = local("n", ScalarType.I64);
    KernelExpr.Var i = local("i", ScalarType.I64);
    KernelExpr first = new KernelExpr.Load(OUT, i64(0));
    KernelStmt check =
        new KernelStmt.If(
            binary(BinaryOperator.LT, ScalarType.I64, i, first),
            List.of(new KernelStmt.Store(OUT, i64(1), i)),
            List.of(new KernelStmt.Store(OUT, i64(2), i)));
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.Store(OUT, i64(0), ROWS),
                new KernelStmt.Declare(n, first),
                new KernelStmt.For(
                    i,
                    i64(0),
                    n,
                    i64(1),
                    List.of(new KernelStmt.Store(OUT, i64(0), i64(0)), check))));
    assertEquals(given.body(), KernelFolding.of(given).body());
    assertArrayEquals(run(given, 3), run(KernelFolding.of(given), 3));
  }

  @Test
  void localsDeclaredOnceWithAConstantAndTheChecksTheyDecideGo() {
    KernelExpr.Var size = local("size", ScalarType.I32);
    KernelExpr.Var equal = local("equal", ScalarType.BOOL);
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.Declare(size, i32(3)),
                new KernelStmt.Declare(
                    equal, binary(BinaryOperator.EQ, ScalarType.I32, size, i32(3))),
                new KernelStmt.If(
                    not(equal), List.of(new KernelStmt.RaiseError(2, List.of())), List.of()),
                new KernelStmt.Store(
                    OUT,
                    i64(0),
                    new KernelExpr.Select(
                        equal,
                        widened(size),
                        binary(BinaryOperator.ADD, ScalarType.I64, ROWS, ROWS)))));
    Kernel folded = KernelFolding.of(given);
    assertEquals(List.of(new KernelStmt.Store(OUT, i64(0), i64(3))), folded.body());
    assertArrayEquals(run(given, 9), run(folded, 9));
  }

  @Test
  void aBranchOnAConstantKeepsItsScopeWhereItsLocalsAreDeclaredAgainElsewhere() {
    KernelExpr.Var x = local("x", ScalarType.I64);
    List<KernelStmt> branch =
        List.of(new KernelStmt.Declare(x, ROWS), new KernelStmt.Store(OUT, i64(0), x));
    List<KernelStmt> sibling =
        List.of(
            new KernelStmt.Declare(x, binary(BinaryOperator.ADD, ScalarType.I64, ROWS, i64(1))),
            new KernelStmt.Store(OUT, i64(1), x));
    KernelExpr yes = binary(BinaryOperator.LEQ, ScalarType.I32, i32(1), i32(2));
    Kernel given =
        kernel(
            List.of(
                new KernelStmt.If(yes, branch, List.of()),
                new KernelStmt.If(
                    binary(BinaryOperator.GT, ScalarType.I64, ROWS, i64(0)), sibling, List.of())));
    Kernel folded = KernelFolding.of(given);
    assertEquals(
        new KernelStmt.If(new KernelExpr.Constant(ScalarValue.bool(true)), branch, List.of()),
        folded.body().get(0));
    assertArrayEquals(run(given, 4), run(folded, 4));
  }

  @Test
  void whatARunCouldDecideOtherwiseOrThatWouldRaiseStays() {
    KernelExpr.Var i = local("i", ScalarType.I64);
    KernelExpr.Var twice = local("twice", ScalarType.I64);
    List<KernelStmt> body =
        List.of(
            // an integer division by zero raises where the interpreter computes it: not folded
            new KernelStmt.Store(
                OUT, i64(0), binary(BinaryOperator.DIV, ScalarType.I64, i64(1), i64(0))),
            new KernelStmt.If(
                binary(
                    BinaryOperator.AND,
                    ScalarType.BOOL,
                    binary(
                        BinaryOperator.GT,
                        ScalarType.I64,
                        new KernelExpr.Load(OUT, i64(1)),
                        i64(0)),
                    new KernelExpr.Constant(ScalarValue.bool(false))),
                List.of(new KernelStmt.RaiseError(3, List.of())),
                List.of()),
            // a local declared twice is not one constant
            new KernelStmt.Declare(twice, i64(1)),
            new KernelStmt.Store(OUT, i64(2), twice),
            // a counter the body assigns has no range
            new KernelStmt.For(
                i,
                i64(0),
                i64(2),
                i64(1),
                List.of(
                    new KernelStmt.If(
                        binary(BinaryOperator.LT, ScalarType.I64, i, i64(2)),
                        List.of(new KernelStmt.Assign(i, i64(3))),
                        List.of()))),
            new KernelStmt.If(
                binary(BinaryOperator.GT, ScalarType.I64, ROWS, i64(0)),
                List.of(
                    new KernelStmt.Declare(twice, i64(2)),
                    new KernelStmt.Store(OUT, i64(3), twice)),
                List.of()));
    assertEquals(body, KernelFolding.of(kernel(body)).body());
  }
}
