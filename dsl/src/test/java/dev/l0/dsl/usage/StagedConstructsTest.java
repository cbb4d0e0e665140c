package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.array;
import static dev.l0.dsl.L0.concat;
import static dev.l0.dsl.L0.copy;
import static dev.l0.dsl.L0.f32;
import static dev.l0.dsl.L0.filter;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.i64;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.scan;
import static dev.l0.dsl.L0.split;
import static dev.l0.dsl.L0.transpose;
import static dev.l0.dsl.L0.tuple;
import static dev.l0.dsl.L0.unzip;
import static dev.l0.dsl.L0.unzip3;
import static dev.l0.dsl.L0.zip;
import static dev.l0.dsl.usage.Canonical.assertSameProgram;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F32;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn2;
import dev.l0.dsl.I32;
import dev.l0.dsl.I64;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.Tup3;
import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each DSL construct stages the L0 construct it names: the same IR as its text form. */
class StagedConstructsTest {
  @Test
  void scalarArithmeticComparisonsAndBuiltins() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F64.TYPE,
                    I32.TYPE,
                    (x, n) -> {
                      F64 root =
                          x.abs()
                              .sqrt()
                              .log()
                              .sin()
                              .cos()
                              .erf()
                              .floor()
                              .pow(x.neg())
                              .min(x)
                              .max(x.div(3.0));
                      Bool small =
                          n.mod(i32(4)).toF64().lt(root).and(n.ge(2).or(n.ne(i32(7)).not()));
                      return L0.ifThenElse(small, () -> root.sub(1.0), () -> n.toF64());
                    }));

    assertSameProgram(
        """
        fun f64 f(f64 x, i32 n) =
          let r = max(min(floor(erf(cos(sin(log(sqrt(abs(x))))))) pow -x, x), x / 3.0) in
          if f64(n % 4) < r && (n >= 2 || not (n != 7)) then r - 1.0 else f64(n)""",
        staged);
  }

  @Test
  void otherScalarTypesAndConversions() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    F32.TYPE,
                    I64.TYPE,
                    (x, n) ->
                        tuple(
                            x.mul(f32(1.5f)).exp(),
                            n.add(i64(3L)).toI32(),
                            x.toI64().mul(n),
                            n.toF32())));

    assertSameProgram(
        "fun {f32, i32, i64, f32} f(f32 x, i64 n) = {exp(x * 1.5f32), i32(n + 3i64), i64(x) * n, f32(n)}",
        staged);
  }

  @Test
  void filterReduceAndScanWithLambdas() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(I32.TYPE),
                    xs -> {
                      Arr<I32> positive = filter(xs, x -> x.gt(0));
                      return tuple(
                          reduce(positive, i32(0), (a, b) -> a.add(b)),
                          scan(xs, i32(1), (a, b) -> a.mul(b)));
                    }));

    assertSameProgram(
        """
        fun {i32, [i32]} f([i32] xs) =
          {reduce(fn i32 (i32 a, i32 b) => a + b, 0, filter(fn bool (i32 x) => x > 0, xs)),
           scan(fn i32 (i32 a, i32 b) => a * b, 1, xs)}""",
        staged);
  }

  @Test
  void zipMapsOverComponentsAndUnzip() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(F64.TYPE),
                    Arr.of(I32.TYPE),
                    (xs, ns) -> {
                      Arr<Tup2<F64, I32>> pairs = zip(xs, ns);
                      Arr<F64> scaled = map(pairs, (x, n) -> x.mul(n.toF64()));
                      Arr<F64> firsts = map(pairs, p -> p._1());
                      Arr<F64> sums = map(zip(xs, scaled, firsts), (a, b, c) -> a.add(b).add(c));
                      Tup2<Arr<F64>, Arr<I32>> split = unzip(pairs);
                      Tup3<Arr<F64>, Arr<F64>, Arr<F64>> three =
                          unzip3(zip(sums, sums, split._1()));
                      return tuple(three._3(), split._2());
                    }));

    assertSameProgram(
        """
        fun {[f64], [i32]} f([f64] xs, [i32] ns) =
          let pairs = zip(xs, ns) in
          let sums = map(fn f64 (f64 a, f64 b, f64 c) => a + b + c,
                         zip(xs, map(fn f64 (f64 x, i32 n) => x * f64(n), pairs),
                             map(fn f64 ({f64, i32} p) => let {p1, p2} = p in p1, pairs))) in
          let {c1, c2} = unzip(pairs) in
          let {d1, d2, d3} = unzip(zip(sums, sums, c1)) in
          {d3, c2}""",
        staged);
  }

  @Test
  void arrayBuiltins() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    Arr.of(Arr.of(F64.TYPE)),
                    I32.TYPE,
                    (m, n) -> {
                      Arr<Arr<F64>> t = transpose(m);
                      Arr<F64> flat = t.reshape(Arr.of(F64.TYPE), t.size(0).mul(t.size(1)));
                      Tup2<Arr<F64>, Arr<F64>> halves = split(n, copy(flat));
                      Arr<F64> joined = concat(halves._2(), halves._1());
                      Arr<Arr<I32>> grid = replicate(n, iota(n));
                      return tuple(
                          joined.get(n),
                          grid.get(i32(1)).get(2),
                          array(L0.f64(1.0), joined.get(0)));
                    }));

    assertSameProgram(
        """
        fun {f64, i32, [f64]} f([[f64]] m, i32 n) =
          let t = transpose(m) in
          let {h1, h2} = split(n, copy(reshape((size(0, t) * size(1, t)), t))) in
          let joined = concat(h2, h1) in
          {joined[n], (replicate(n, iota(n)))[1][2], [1.0, joined[0]]}""",
        staged);
  }

  @Test
  void loopsCarryScalarsAndTuples() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "f",
                    I32.TYPE,
                    n -> {
                      I32 sum = loop(i32(0), n, (acc, i) -> acc.add(i));
                      Tup2<I32, I32> fib =
                          loop(
                              tuple(i32(0), i32(1)),
                              n,
                              (ab, i) -> tuple(ab._2(), ab._1().add(ab._2())));
                      return sum.add(fib._1());
                    }));

    assertSameProgram(
        """
        fun i32 f(i32 n) =
          loop (acc = 0) = for i < n do acc + i in
          loop ({a, b} = {0, 1}) = for j < n do {b, a + b} in
          acc + a""",
        staged);
    assertEquals(
        ScalarValue.i32(45 + 55), new Interpreter(staged).call("f", List.of(ScalarValue.i32(10))));
  }

  @Test
  void namedFunctionsAreCalledCurriedAndPassedToSoacs() {
    Program staged =
        L0.program(
            prog -> {
              Fn2<F64, F64, F64> scale = prog.fun("scale", F64.TYPE, F64.TYPE, (k, x) -> k.mul(x));
              prog.fun(
                  "f",
                  Arr.of(F64.TYPE),
                  xs -> {
                    Arr<F64> scaled = map(xs, scale.curry(L0.f64(2.0)));
                    return reduce(scaled, scale.call(L0.f64(1.0), L0.f64(0.0)), (a, b) -> a.add(b));
                  });
            });

    assertSameProgram(
        """
        fun f64 scale(f64 k, f64 x) = k * x
        fun f64 f([f64] xs) = reduce(fn f64 (f64 a, f64 b) => a + b, scale(1.0, 0.0), map(scale(2.0), xs))
        """,
        staged);
  }
}
