package dev.l0.kernels.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * temporary); a map whose result updates a row writes that row in place where it reads the array
 * only at its own elements (a Brownian bridge), and into scratch first where it reads others.
 * Counted on the lowered kernel: loops whose whole body stores a loaded element. The results, and
 * an update's failures, stay the interpreter's, on the JVM backend and the SIMT simulator.
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

  /**
   * Per thread, a Brownian bridge (FinPar OptionPricing's): rows of {@code w} filled in an order
   * {@code ls} from rows {@code ks} already filled, each a map reading {@code w} only at its own
   * element, then differences of neighbouring rows in place.
   */
  private static final String BRIDGE =
      """
      fun [[[f64]]] main ([[[f64]]] zs, [i32] ls, [i32] ks) =
        map(fn [[f64]] ([[f64]] z) =>
              let n = size(1, z) in
              let w = replicate(size(0, z), replicate(n, 0.0)) in
              let first = ls[0] in
              let w[first] = map(fn f64 (f64 x) => 2.0 * x, z[0]) in
              loop (w) = for s < size(0, z) - 1 do
                let t = s + 1 in
                let l = ls[t] in
                let row = map(fn f64 (i32 m) => 0.5 * w[ks[t], m] + z[t, m], iota(n)) in
                let w[l] = row in
                w
              in
              loop (w) = for s < size(0, z) - 1 do
                let t = size(0, z) - 1 - s in
                let row = map(op -, zip(w[t], w[t - 1])) in
                let w[size(0, z) - 1 - s] = row in
                w
              in w,
            zs)
      """;

  /** As {@link #BRIDGE}'s first loop, each row from its left neighbour in the row it replaces. */
  private static final String SHIFT =
      """
      fun [[[f64]]] main ([[[f64]]] zs) =
        map(fn [[f64]] ([[f64]] z) =>
              loop (w = copy(z)) = for t < size(0, z) do
                let row = map(fn f64 (i32 m) => if m = 0 then w[t, 0] else w[t, m - 1] + 1.0,
                              iota(size(1, z))) in
                let w[t] = row in
                w
              in w,
            zs)
      """;

  @Test
  void aMapIntoAnUpdatedRowWritesTheRowInPlace() {
    // the thread's result into the kernel's output alone; each update copied the map's row into
    // the row it replaces before
    assertEquals(
        1,
        copyLoops(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(BRIDGE, "copies.l0"))
                .get(0)
                .body()));
    Value orders = ints(new int[] {4, 0, 2, 1, 3});
    Value from = ints(new int[] {0, 4, 4, 0, 2});
    assertSameResults(BRIDGE, List.of(cube(3, 5, 4, 3), orders, from));
  }

  @Test
  void aMapReadingOtherElementsOfTheRowItReplacesWritesScratchFirst() {
    assertSameResults(SHIFT, List.of(cube(2, 3, 5, 4)));
    // row t's element m reads element m - 1 of row t: written in place, it would read its own
    // result (three copies: z into the thread's w, the map's row into row t, the thread's result
    // into the output)
    assertEquals(
        3,
        copyLoops(
            LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(SHIFT, "copies.l0"))
                .get(0)
                .body()));
  }

  /**
   * Maps into an updated row that read the updated array in other ways: its own row and another
   * zipped, a row of it bound before the map, a transposed view, elements mirrored, an array that
   * is not the thread's own (updated in a copy).
   */
  private static final List<String> ROW_READS =
      List.of(
          "let w[l] = map(op +, zip(w[l], w[k])) in w",
          "let v = w[k] in let w[l] = map(fn f64 (i32 m) => v[m] * 2.0 + w[l, m], iota(n)) in w",
          "let tw = transpose(w) in let w[l] = map(fn f64 (i32 m) => tw[m, k] + tw[m, l], iota(n))"
              + " in w",
          "let w[l] = map(fn f64 (i32 m) => w[l, n - 1 - m] - w[k, m], iota(n)) in w",
          "let w[l] = map(fn f64 (i32 m) => w[k, m] + 1.0, iota(n)) in let w[k] = map(fn f64 (i32"
              + " m) => w[l, m] * w[k, m], iota(n)) in w");

  @Test
  void mapsIntoAnUpdatedRowThatReadItOtherwiseGiveTheInterpretersResults() {
    for (String step : ROW_READS) {
      String program =
          """
          fun [[[f64]]] main ([[[f64]]] zs, [i32] ls, [i32] ks) =
            map(fn [[f64]] ([[f64]] z) =>
                  let n = size(1, z) in
                  loop (w = copy(z)) = for t < size(0, ks) do
                    let l = ls[t] in
                    let k = ks[t] in
                    STEP
                  in w,
                zs)
          """
              .replace("STEP", step);
      List<Value> args = List.of(cube(3, 4, 5, 6), ints(3, 0, 2, 2, 1, 0), ints(0, 3, 2, 1, 1, 3));
      assertSameResults(program, args);
      String notOwned =
          """
          fun [[[f64]]] main ([[[f64]]] zs, [i32] ls, [i32] ks) =
            map(fn [[f64]] ([[f64]] z) =>
                  let w = copy(z) in
                  let n = size(1, w) in
                  let l = ls[0] in
                  let k = ks[0] in
                  STEP,
                zs)
          """
              .replace("STEP", step);
      assertSameResults(notOwned, args);
    }
  }

  @Test
  void aMapIntoARowOutOfBoundsFailsAsTheInterpretersUpdate() {
    Program program = L0Parser.parse(BRIDGE, "bridge.l0");
    Value from = ints(new int[] {0, 4, 4, 0, 2});
    for (int[] orders : List.of(new int[] {4, 0, 2, 7, 3}, new int[] {4, 0, -1, 1, 3})) {
      List<Value> args = List.of(cube(3, 5, 4, 3), ints(orders), from);
      String interpreters = message(() -> new Interpreter(program).call("main", args));
      int bad = orders[3] == 7 ? 7 : -1;
      assertTrue(
          interpreters.endsWith(
              ": update: index " + bad + " out of bounds for dimension 0 of size 5"),
          interpreters);
      assertEquals(
          interpreters,
          message(() -> HostRunner.compile(program, new JvmKernelExecutor()).call("main", args)));
      assertEquals(
          interpreters,
          message(() -> HostRunner.compile(program, new SimulatorExecutor(4)).call("main", args)));
    }
  }

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

  private static Value ints(int... values) {
    List<Value> elements = new java.util.ArrayList<>();
    for (int v : values) {
      elements.add(ScalarValue.i32(v));
    }
    return new Value.Array(ScalarType.I32, elements);
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
