package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
