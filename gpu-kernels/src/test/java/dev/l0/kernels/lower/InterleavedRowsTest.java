package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A map inside a kernel thread whose function runs a sequential loop runs two rows at a time on the
 * JVM backend, the two rows' loops fused into one ({@link InterleavedRows}); on a GPU's lowering it
 * runs a row at a time. The results stay the interpreter's bit for bit, for odd and even row counts
 * and none; statements that touch what the other row's code touches are never moved over each
 * other.
 */
class InterleavedRowsTest {
  private static final JvmKernelExecutor JVM = new JvmKernelExecutor();

  /**
   * Each thread solves {@code rows} forward sweeps (one division per step, as a tridiagonal
   * solve's), a row each, then reads the rows back in another order (so that they stay in the
   * thread's scratch).
   */
  private static final String SWEEPS =
      """
      fun [[f64]] main ([f64] xs, [f64] ys, i32 rows) =
        map(fn [f64] (f64 x) =>
              let n = size(0, ys) in
              let solved = map(fn [f64] (i32 r) =>
                                 loop (b = map(fn f64 (f64 y) => y + x * f64(r), ys)) = for s < n - 1 do
                                   let i = s + 1 in
                                   let b[i] = b[i] - x / b[i - 1] in b
                                 in b,
                               iota(rows)) in
              map(fn f64 (i32 r) => solved[rows - 1 - r, 0] + solved[r, n - 1], iota(rows)),
            xs)
      """;

  /** The same rows without a loop: nothing to overlap. */
  private static final String NO_LOOP =
      """
      fun [[f64]] main ([f64] xs, [f64] ys, i32 rows) =
        map(fn [f64] (f64 x) =>
              let n = size(0, ys) in
              let made = map(fn [f64] (i32 r) => map(fn f64 (f64 y) => y / (x + f64(r)), ys),
                             iota(rows)) in
              map(fn f64 (i32 r) => made[rows - 1 - r, 0] + made[r, n - 1], iota(rows)),
            xs)
      """;

  @Test
  void rowsThatRunASweepRunTwoAtATimeOnTheJvmWithTheInterpretersBits() {
    Kernel jvm = onlyKernel(SWEEPS, LaunchConfiguration.THREAD_PER_ROW);
    List<KernelStmt.For> pairs = loopsStepping(jvm.body(), InterleavedRows.ROWS);
    assertEquals(1, pairs.size(), jvm::toString);
    // the two rows' sweeps are one loop: its body declares the second row's counter
    assertTrue(
        loopsStepping(pairs.get(0).body(), 1).stream()
            .anyMatch(
                loop ->
                    loop.body().stream()
                        .anyMatch(
                            s ->
                                s instanceof KernelStmt.Declare d
                                    && d.initial().equals(loop.counter()))),
        jvm::toString);
    assertTrue(
        loopsStepping(onlyKernel(SWEEPS, LaunchConfiguration.DEFAULT).body(), InterleavedRows.ROWS)
            .isEmpty(),
        "a GPU thread runs a row at a time");
    for (int rows : new int[] {0, 1, 2, 3, 4, 7}) {
      assertSameAsInterpreter(SWEEPS, rows);
    }
  }

  /**
   * Rows whose sweep may fail at two places: with {@code [[1, 1, 0], [9, 1, 1]]} the first row
   * divides by zero in its last step and the second indexes {@code d} out of bounds in its first.
   */
  private static final String FAILING_SWEEPS =
      """
      fun [[[int]]] main([[[int]]] mm, [int] d) =
        map(fn [[int]] ([[int]] m) =>
              map(fn [int] ([int] row) =>
                    loop (acc = copy(row)) = for i < 3 do
                      let q = 10 / row[i] in
                      let e = d[row[i]] in
                      let acc[i] = q + e in
                      acc
                    in acc,
                  m),
            mm)
      """;

  @Test
  void rowsRunTwoAtATimeFailAsTheyFailOneAfterTheOther() {
    Program program = L0Parser.parse(FAILING_SWEEPS, "rows.l0");
    KernelPlan plan = Optimizer.optimize(TypeChecker.check(program)).kernelPlan();
    // the map kernel (its rows' sizes then checked and compacted by two more)
    Kernel jvm =
        KernelLowering.lower(plan, plan.kernels().get(0), LaunchConfiguration.THREAD_PER_ROW)
            .kernels()
            .get(0);
    assertEquals(1, loopsStepping(jvm.body(), InterleavedRows.ROWS).size(), jvm::toString);
    List<Value> args =
        ValueReader.read(
            "[[[1, 1, 0], [9, 1, 1]]] [0, 1, 2]",
            program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            "args");
    L0RuntimeError expected =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    L0RuntimeError actual =
        assertThrows(
            L0RuntimeError.class, () -> HostRunner.compile(program, JVM).call("main", args));
    // the first row's division, not the second row's index, which interleaved steps reach first
    assertEquals("/", expected.operation());
    assertEquals(expected.operation(), actual.operation());
    assertEquals(expected.pos(), actual.pos());
  }

  @Test
  void aFailureOfRowsRunTwoAtATimeIsWordedWithoutItsValues() {
    Program program = L0Parser.parse(FAILING_SWEEPS, "rows.l0");
    List<Value> args =
        ValueReader.read(
            "[[[1, 1, 1], [2, 9, 1]]] [0, 1, 2]",
            program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            "args");
    L0RuntimeError expected =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(
        "rows.l0:6:25: index: index 9 out of bounds for dimension 0 of size 3",
        expected.getMessage());
    L0RuntimeError actual =
        assertThrows(
            L0RuntimeError.class, () -> HostRunner.compile(program, JVM).call("main", args));
    // the rows' failures are deferred past the pair, and their values are not kept
    assertEquals("rows.l0:6:25: index: index out of bounds", actual.getMessage());
  }

