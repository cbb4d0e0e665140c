package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelStmt;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.syntax.L0Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How many element copies a thread's sequential scan and loop make per step: a scan of arrays keeps
 * its accumulator in its result, step {@code j} reading row {@code j - 1} (the neutral array in a
 * row before the first) and writing row {@code j} (no copy a step, where it took two), and a loop
 * whose array merge variable keeps a size named by a variable in scope (as {@code map(op +,
 * zip(sums, row))} keeps {@code sums}'s) keeps no live row count (no copy into a resizable
 * temporary). Counted on the lowered kernel: loops whose whole body stores a loaded element. The
 * results stay the interpreter's, on the JVM backend and the SIMT simulator.
 */
class SequentialCopiesTest {
  /** Per thread, the running products of its rows (Black-Scholes's growth scan). */
  private static final String SCAN =
      """
      fun [[[f64]]] main ([[[f64]]] m, [f64] start) =
        map(fn [[f64]] ([[f64]] rows) =>
              scan(fn [f64] ([f64] a, [f64] b) => map(op *, zip(a, b)), start, rows),
            m)
      """;

  /** Per thread, the sums of its rows by a loop over them (OptionPricing's sums per model). */
  private static final String SUMS =
      """
      fun [[f64]] main ([[[f64]]] m, i32 k) =
        map(fn [f64] ([[f64]] rows) =>
              loop (sums = replicate(k, 0.0)) = for p < size(0, rows) do
                map(op +, zip(sums, rows[p]))
              in sums,
            m)
      """;

  @Test
  void aScanOfArraysCopiesNothingPerStep() {
    // the neutral array into the row before the result's first, and the thread's result into the
    // kernel's output: no step copies (each copied its temporary into the accumulator and that
    // into its row of the result before)
    assertEquals(
        2,
        copyLoops(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(SCAN, "copies.l0"))
                .get(0)
                .body()));
    List<Value> args = List.of(cube(4, 5, 3, 1), Value.Array.ofF64(new double[] {1.5, -2.0, 0.5}));
    assertSameResults(SCAN, args);
  }

  @Test
  void aLoopWhoseArrayKeepsItsNamedSizeCopiesEachStepOnce() {
    // per step the temporary into the merge variable, and the thread's result into the kernel's
    // output (a step also copied the map's rows into a resizable temporary before)
    assertEquals(
        2,
        copyLoops(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(SUMS, "copies.l0"))
                .get(0)
                .body()));
    assertSameResults(SUMS, List.of(cube(3, 6, 4, 2), ScalarValue.i32(4)));
  }

  @Test
  void aLoopWhoseRowsDoNotMatchFailsWithTheInterpretersZipError() {
    Program program = L0Parser.parse(SUMS, "sums.l0");
    List<Value> args = List.of(cube(3, 6, 4, 2), ScalarValue.i32(5));
    String interpreters =
        "sums.l0:4:21: zip: argument 2 has outer size 4 but argument 1 has outer size 5";
    assertEquals(interpreters, message(() -> new Interpreter(program).call("main", args)));
    assertEquals(
        interpreters,
        message(() -> HostRunner.compile(program, new JvmKernelExecutor()).call("main", args)));
  }

  private static String message(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      return e.getMessage();
    }
    return "no error";
  }

  private static void assertSameResults(String text, List<Value> args) {
    Program program = L0Parser.parse(text, "copies.l0");
    Value expected = new Interpreter(program).call("main", args);
    assertEquals(expected, HostRunner.compile(program, new JvmKernelExecutor()).call("main", args));
    assertEquals(
        expected, HostRunner.compile(program, new SimulatorExecutor(4)).call("main", args));
  }

  /** The loops of {@code body}, at any depth, whose whole body stores a loaded element. */
  private static int copyLoops(List<KernelStmt> body) {
    int n = 0;
    for (KernelStmt s : body) {
      if (s instanceof KernelStmt.For f) {
        boolean copy =
            f.body().size() == 1
                && f.body().get(0) instanceof KernelStmt.Store store
                && store.value() instanceof KernelExpr.Load;
        n += (copy ? 1 : 0) + copyLoops(f.body());
      } else if (s instanceof KernelStmt.If i) {
        n += copyLoops(i.thenBody()) + copyLoops(i.elseBody());
      } else if (s instanceof KernelStmt.While w) {
        n += copyLoops(w.body());
      }
    }
    return n;
  }

  /** An {@code a x b x c} array of values of both signs and several magnitudes. */
  private static Value cube(int a, int b, int c, long seed) {
    java.util.Random random = new java.util.Random(seed);
    List<Value> planes = new java.util.ArrayList<>();
    for (int i = 0; i < a; i++) {
      List<Value> rows = new java.util.ArrayList<>();
      for (int j = 0; j < b; j++) {
        double[] row = new double[c];
        for (int k = 0; k < c; k++) {
          row[k] = (random.nextDouble() - 0.3) * Math.pow(10, k % 3 - 1);
        }
        rows.add(Value.Array.ofF64(row));
      }
      planes.add(new Value.Array(Type.array(ScalarType.F64), rows));
    }
    return new Value.Array(Type.array(Type.array(ScalarType.F64)), planes);
  }
}
