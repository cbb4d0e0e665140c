package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.op;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.transpose;
import static dev.l0.dsl.L0.zip;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.Fn2;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.ValType;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Program;

/**
 * The thesis's P1 (matrix multiplication, appendix "Artificial Benchmark Programs") written in the
 * DSL with the same functions, operator sections and curried {@code replin(N)} as test resource
 * {@code programs/p1_matmul.l0}.
 */
final class P1Dsl {
  static final ValType<Arr<I32>> VECTOR = Arr.of(I32.TYPE);
  static final ValType<Arr<Arr<I32>>> MATRIX = Arr.of(VECTOR);

  private P1Dsl() {}

  static Program program() {
    return L0.program(
        prog -> {
          Fn1<Arr<I32>, I32> redplus1 =
              prog.fun(
                  "redplus1", VECTOR, a -> reduce(a, i32(0), op(BinaryOperator.ADD, I32.TYPE)));
          Fn1<Arr<Arr<I32>>, Arr<I32>> redplus2 =
              prog.fun("redplus2", MATRIX, a -> map(a, redplus1));
          Fn2<Arr<I32>, Arr<I32>, Arr<I32>> mul1 =
              prog.fun(
                  "mul1",
                  VECTOR,
                  VECTOR,
                  (a, b) -> map(zip(a, b), op(BinaryOperator.MUL, I32.TYPE)));
          Fn2<Arr<Arr<I32>>, Arr<Arr<I32>>, Arr<Arr<I32>>> mul2 =
              prog.fun("mul2", MATRIX, MATRIX, (a, b) -> map(zip(a, b), mul1));
          Fn2<I32, Arr<I32>, Arr<Arr<I32>>> replin =
              prog.fun("replin", I32.TYPE, VECTOR, (n, a) -> replicate(n, a));
          Fn2<Arr<Arr<I32>>, Arr<Arr<I32>>, Arr<Arr<I32>>> matmultFun =
              prog.fun(
                  "matmultFun",
                  MATRIX,
                  MATRIX,
                  (a, b) -> {
                    I32 n = let("N", a.size());
                    Arr<Arr<Arr<I32>>> br = let("br", replicate(n, transpose(b)));
                    Arr<Arr<Arr<I32>>> ar = let("ar", map(a, replin.curry(n)));
                    Arr<Arr<Arr<I32>>> abr = let("abr", map(zip(ar, br), mul2));
                    return map(abr, redplus2);
                  });
          prog.fun("main", MATRIX, MATRIX, (x, y) -> matmultFun.call(x, y));
        });
  }
}