  @Test
  void rowsWithoutALoopRunOneAtATime() {
    Kernel jvm = onlyKernel(NO_LOOP, LaunchConfiguration.THREAD_PER_ROW);
    assertTrue(loopsStepping(jvm.body(), InterleavedRows.ROWS).isEmpty(), jvm::toString);
    assertSameAsInterpreter(NO_LOOP, 5);
  }

  @Test
  void locVolCalibSolvesTwoRowsAtATimeWithTheInterpretersBits() throws IOException {
    Program program = locVolCalib();
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    KernelPlan plan = optimized.kernelPlan();
    Kernel kernel =
        KernelLowering.lower(plan, plan.kernels().get(0), LaunchConfiguration.THREAD_PER_ROW)
            .kernels()
            .get(0);
    // the implicit x step's rows and the implicit y step's rows
    assertEquals(2, loopsStepping(kernel.body(), InterleavedRows.ROWS).size(), kernel.name());
    for (int numY : new int[] {8, 9}) {
      // outer, numX, numY (even and odd), numT, s0, t, alpha, nu, beta
      List<Value> args =
          List.of(
              ScalarValue.i32(3),
              ScalarValue.i32(11),
              ScalarValue.i32(numY),
              ScalarValue.i32(5),
              ScalarValue.f64(0.03),
              ScalarValue.f64(5.0),
              ScalarValue.f64(0.2),
              ScalarValue.f64(0.6),
              ScalarValue.f64(0.5));
      assertEquals(
          new Interpreter(program).call("main", args),
          HostRunner.compile(program, JVM).call("main", args));
    }
  }

  @Test
  void statementsThatTouchTheSameMemoryAreNotMovedOverEachOther() {
    Buffer out = new Buffer("out", ScalarType.F64);
    KernelExpr.Var i = new KernelExpr.Var("i", ScalarType.I64);
    KernelExpr.Var k = new KernelExpr.Var("k", ScalarType.I64);
    // each row: a loop storing to out, then a statement loading from out
    List<KernelStmt> first = row(out, i, 0);
    List<KernelStmt> second = row(out, k, 1);
    assertNull(InterleavedRows.interleave(List.of(first, second)));
    // the same rows on a buffer each of their own: the loops fuse
    List<KernelStmt> both =
        InterleavedRows.interleave(
            List.of(
                row(new Buffer("a", ScalarType.F64), i, 0),
                row(new Buffer("b", ScalarType.F64), k, 1)));
    assertNotNull(both);
    assertEquals(3, both.size(), both::toString);
    assertTrue(both.get(0) instanceof KernelStmt.For, both::toString);
  }

  /** A loop storing {@code 1.0} to {@code buffer[counter]}, then a load of {@code buffer[0]}. */
  private static List<KernelStmt> row(Buffer buffer, KernelExpr.Var counter, int name) {
    KernelExpr one = new KernelExpr.Constant(ScalarValue.f64(1.0));
    KernelExpr zero = KernelExprs.ZERO;
    KernelStmt loop =
        new KernelStmt.For(
            counter,
            zero,
            KernelExprs.i64(4),
            KernelExprs.ONE,
            List.of(new KernelStmt.Store(buffer, counter, one)));
    KernelExpr.Var read = new KernelExpr.Var("read" + name, ScalarType.F64);
    KernelStmt load =
        new KernelStmt.Declare(
            read,
            new KernelExpr.Binary(
                BinaryOperator.ADD, ScalarType.F64, new KernelExpr.Load(buffer, zero), one));
    return List.of(loop, load);
  }

  /** The loops of {@code body}, at any depth, whose step is the constant {@code step}. */
  private static List<KernelStmt.For> loopsStepping(List<KernelStmt> body, long step) {
    List<KernelStmt.For> found = new ArrayList<>();
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.For f) {
        if (f.step().equals(KernelExprs.i64(step))) {
          found.add(f);
        }
        found.addAll(loopsStepping(f.body(), step));
      } else if (s instanceof KernelStmt.If c) {
        found.addAll(loopsStepping(c.thenBody(), step));
        found.addAll(loopsStepping(c.elseBody(), step));
      } else if (s instanceof KernelStmt.While w) {
        found.addAll(loopsStepping(w.body(), step));
      }
    }
    return found;
  }

  /** The only kernel of {@code text}'s one kernel group, lowered for {@code configuration}. */
  private static Kernel onlyKernel(String text, LaunchConfiguration configuration) {
    OptimizedProgram optimized =
        Optimizer.optimize(TypeChecker.check(L0Parser.parse(text, "rows.l0")));
    List<KernelPlan.Kernel> kernels = optimized.kernelPlan().kernels();
    assertEquals(1, kernels.size(), kernels::toString);
    List<Kernel> lowered =
        KernelLowering.lower(optimized.kernelPlan(), kernels.get(0), configuration).kernels();
    assertEquals(1, lowered.size(), lowered::toString);
    return lowered.get(0);
  }

  private static void assertSameAsInterpreter(String text, int rows) {
    Program program = L0Parser.parse(text, "rows.l0");
    List<Value> args =
        List.of(
            Value.Array.ofF64(0.5, -1.25, 3.0),
            Value.Array.ofF64(2.0, 0.75, -4.5, 1.0e-3, 6.0),
            ScalarValue.i32(rows));
    assertEquals(
        new Interpreter(program).call("main", args),
        HostRunner.compile(program, JVM).call("main", args),
        rows + " rows");
  }

  private static Program locVolCalib() throws IOException {
    String resource = "/programs/finpar/LocVolCalib.l0";
    try (InputStream in = InterleavedRowsTest.class.getResourceAsStream(resource)) {
      return L0Parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
    }
  }
}
