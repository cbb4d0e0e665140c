package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.tuple;
import static dev.l0.dsl.usage.Canonical.assertSameProgram;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.FnN;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.TupN;
import dev.l0.dsl.ValType;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Tuples of seven components and more ({@link TupN}): literals, loop states, parameters, results,
 * and reading a component wrongly.
 */
class WideTuplesTest {
  private static final ValType<TupN> EIGHT =
      TupN.of(F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, Bool.TYPE);

  @Test
  void anEightTupleLoopStateIsStagedAsOneTuplePatternAndComputesAsJava() {
    // Brent's root finding carries {a, b, c, d, fa, fb, fc, mflag}: here a rotation of the first
    // seven and a flag.
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    I32.TYPE,
                    n -> {
                      TupN last =
                          loop(
                              tuple(
                                  f64(1.0),
                                  f64(2.0),
                                  f64(3.0),
                                  f64(4.0),
                                  f64(5.0),
                                  f64(6.0),
                                  f64(7.0),
                                  L0.bool(true)),
                              n,
                              (s, i) ->
                                  tuple(
                                      s.get(1, F64.TYPE),
                                      s.get(2, F64.TYPE),
                                      s.get(3, F64.TYPE),
                                      s.get(4, F64.TYPE),
                                      s.get(5, F64.TYPE),
                                      s.get(6, F64.TYPE),
                                      s.get(0, F64.TYPE).mul(f64(2.0)),
                                      s.get(7, Bool.TYPE).not()));
                      return tuple(last.get(0, F64.TYPE), last.get(7, Bool.TYPE));
                    }));

    assertSameProgram(
        """
        fun {f64, bool} f(i32 n) =
          loop ({a, b, c, d, e, g, h, k} = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, true}) = for i < n do
            {b, c, d, e, g, h, a * 2.0, not k}
          in {a, k}""",
        staged);
    double[] s = {1, 2, 3, 4, 5, 6, 7};
    boolean flag = true;
    for (int i = 0; i < 10; i++) {
      double first = s[0];
      System.arraycopy(s, 1, s, 0, 6);
      s[6] = first * 2.0;
      flag = !flag;
    }
    assertEquals(
        new Value.Tuple(List.of(ScalarValue.f64(s[0]), ScalarValue.bool(flag))),
        new Interpreter(staged).call("f", List.of(ScalarValue.i32(10))));
  }

  @Test
  void aFunctionTakesAndReturnsATupleOfNineComponentsOfMixedTypes() {
    ValType<TupN> nine =
        TupN.of(
            I32.TYPE, I32.TYPE, I32.TYPE, I32.TYPE, I32.TYPE, I32.TYPE, I32.TYPE, I32.TYPE,
            F64.TYPE);
    Program staged =
        L0.program(
            prog -> {
              FnN<TupN> shifted =
                  prog.fun(
                      "shifted",
                      List.of(nine),
                      p -> {
                        TupN t = p.get(0, nine);
                        return tuple(
                            t.get(1, I32.TYPE),
                            t.get(2, I32.TYPE),
                            t.get(3, I32.TYPE),
                            t.get(4, I32.TYPE),
                            t.get(5, I32.TYPE),
                            t.get(6, I32.TYPE),
                            t.get(7, I32.TYPE),
                            t.get(0, I32.TYPE),
                            t.get(8, F64.TYPE).add(f64(0.5)));
                      });
              prog.fun(
                  "main",
                  I32.TYPE,
                  n -> {
                    TupN out =
                        shifted.call(
                            tuple(
                                n, i32(1), i32(2), i32(3), i32(4), i32(5), i32(6), i32(7),
                                n.toF64()));
                    return out.get(7, I32.TYPE)
                        .add(out.get(0, I32.TYPE))
                        .toF64()
                        .add(out.get(8, F64.TYPE));
                  });
            });

    assertSameProgram(
        """
        fun {i32, i32, i32, i32, i32, i32, i32, i32, f64} shifted({i32, i32, i32, i32, i32, i32, i32, i32, f64} t) =
          let {a, b, c, d, e, g, h, k, x} = t in
          {b, c, d, e, g, h, k, a, x + 0.5}
        fun f64 main(i32 n) =
          let {a, b, c, d, e, g, h, k, x} = shifted({n, 1, 2, 3, 4, 5, 6, 7, f64(n)}) in
          f64(k + a) + x""",
        staged);
    assertEquals(9, nine.l0Type() instanceof dev.l0.ir.Type.Tuple t ? t.elements().size() : 0);
    assertEquals(
        ScalarValue.f64(40 + 1 + 40.5),
        new Interpreter(staged).call("main", List.of(ScalarValue.i32(40))));
  }

  @Test
  void aTupleOfTwentyComponentsKeepsThemInOrder() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    I32.TYPE,
                    n -> {
                      List<I32> parts = new ArrayList<>();
                      for (int k = 0; k < 20; k++) {
                        parts.add(n.add(k));
                      }
                      TupN t =
                          tuple(
                              parts.get(0),
                              parts.get(1),
                              parts.get(2),
                              parts.get(3),
                              parts.get(4),
                              parts.get(5),
                              parts.get(6),
                              parts.subList(7, 20).toArray(new I32[0]));
                      assertEquals(20, t.arity());
                      return t.get(19, I32.TYPE).sub(t.get(0, I32.TYPE)).add(t.get(12, I32.TYPE));
                    }));

    assertEquals(
        ScalarValue.i32(19 + 100 + 12),
        new Interpreter(staged).call("f", List.of(ScalarValue.i32(100))));
  }

  @Test
  void readingAComponentAsAnotherTypeOrBeyondTheLastIsAnErrorAtTheJavaLine() {
    AtomicReference<SourcePos> line = new AtomicReference<>();
    L0CompileError wrongType =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog ->
                        prog.fun(
                            "f",
                            List.of(EIGHT),
                            p -> {
                              TupN t = p.get(0, EIGHT);
                              line.set(JavaLine.next());
                              return t.get(7, F64.TYPE);
                            })));
    assertEquals(line.get().line(), wrongType.pos().line(), wrongType.getMessage());
    assertTrue(
        wrongType
            .getMessage()
            .contains(
                "component 7 of the tuple {f64, f64, f64, f64, f64, f64, f64, bool} is bool, read as f64"),
        wrongType.getMessage());

    L0CompileError beyond =
        assertThrows(
            L0CompileError.class,
            () ->
                L0.program(
                    prog -> prog.fun("f", List.of(EIGHT), p -> p.get(0, EIGHT).get(8, F64.TYPE))));
    assertTrue(
        beyond.getMessage().contains("has 8 components; there is no component 8"),
        beyond.getMessage());

    L0CompileError single = assertThrows(L0CompileError.class, () -> TupN.of(F64.TYPE));
    assertTrue(
        single.getMessage().contains("a tuple has at least 2 components, not 1"),
        single.getMessage());
  }
}
