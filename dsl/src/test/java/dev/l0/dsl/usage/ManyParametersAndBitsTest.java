package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.usage.Canonical.assertSameProgram;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.FnN;
import dev.l0.dsl.I32;
import dev.l0.dsl.I64;
import dev.l0.dsl.L0;
import dev.l0.dsl.ValType;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Functions of any number of parameters ({@code ProgramBuilder.fun(name, types, body)}) and the
 * integer bitwise operators.
 */
class ManyParametersAndBitsTest {
  private static final List<ValType<?>> FOUR =
      List.of(I32.TYPE, I32.TYPE, Arr.of(F64.TYPE), F64.TYPE);

  @Test
  void aFunctionOfFourParametersIsDefinedAndCalledByPosition() {
    Program staged =
        L0.program(
            prog -> {
              FnN<Arr<F64>> scaled =
                  prog.fun(
                      "scaled",
                      FOUR,
                      p -> {
                        I32 n = p.get(0, I32.TYPE);
                        I32 k = p.get(1, I32.TYPE);
                        F64 factor = p.get(3, F64.TYPE);
                        return map(
                            p.get(2, Arr.of(F64.TYPE)), x -> x.mul(factor).add(n.sub(k).toF64()));
                      });
              prog.fun(
                  "main", Arr.of(F64.TYPE), xs -> scaled.call(i32(5), i32(2), xs, L0.f64(2.0)));
            });

    assertSameProgram(
        """
        fun [f64] scaled(i32 n, i32 k, [f64] xs, f64 factor) = map(fn f64 (f64 x) => x * factor + f64(n - k), xs)
        fun [f64] main([f64] xs) = scaled(5, 2, xs, 2.0)""",
        staged);
  }

  @Test
  void readingAParameterAsAnotherTypeOrBeyondTheLastIsAnErrorAtTheJavaLine() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    L0CompileError wrongType =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog ->
                        prog.fun(
                            "f",
                            FOUR,
                            p -> {
                              line.set(JavaLine.next());
                              return p.get(1, F64.TYPE);
                            })));
    assertEquals(line.get().line(), wrongType.pos().line(), wrongType.getMessage());
    assertTrue(
        wrongType.getMessage().contains("parameter 1 of f is declared i32, read as f64"),
        wrongType.getMessage());

    L0CompileError beyond =
        assertThrows(
            L0CompileError.class,
            () -> L0.program(prog -> prog.fun("f", FOUR, p -> p.get(4, F64.TYPE))));
    assertTrue(
        beyond.getMessage().contains("f has 4 parameters; there is no parameter 4"),
        beyond.getMessage());
  }

  @Test
  void bitwiseOperatorsStageTheirL0OperatorsAndComputeAsJava() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "bits",
                    I32.TYPE,
                    I64.TYPE,
                    (n, m) ->
                        L0.tuple(
                            n.xor(n.shiftRight(1)),
                            n.bitAnd(6).bitOr(i32(1).shiftLeft(4)),
                            m.shiftRight(L0.i64(3L)).bitAnd(m))));

    assertSameProgram(
        """
        fun {i32, i32, i64} bits(i32 n, i64 m) = {n ^ (n >> 1), (n & 6) | (1 << 4), (m >> 3i64) & m}""",
        staged);
    int n = -1234567;
    long m = 987654321987L;
    assertEquals(
        new dev.l0.ir.Value.Tuple(
            List.of(
                ScalarValue.i32(n ^ (n >> 1)),
                ScalarValue.i32((n & 6) | (1 << 4)),
                ScalarValue.i64((m >> 3) & m))),
        new Interpreter(staged).call("bits", List.of(ScalarValue.i32(n), ScalarValue.i64(m))));
  }
}
