package dev.l0.dsl.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.L0;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.types.TypeChecker;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Type errors that Java cannot see (calls by name, which declare their result type unchecked) are
 * found by the L0 type checker and reported at the Java line that staged them.
 */
class TypeErrorPositionTest {
  @Test
  void aFunctionCalledWithTheWrongTypeIsReportedAtTheCallsJavaLine() {
    AtomicReference<SourcePos> callLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog -> {
              prog.fun("twice", F64.TYPE, x -> x.mul(2.0));
              prog.fun(
                  "bad",
                  Bool.TYPE,
                  b -> {
                    callLine.set(JavaLine.next());
                    return prog.call("twice", F64.TYPE, b);
                  });
            });

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(callLine.get(), error.pos());
    assertEquals(error.pos() + ": " + error.detail(), error.getMessage());
  }

  @Test
  void aCallOfAnUndefinedFunctionIsReportedAtItsJavaLine() {
    AtomicReference<SourcePos> callLine = new AtomicReference<>();
    Program program =
        L0.program(
            prog ->
                prog.fun(
                    "bad",
                    F64.TYPE,
                    d -> {
                      callLine.set(JavaLine.next());
                      return prog.call("undefined", F64.TYPE, d);
                    }));

    L0CompileError error = assertThrows(L0CompileError.class, () -> TypeChecker.check(program));

    assertEquals(callLine.get(), error.pos());
  }
}
