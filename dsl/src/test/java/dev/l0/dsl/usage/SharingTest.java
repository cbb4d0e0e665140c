package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.zip;
import static dev.l0.dsl.usage.Canonical.assertSameProgram;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sharing rule: a staged value used once is written where it is used, one used more than once
 * or inside a lambda is bound once with let, an unused one is bound too (so its errors surface),
 * explicit lets stay.
 */
class SharingTest {
  @Test
  void aValueUsedTwiceIsComputedOnce() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F64.TYPE,
                    x -> {
                      F64 y = x.mul(2.0).exp();
                      return y.add(y);
                    }));

    assertSameProgram("fun f64 f(f64 x) = let y = exp(x*2.0) in y + y", staged);
  }

  @Test
  void aSoacResultUsedTwiceIsComputedOnce() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(F64.TYPE),
                    xs -> {
                      Arr<F64> ys = map(xs, x -> x.add(1.0));
                      return zip(ys, ys);
                    }));

    assertSameProgram(
        "fun [{f64,f64}] f([f64] xs) = let ys = map(fn f64 (f64 x) => x + 1.0, xs) in zip(ys, ys)",
        staged);
  }

  @Test
  void aValueStagedOutsideALambdaIsNotRecomputedInside() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(F64.TYPE),
                    F64.TYPE,
                    (xs, s) -> {
                      F64 scale = s.sqrt();
                      return map(xs, x -> x.mul(scale));
                    }));

    assertSameProgram(
        "fun [f64] f([f64] xs, f64 s) = let t = sqrt(s) in map(fn f64 (f64 x) => x * t, xs)",
        staged);
  }

  @Test
  void anUnusedValueIsStillBoundAndAnExplicitLetStays() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F64.TYPE,
                    x -> {
                      x.mul(3.0).log();
                      F64 kept = let(x.add(1.0));
                      return kept.mul(2.0);
                    }));

    assertSameProgram(
        "fun f64 f(f64 x) = let unused = log(x * 3.0) in let k = x + 1.0 in k * 2.0", staged);
  }

  @Test
  void aValueUsedInOneBranchIsWrittenInThatBranch() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F64.TYPE,
                    x -> {
                      F64 big = x.mul(x).mul(x);
                      return ifThenElse(x.gt(1.0), () -> big, () -> x);
                    }));

    assertSameProgram("fun f64 f(f64 x) = if x > 1.0 then x*x*x else x", staged);
  }

  @Test
  void aTupleComponentReadTwiceIsDestructuredOnce() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Tup2.of(F64.TYPE, F64.TYPE),
                    p -> {
                      F64 first = p._1();
                      return first.mul(p._1()).add(p._2());
                    }));

    assertSameProgram("fun f64 f({f64,f64} p) = let {a, b} = p in a * a + b", staged);
  }

  /**
   * A read of an array staged before an in-place update of it and used after must stay before the
   * update: moved after it, it would read a consumed array (thesis ch. 3).
   */
  @Test
  void aReadIsNotMovedPastAnInPlaceUpdateOfItsArray() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(I32.TYPE).unique(),
                    a -> {
                      I32 first = a.get(0);
                      Arr<I32> b = a.with(i32(1), i32(7));
                      return b.with(i32(0), first.add(1));
                    }));

    assertSameProgram(
        """
        fun *[i32] f(*[i32] a) =
          let first = a[0] in
          let b = a with [1] <- 7 in
          let c = b with [0] <- first + 1 in
          c""",
        staged);
    Value result = new Interpreter(staged).call("f", List.of(ints(5, 6, 8)));
    assertEquals(ints(6, 7, 8), result);
  }

  private static Value ints(int... values) {
    return new Value.Array(
        ScalarType.I32,
        java.util.Arrays.stream(values).mapToObj(ScalarValue::i32).map(Value.class::cast).toList());
  }

  /**
   * A read staged before an operation that consumes its array (a call of a function with a unique
   * parameter, a branch that updates the array in place) stays before it: written at its use, after
   * the consumption, it was a uniqueness error the Java order does not have.
   */
  @Test
  void aReadStaysBeforeACallOrBranchThatConsumesItsArray() {
    Program viaCall =
        L0.program(
            prog -> {
              Fn1<Arr<F64>, Arr<F64>> reset =
                  prog.fun("reset", Arr.of(F64.TYPE).unique(), a -> a.with(i32(0), f64(9.0)));
              prog.fun(
                  "main",
                  Arr.of(F64.TYPE).unique(),
                  xs -> {
                    F64 first = xs.get(0);
                    Arr<F64> ys = reset.call(xs);
                    return ys.get(1).add(first);
                  });
            });
    assertSameProgram(
        """
        fun *[f64] reset(*[f64] a) = let b = a with [0] <- 9.0 in b
        fun f64 main(*[f64] xs) = let first = xs[0] in (reset(xs))[1] + first""",
        viaCall);

    Program viaBranch =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE).unique(),
                    Bool.TYPE,
                    (xs, c) -> {
                      F64 first = xs.get(0);
                      Arr<F64> ys = ifThenElse(c, () -> xs.with(i32(0), f64(9.0)), () -> xs);
                      return ys.get(1).add(first);
                    }));
    assertSameProgram(
        """
        fun f64 main(*[f64] xs, bool c) =
          let first = xs[0] in
          (if c then let b = xs with [0] <- 9.0 in b else xs)[1] + first""",
        viaBranch);
    assertEquals(
        ScalarValue.f64(3.0),
        new Interpreter(viaBranch)
            .call("main", List.of(Value.Array.ofF64(1.0, 2.0), ScalarValue.bool(true))));
  }
}
