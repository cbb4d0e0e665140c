package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optimised program's run-time errors carry source positions, as the interpreter's do. */
class ErrorPositionsTest {
  @Test
  void recursionTooDeepIsALimitReportedAtTheCalledFunctionAsTheInterpreterReportsIt() {
    Program program =
        L0Parser.parse(
            "fun i32 f(i32 n) = if n = 0 then 0 else 1 + f(n - 1)\nfun i32 main(i32 n) = f(n)\n",
            "rec.l0");
    List<ScalarValue> deep = List.of(ScalarValue.i32(100_000_000));
    L0ResourceError optimised =
        assertThrows(
            L0ResourceError.class,
            () -> Optimizer.optimize(TypeChecker.check(program)).call("main", List.copyOf(deep)));
    L0ResourceError interpreted =
        assertThrows(
            L0ResourceError.class, () -> new Interpreter(program).call("main", List.copyOf(deep)));
    assertEquals(new SourcePos("rec.l0", 2, 1), optimised.pos());
    assertEquals(interpreted.pos(), optimised.pos());
    assertEquals(
        "rec.l0:2:1: call: recursion too deep for the evaluator's stack", optimised.getMessage());
  }

  @Test
  void anIrregularMapIsReportedWhereTheMapIsWritten() {
    Program program =
        L0Parser.parse(
            "fun [[i32]] main([i32] a) = map(fn [i32] (i32 x) => iota(x), a)\n", "irr.l0");
    List<Value> args =
        List.of(new Value.Array(ScalarType.I32, List.of(ScalarValue.i32(1), ScalarValue.i32(2))));
    L0RuntimeError optimised =
        assertThrows(
            L0RuntimeError.class,
            () -> Optimizer.optimize(TypeChecker.check(program)).call("main", args));
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(interpreted.getMessage(), optimised.getMessage());
    assertEquals(
        "irr.l0:1:29: map: irregular array: element 1 has shape [2] but element 0 has shape [1]",
        optimised.getMessage());
  }

  @Test
  void aScanWhoseOperatorChangesTheAccumulatorsShapeIsReportedWhereTheScanIsWritten() {
    Program program =
        L0Parser.parse(
            """
        fun [[i32]] main(i32 n) =
          let rows = map(fn [i32] (i32 i) => [i], iota(n)) in
          scan(fn [i32] ([i32] a, [i32] b) => iota(a[0] + b[0] + 1), [0], rows)
        """,
            "scan.l0");
    List<Value> args = List.of(ScalarValue.i32(3));
    L0RuntimeError optimised =
        assertThrows(
            L0RuntimeError.class,
            () -> Optimizer.optimize(TypeChecker.check(program)).call("main", args));
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(interpreted.getMessage(), optimised.getMessage());
    assertEquals(
        "scan.l0:3:3: scan: the operator returned a value of shape [2] for an accumulator of shape [1];"
            + " it must keep the accumulator's shape",
        optimised.getMessage());
  }

  /**
   * The limit that {@code program}'s {@code main(args)} reaches optimised and with the interpreter,
   * {@code [optimised, interpreted]}, each at once: an array too large to hold is refused before it
   * is made, where a map of maps of 2.5e9 scalars was built for minutes until the heap ran out.
   */
  private static L0ResourceError[] tooLarge(String source, int... args) {
    Program program = L0Parser.parse(source, "big.l0");
    List<Value> values = Arrays.stream(args).<Value>mapToObj(ScalarValue::i32).toList();
    return assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () ->
            new L0ResourceError[] {
              assertThrows(
                  L0ResourceError.class,
                  () -> Optimizer.optimize(TypeChecker.check(program)).call("main", values)),
              assertThrows(
                  L0ResourceError.class, () -> new Interpreter(program).call("main", values))
            });
  }

  private static final String BEYOND_ONE_ARRAY =
      " elements, more than one flat array holds (2147483639, Java's array limit)";

  @Test
  void aMapOfMapsTooLargeToHoldIsALimitAtTheMapAsTheInterpreterReportsIt() {
    String mapOfMaps =
        "fun [[i32]] main(i32 m, i32 n) =\n"
            + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j * x, iota(n)), iota(m))\n";
    for (L0ResourceError e : tooLarge(mapOfMaps, 50000, 50000)) {
      assertEquals("big.l0:2:3: map: 2500000000" + BEYOND_ONE_ARRAY, e.getMessage());
    }
    for (L0ResourceError e : tooLarge(mapOfMaps, 40000, 40000)) {
      assertEquals(
          "big.l0:2:3: map: 1600000000 elements need about 42724 MiB, more than the JVM's maximum"
              + " heap of "
              + (Runtime.getRuntime().maxMemory() >> 20)
              + " MiB",
          e.getMessage());
    }
    String computed =
        "fun [[i32]] main(i32 m, i32 n) =\n"
            + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j + x, iota(n * 2 + x - x)),"
            + " iota(m))\n";
    for (L0ResourceError e : tooLarge(computed, 50000, 25000)) {
      assertEquals("big.l0:2:3: map: 2500000000" + BEYOND_ONE_ARRAY, e.getMessage());
    }
  }

  @Test
  void scansReshapesAndTransposesTooLargeToHoldAreLimitsAtTheirPositions() {
    L0ResourceError[] scan =
        tooLarge(
            "fun [[i32]] main(i32 m, i32 n) =\n"
                + "  scan(fn [i32] ([i32] a, [i32] b) => map(op +, zip(a, b)), replicate(n, 0),"
                + " replicate(m, iota(n)))\n",
            50000,
            50000);
    assertEquals("big.l0:2:3: scan: 2500000000" + BEYOND_ONE_ARRAY, scan[1].getMessage());
    // optimised, the scan of rows runs as a map over their transposed columns (ISWIM), whose
    // transpose the optimiser adds where the scan is written
    assertEquals("big.l0:2:3: transpose: 2500000000" + BEYOND_ONE_ARRAY, scan[0].getMessage());
    for (String operation : List.of("reshape((n, m), ", "transpose(")) {
      String name = operation.substring(0, operation.indexOf('('));
      for (L0ResourceError e :
          tooLarge(
              "fun [[i32]] main(i32 m, i32 n) =\n  "
                  + operation
                  + "replicate(m, replicate(n, 1)))\n",
              50000,
              50000)) {
        assertEquals("big.l0:2:3: " + name + ": 2500000000" + BEYOND_ONE_ARRAY, e.getMessage());
      }
    }
  }
}
