package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.syntax.L0Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A map whose function returns no values ({@code fn {} ...}, thesis §2.1's empty tuple) binds no
 * array, but the optimiser keeps it where its function may fail (L0 is eager: the interpreter
 * evaluates it): it runs as a kernel of no outputs on every backend, which fails as the interpreter
 * does or leaves the result alone (a map of no results had no name to lower, an internal error).
 */
class ValuelessMapsOnEveryBackendTest {
  private static final String PROGRAM =
      """
      fun i32 main(i32 n, i32 z) =
        let u = map(fn {} (i32 x) => let y = x / z in {}, iota(n)) in
        n + 5
      """;

  @Test
  void itRunsAsAKernelOfNoOutputs() {
    EveryBackend.assertRunsAs(List.of("map"), PROGRAM, "valueless.l0", "3 1");
  }

  @Test
  void itFailsInItsKernelAsTheInterpreterDoes() {
    Program program = L0Parser.parse(PROGRAM, "valueless.l0");
    List<Value> args = EveryBackend.mainArguments(program, "3 0");
    for (KernelExecutor backend : EveryBackend.BACKENDS) {
      L0RuntimeError failure = EveryBackend.failure(program, args, backend, true);
      assertEquals(
          "valueless.l0:2:42: /: integer division by zero", failure.getMessage(), backend.name());
    }
  }
}
