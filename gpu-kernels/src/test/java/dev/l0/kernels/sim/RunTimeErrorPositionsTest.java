package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run-time error names the operation and source position the interpreter names: in the optimised
 * program (with the interpreter's message), and inside a kernel on the simulator and the JVM
 * backend, not {@code <generated>}. A reduce or scan whose operator returns a value of another
 * shape than its accumulator is such an error in every mode (README, "The language").
 */
class RunTimeErrorPositionsTest {
  private static final List<KernelExecutor> BACKENDS =
      List.of(new SimulatorExecutor(1), new SimulatorExecutor(32), new JvmKernelExecutor(2));

  @Test
  void anIrregularMapFailsAtTheMapOnEveryBackend() {
    assertEveryBackendFailsWhereTheInterpreterDoes(
        """
        fun [[i32]] main([[i32]] xss) =
          map(fn [i32] ([i32] xs) =>
                map(fn i32 (i32 x) => x + 1, filter(fn bool (i32 x) => x > 0, xs)), xss)
        """,
        "[[1, 2], [0, 1]]",
        new SourcePos("test.l0", 2, 3));
  }

  @Test
  void aReduceWhoseOperatorChangesTheAccumulatorsShapeFailsAtTheReduceInEveryMode() {
    assertEveryBackendFailsWhereTheInterpreterDoes(
        """
        fun [i32] main([[i32]] rows) =
          reduce(fn [i32] ([i32] a, [i32] b) => iota(a[0] + b[0] + 1), [0], rows)
        """,
        "[[1], [1]]",
        new SourcePos("test.l0", 2, 3));
  }

  @Test
  void aScanWhoseOperatorChangesTheAccumulatorsShapeFailsAtTheScanInEveryMode() {
    assertEveryBackendFailsWhereTheInterpreterDoes(
        """
        fun [[i32]] main(i32 n) =
          scan(fn [i32] ([i32] a, [i32] b) => iota(a[0] + b[0] + 1), [0], replicate(n, [1]))
        """,
        "3",
        new SourcePos("test.l0", 2, 3));
  }

  private static void assertEveryBackendFailsWhereTheInterpreterDoes(
      String source, String input, SourcePos expected) {
    Program program = L0Parser.parse(source, "test.l0");
    List<Value> args = EveryBackend.mainArguments(program, input);
    L0RuntimeError interpreted =
        assertThrows(L0RuntimeError.class, () -> new Interpreter(program).call("main", args));
    assertEquals(expected, interpreted.pos());
    L0RuntimeError optimised =
        assertThrows(
            L0RuntimeError.class,
            () -> Optimizer.optimize(TypeChecker.check(program)).call("main", args));
    assertEquals(interpreted.getMessage(), optimised.getMessage());
    for (KernelExecutor backend : BACKENDS) {
      HostRunner runner = HostRunner.compile(program, backend);
      L0RuntimeError failure =
          assertThrows(L0RuntimeError.class, () -> runner.call("main", args), backend.name());
      assertEquals(
          interpreted.operation() + " at " + interpreted.pos(),
          failure.operation() + " at " + failure.pos(),
          backend.name() + ": " + failure.getMessage());
    }
  }
}
