package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.concat;
import static dev.l0.dsl.L0.copy;
import static dev.l0.dsl.L0.f32;
import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.filter;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.i64;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.op;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.scan;
import static dev.l0.dsl.L0.split;
import static dev.l0.dsl.L0.transpose;
import static dev.l0.dsl.L0.tuple;
import static dev.l0.dsl.L0.zip;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F32;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.Fn2;
import dev.l0.dsl.FnN;
import dev.l0.dsl.I32;
import dev.l0.dsl.I64;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.Tup3;
import dev.l0.dsl.TupN;
import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Program;
import java.util.List;

/**
 * The programs a risk engineer who has read only the README writes with the Java DSL, each beside
 * the same program written as L0 text and an input for its {@code main}: pricing formulas,
 * reductions, scans, filters, nested maps, loops, in-place updates, tuples, branches and the FinPar
 * patterns (a Monte-Carlo over paths with an integer generator, a tridiagonal solve). Shared with
 * the backend tests of {@code gpu-kernels}, which run them on every device.
 */
public final class QuantPrograms {
  /** A DSL program, the same program as L0 text, and arguments for {@code main} in value syntax. */
  public record Case(String name, Program staged, String text, String input) {
    @Override
    public String toString() {
      return name;
    }
  }

  private QuantPrograms() {}

  public static List<Case> all() {
    return List.of(
        blackScholesCalls(),
        presentValue(),
        longExposure(),
        maxDrawdown(),
        lossCount(),
        scenarioRevaluation(),
        bondYieldByNewton(),
        histogram(),
        meanAndVariance(),
        upAndOutCalls(),
        monteCarloWithAnIntegerGenerator(),
        columnMeans(),
        discountCurve(),
        bookSplit(),
        tridiagonalSolve(),
        greeksByBumping(),
        cashLadderInCents(),
        f32Payoffs(),
        ewmaVolatility());
  }

  /** The normal distribution function with L0's erf. */
  private static Fn1<F64, F64> cnd(dev.l0.dsl.ProgramBuilder prog) {
    return prog.fun("cnd", F64.TYPE, x -> f64(0.5).mul(f64(1.0).add(x.div(f64(2.0).sqrt()).erf())));
  }

  private static final String CND = "fun f64 cnd(f64 x) = 0.5 * (1.0 + erf(x / sqrt(2.0)))\n";

  static Case blackScholesCalls() {
    Program staged =
        L0.program(
            prog -> {
              Fn1<F64, F64> cnd = cnd(prog);
              prog.fun(
                  "main",
                  Arr.of(F64.TYPE),
                  Arr.of(F64.TYPE),
                  Arr.of(F64.TYPE),
                  (spots, strikes, years) ->
                      map(
                          zip(spots, strikes, years),
                          (s, k, t) -> {
                            F64 vt = f64(0.3).mul(t.sqrt());
                            F64 d1 =
                                s.div(k)
                                    .log()
                                    .add(f64(0.02).add(f64(0.3).mul(0.3).div(2.0)).mul(t))
                                    .div(vt);
                            F64 d2 = d1.sub(vt);
                            return s.mul(cnd.call(d1))
                                .sub(k.mul(f64(-0.02).mul(t).exp()).mul(cnd.call(d2)));
                          }));
            });
    String text =
        CND
            + """
            fun [f64] main([f64] spots, [f64] strikes, [f64] years) =
              map(fn f64 (f64 s, f64 k, f64 t) =>
                    let vt = 0.3 * sqrt(t) in
                    let d1 = (log(s / k) + (0.02 + 0.3 * 0.3 / 2.0) * t) / vt in
                    let d2 = d1 - vt in
                    s * cnd(d1) - k * exp(-0.02 * t) * cnd(d2),
                  zip(spots, strikes, years))
            """;
    return new Case(
        "Black-Scholes calls",
        staged,
        text,
        "[100.0, 90.0, 120.0, 100.0] [100.0, 100.0, 100.0, 80.0] [1.0, 0.5, 2.0, 0.25]");
  }

  static Case presentValue() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    F64.TYPE,
                    (amounts, years, rate) ->
                        reduce(
                            map(zip(amounts, years), (a, t) -> a.mul(rate.neg().mul(t).exp())),
                            f64(0.0),
                            (x, y) -> x.add(y))));
    String text =
        """
        fun f64 main([f64] amounts, [f64] years, f64 rate) =
          reduce(op +, 0.0, map(fn f64 (f64 a, f64 t) => a * exp(-rate * t), zip(amounts, years)))
        """;
    return new Case(
        "present value",
        staged,
        text,
        "[100.0, 100.0, 100.0, 1100.0, -50.0] [0.5, 1.0, 1.5, 2.0, 0.25] 0.035");
  }

  static Case longExposure() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (quantities, prices) -> {
                      Arr<F64> values = map(zip(quantities, prices), (q, p) -> q.mul(p));
                      Arr<F64> longs = filter(values, v -> f64(0.0).lt(v));
                      return reduce(longs, f64(0.0), (a, b) -> a.add(b));
                    }));
    String text =
        """
        fun f64 main([f64] quantities, [f64] prices) =
          let values = map(op *, zip(quantities, prices)) in
          let longs  = filter(fn bool (f64 v) => 0.0 < v, values) in
          reduce(op +, 0.0, longs)
        """;
    return new Case(
        "long exposure", staged, text, "[1.0, -2.0, 3.0, 0.0, 5.5] [10.0, 20.0, 30.0, 7.0, 2.0]");
  }

  /** The largest fall of the cumulative P&amp;L from its running peak: two scans and a reduce. */
  static Case maxDrawdown() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    pnl -> {
                      Arr<F64> cumulative = scan(pnl, f64(0.0), (a, b) -> a.add(b));
                      Arr<F64> peaks = scan(cumulative, f64(-Double.MAX_VALUE), (a, b) -> a.max(b));
                      return reduce(
                          map(zip(peaks, cumulative), (p, c) -> p.sub(c)),
                          f64(0.0),
                          (a, b) -> a.max(b));
                    }));
    String text =
        """
        fun f64 main([f64] pnl) =
          let cumulative = scan(op +, 0.0, pnl) in
          let peaks = scan(fn f64 (f64 a, f64 b) => max(a, b), -1.7976931348623157e308, cumulative) in
          reduce(fn f64 (f64 a, f64 b) => max(a, b), 0.0, map(op -, zip(peaks, cumulative)))
        """;
    return new Case(
        "maximum drawdown", staged, text, "[1.0, 2.5, -4.0, 0.5, -1.5, 3.0, 2.0, -6.0, 1.0]");
  }

  static Case lossCount() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    F64.TYPE,
                    (pnl, threshold) ->
                        reduce(
                            map(pnl, x -> ifThenElse(x.lt(threshold), () -> i32(1), () -> i32(0))),
                            i32(0),
                            op(BinaryOperator.ADD, I32.TYPE))));
    String text =
        """
        fun i32 main([f64] pnl, f64 threshold) =
          reduce(op +, 0, map(fn i32 (f64 x) => if x < threshold then 1 else 0, pnl))
        """;
    return new Case("loss count", staged, text, "[-3.0, 1.0, -0.5, -7.25, 2.0, -1.0] -1.0");
  }

  /** Every scenario's P&amp;L: a map over scenarios of a reduce over positions. */
  static Case scenarioRevaluation() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (quantities, prices, shocks) ->
                        map(
                            shocks,
                            shock ->
                                reduce(
                                    map(zip(quantities, prices), (q, p) -> q.mul(p).mul(shock)),
                                    f64(0.0),
                                    (a, b) -> a.add(b)))));
    String text =
        """
        fun [f64] main([f64] quantities, [f64] prices, [f64] shocks) =
          map(fn f64 (f64 shock) =>
                reduce(op +, 0.0, map(fn f64 (f64 q, f64 p) => q * p * shock, zip(quantities, prices))),
              shocks)
        """;
    return new Case(
        "scenario revaluation",
        staged,
        text,
        "[10.0, -4.0, 2.5] [101.5, 99.0, 250.0] [-0.2, -0.05, 0.0, 0.05, 0.2]");
  }

  /** A bond's yield from its price: 30 Newton steps, each two reductions over the coupons. */
  static Case bondYieldByNewton() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    F64.TYPE,
                    F64.TYPE,
                    I32.TYPE,
                    (price, coupon, years) ->
                        loop(
                            f64(0.05),
                            i32(30),
                            (y, iteration) -> {
                              Arr<F64> times = map(iota(years), i -> i.add(1).toF64());
                              F64 maturity = years.toF64();
                              F64 value =
                                  reduce(
                                          map(times, t -> coupon.mul(y.neg().mul(t).exp())),
                                          f64(0.0),
                                          (a, b) -> a.add(b))
                                      .add(f64(100.0).mul(y.neg().mul(maturity).exp()))
                                      .sub(price);
                              F64 slope =
                                  reduce(
                                          map(times, t -> t.mul(coupon).mul(y.neg().mul(t).exp())),
                                          f64(0.0),
                                          (a, b) -> a.add(b))
                                      .neg()
                                      .sub(
                                          f64(100.0)
                                              .mul(maturity)
                                              .mul(y.neg().mul(maturity).exp()));
                              return y.sub(value.div(slope));
                            })));
    String text =
        """
        fun f64 main(f64 price, f64 coupon, i32 years) =
          loop (y = 0.05) = for iteration < 30 do
            let times = map(fn f64 (i32 i) => f64(i + 1), iota(years)) in
            let maturity = f64(years) in
            let value = reduce(op +, 0.0, map(fn f64 (f64 t) => coupon * exp(-y * t), times))
                        + 100.0 * exp(-y * maturity) - price in
            let slope = -reduce(op +, 0.0, map(fn f64 (f64 t) => t * coupon * exp(-y * t), times))
                        - 100.0 * maturity * exp(-y * maturity) in
            y - value / slope
          in y
        """;
    return new Case("bond yield by Newton", staged, text, "96.5 4.0 7");
  }

  /** Returns counted into buckets by in-place updates in a loop. */
  static Case histogram() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    List.of(Arr.of(F64.TYPE), I32.TYPE, F64.TYPE, F64.TYPE),
                    p -> {
                      Arr<F64> returns = p.get(0, Arr.of(F64.TYPE));
                      I32 buckets = p.get(1, I32.TYPE);
                      F64 lo = p.get(2, F64.TYPE);
                      F64 width = p.get(3, F64.TYPE);
                      return loop(
                          replicate(buckets, i32(0)),
                          returns.size(),
                          (counts, i) -> {
                            I32 bucket =
                                returns
                                    .get(i)
                                    .sub(lo)
                                    .div(width)
                                    .toI32()
                                    .max(i32(0))
                                    .min(buckets.sub(1));
                            return counts.with(bucket, counts.get(bucket).add(1));
                          });
                    }));
    String text =
        """
        fun [i32] main([f64] returns, i32 buckets, f64 lo, f64 width) =
          loop (counts = replicate(buckets, 0)) = for i < size(returns) do
            let bucket = min(max(i32((returns[i] - lo) / width), 0), buckets - 1) in
            let counts[bucket] = counts[bucket] + 1 in
            counts
          in counts
        """;
    return new Case(
        "histogram",
        staged,
        text,
        "[-0.031, 0.004, 0.012, -0.007, 0.027, 0.049, -0.052, 0.0, 0.018, -0.013] 5 -0.04 0.02");
  }

  /** Count, sum and sum of squares in one reduction over triples. */
  static Case meanAndVariance() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    xs -> {
                      Tup3<F64, F64, F64> moments =
                          reduce(
                              map(xs, x -> tuple(f64(1.0), x, x.mul(x))),
                              tuple(f64(0.0), f64(0.0), f64(0.0)),
                              (a, b) ->
                                  tuple(
                                      a._1().add(b._1()), a._2().add(b._2()), a._3().add(b._3())));
                      F64 mean = moments._2().div(moments._1());
                      return tuple(mean, moments._3().div(moments._1()).sub(mean.mul(mean)));
                    }));
    String text =
        """
        fun {f64, f64} main([f64] xs) =
          let {n, s, ss} =
            reduce(fn {f64, f64, f64} ({f64, f64, f64} a, {f64, f64, f64} b) =>
                     let {n1, s1, q1} = a in
                     let {n2, s2, q2} = b in
                     {n1 + n2, s1 + s2, q1 + q2},
                   {0.0, 0.0, 0.0},
                   map(fn {f64, f64, f64} (f64 x) => {1.0, x, x * x}, xs)) in
          let mean = s / n in
          {mean, ss / n - mean * mean}
        """;
    return new Case(
        "mean and variance", staged, text, "[0.5, -1.25, 2.0, 0.75, -0.5, 1.5, 3.25, -2.0]");
  }

  /** Up-and-out calls on simulated paths: a branch on each path's maximum. */
  static Case upAndOutCalls() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(Arr.of(F64.TYPE)),
                    F64.TYPE,
                    F64.TYPE,
                    (paths, strike, barrier) ->
                        map(
                            paths,
                            path -> {
                              F64 high = reduce(path, f64(-Double.MAX_VALUE), (a, b) -> a.max(b));
                              return ifThenElse(
                                  high.gt(barrier),
                                  () -> f64(0.0),
                                  () -> path.get(path.size().sub(1)).sub(strike).max(f64(0.0)));
                            })));
    String text =
        """
        fun [f64] main([[f64]] paths, f64 strike, f64 barrier) =
          map(fn f64 ([f64] path) =>
                let high = reduce(fn f64 (f64 a, f64 b) => max(a, b), -1.7976931348623157e308, path) in
                if high > barrier then 0.0 else max(path[size(path) - 1] - strike, 0.0),
              paths)
        """;
    return new Case(
        "up-and-out calls",
        staged,
        text,
        "[[100.0, 104.0, 109.0], [100.0, 121.0, 103.0], [100.0, 95.0, 90.0], [100.0, 110.0, 119.5]]"
            + " 100.0 120.0");
  }

  /**
   * FinPar's pattern: a map over paths of a loop over time steps, each path's generator state an
   * i32 that wraps around on overflow (a linear congruential generator), the payoffs averaged.
   */
  static Case monteCarloWithAnIntegerGenerator() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    List.of(I32.TYPE, I32.TYPE, F64.TYPE, F64.TYPE, F64.TYPE),
                    p -> {
                      I32 paths = p.get(0, I32.TYPE);
                      I32 steps = p.get(1, I32.TYPE);
                      F64 spot = p.get(2, F64.TYPE);
                      F64 vol = p.get(3, F64.TYPE);
                      F64 strike = p.get(4, F64.TYPE);
                      Arr<F64> payoffs =
                          map(
                              iota(paths),
                              path -> {
                                Tup2<F64, I32> end =
                                    loop(
                                        tuple(spot, path.mul(1103515245).add(12345)),
                                        steps,
                                        (state, step) -> {
                                          I32 seed = state._2().mul(i32(1664525)).add(1013904223);
                                          F64 u =
                                              seed.shiftRight(8)
                                                  .bitAnd(0xFFFFFF)
                                                  .toF64()
                                                  .div(16777216.0);
                                          return tuple(
                                              state._1().mul(vol.mul(u.sub(0.5)).exp()), seed);
                                        });
                                return end._1().sub(strike).max(f64(0.0));
                              });
                      return reduce(payoffs, f64(0.0), (a, b) -> a.add(b)).div(paths.toF64());
                    }));
    String text =
        """
        fun f64 main(i32 paths, i32 steps, f64 spot, f64 vol, f64 strike) =
          let payoffs =
            map(fn f64 (i32 path) =>
                  loop ({s, seed} = {spot, path * 1103515245 + 12345}) = for step < steps do
                    let next = seed * 1664525 + 1013904223 in
                    let u = f64(next >> 8 & 0xFFFFFF) / 16777216.0 in
                    {s * exp(vol * (u - 0.5)), next}
                  in max(s - strike, 0.0),
                iota(paths)) in
          reduce(op +, 0.0, payoffs) / f64(paths)
        """;
    return new Case(
        "Monte-Carlo with an integer generator", staged, text, "200 12 100.0 0.08 100.0");
  }

  static Case columnMeans() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(Arr.of(F64.TYPE)),
                    m ->
                        map(
                            transpose(m),
                            column ->
                                reduce(column, f64(0.0), (a, b) -> a.add(b))
                                    .div(column.size().toF64()))));
    String text =
        """
        fun [f64] main([[f64]] m) =
          map(fn f64 ([f64] column) => reduce(op +, 0.0, column) / f64(size(column)), transpose(m))
        """;
    return new Case(
        "column means", staged, text, "[[1.0, 10.0, -3.0], [2.0, 20.0, -6.0], [4.5, 35.0, 0.0]]");
  }

  /** A named function of two parameters, curried with the rate, mapped over the times. */
  static Case discountCurve() {
    Program staged =
        L0.program(
            prog -> {
              Fn2<F64, F64, F64> discount =
                  prog.fun("discount", F64.TYPE, F64.TYPE, (r, t) -> r.neg().mul(t).exp());
              prog.fun(
                  "main",
                  F64.TYPE,
                  I32.TYPE,
                  F64.TYPE,
                  (rate, n, dt) ->
                      map(map(iota(n), i -> i.add(1).toF64().mul(dt)), discount.curry(rate)));
            });
    String text =
        """
        fun f64 discount(f64 r, f64 t) = exp(-r * t)
        fun [f64] main(f64 rate, i32 n, f64 dt) =
          map(discount(rate), map(fn f64 (i32 i) => f64(i + 1) * dt, iota(n)))
        """;
    return new Case("discount curve", staged, text, "0.0425 8 0.25");
  }

  /** Two books concatenated and split at a position, each part summed with {@code op +}. */
  static Case bookSplit() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    I32.TYPE,
                    (bookA, bookB, n) -> {
                      Tup2<Arr<F64>, Arr<F64>> parts = split(n, concat(bookA, bookB));
                      Fn2<F64, F64, F64> plus = op(BinaryOperator.ADD, F64.TYPE);
                      return tuple(
                          reduce(parts._1(), f64(0.0), plus), reduce(parts._2(), f64(0.0), plus));
                    }));
    String text =
        """
        fun {f64, f64} main([f64] bookA, [f64] bookB, i32 n) =
          let {first, rest} = split(n, concat(bookA, bookB)) in
          {reduce(op +, 0.0, first), reduce(op +, 0.0, rest)}
        """;
    return new Case("book split", staged, text, "[1.5, 2.5, -1.0] [4.0, 8.0] 4");
  }

  /**
   * LocVolCalib's pattern: the Thomas algorithm for a tridiagonal system, a forward sweep and a
   * back substitution, each a loop of in-place updates.
   */
  static Case tridiagonalSolve() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    List.of(Arr.of(F64.TYPE), Arr.of(F64.TYPE), Arr.of(F64.TYPE), Arr.of(F64.TYPE)),
                    p -> {
                      Arr<F64> a = p.get(0, Arr.of(F64.TYPE));
                      Arr<F64> b = p.get(1, Arr.of(F64.TYPE));
                      Arr<F64> c = p.get(2, Arr.of(F64.TYPE));
                      Arr<F64> d = p.get(3, Arr.of(F64.TYPE));
                      I32 n = b.size();
                      Arr<F64> cp0 = copy(c).with(i32(0), c.get(0).div(b.get(0)));
                      Arr<F64> dp0 = copy(d).with(i32(0), d.get(0).div(b.get(0)));
                      Tup2<Arr<F64>, Arr<F64>> swept =
                          loop(
                              tuple(cp0, dp0),
                              n.sub(1),
                              (state, j) -> {
                                I32 i = j.add(1);
                                Arr<F64> cp = state._1();
                                Arr<F64> dp = state._2();
                                F64 m = let(b.get(i).sub(a.get(i).mul(cp.get(i.sub(1)))));
                                F64 dpi = let(d.get(i).sub(a.get(i).mul(dp.get(i.sub(1)))).div(m));
                                return tuple(cp.with(i, c.get(i).div(m)), dp.with(i, dpi));
                              });
                      Arr<F64> cp = swept._1();
                      Arr<F64> dp = swept._2();
                      return loop(
                          copy(dp),
                          n.sub(1),
                          (x, j) -> {
                            I32 i = n.sub(2).sub(j);
                            return x.with(i, dp.get(i).sub(cp.get(i).mul(x.get(i.add(1)))));
                          });
                    }));
    String text =
        """
        fun [f64] main([f64] a, [f64] b, [f64] c, [f64] d) =
          let n = size(b) in
          let c1 = copy(c) in
          let cp0 = c1 with [0] <- c[0] / b[0] in
          let d1 = copy(d) in
          let dp0 = d1 with [0] <- d[0] / b[0] in
          loop ({cp, dp} = {cp0, dp0}) = for j < n - 1 do
            let i = j + 1 in
            let m = b[i] - a[i] * cp[i - 1] in
            let dpi = (d[i] - a[i] * dp[i - 1]) / m in
            let cp[i] = c[i] / m in
            let dp[i] = dpi in
            {cp, dp}
          in
          loop (x = copy(dp)) = for j < n - 1 do
            let i = n - 2 - j in
            let x[i] = dp[i] - cp[i] * x[i + 1] in
            x
          in x
        """;
    return new Case(
        "tridiagonal solve",
        staged,
        text,
        "[0.0, -1.0, -1.0, -1.0, -1.0] [4.0, 4.0, 4.0, 4.0, 4.0] [-1.0, -1.0, -1.0, -1.0, 0.0]"
            + " [5.0, 5.0, 10.0, 23.0, 37.0]");
  }

  /**
   * A price and its sensitivities by bumping, a function of five parameters ({@code FnN}) and a
   * result of seven components ({@code TupN}).
   */
  static Case greeksByBumping() {
    Program staged =
        L0.program(
            prog -> {
              Fn1<F64, F64> cnd = cnd(prog);
              FnN<F64> call =
                  prog.fun(
                      "call",
                      List.of(F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE),
                      p -> {
                        F64 s = p.get(0, F64.TYPE);
                        F64 k = p.get(1, F64.TYPE);
                        F64 t = p.get(2, F64.TYPE);
                        F64 r = p.get(3, F64.TYPE);
                        F64 v = p.get(4, F64.TYPE);
                        F64 vt = v.mul(t.sqrt());
                        F64 d1 = s.div(k).log().add(r.add(v.mul(v).div(2.0)).mul(t)).div(vt);
                        return s.mul(cnd.call(d1))
                            .sub(k.mul(r.neg().mul(t).exp()).mul(cnd.call(d1.sub(vt))));
                      });
              prog.fun(
                  "main",
                  F64.TYPE,
                  F64.TYPE,
                  F64.TYPE,
                  (s, k, t) -> {
                    F64 r = f64(0.03);
                    F64 v = f64(0.25);
                    F64 h = f64(0.01);
                    F64 price = call.call(s, k, t, r, v);
                    F64 up = call.call(s.add(h), k, t, r, v);
                    F64 down = call.call(s.sub(h), k, t, r, v);
                    TupN greeks =
                        tuple(
                            price,
                            up.sub(down).div(h.mul(2.0)),
                            up.sub(price.mul(2.0)).add(down).div(h.mul(h)),
                            call.call(s, k, t, r, v.add(h)).sub(price).div(h),
                            call.call(s, k, t.sub(h), r, v).sub(price).div(h),
                            call.call(s, k, t, r.add(h), v).sub(price).div(h),
                            up.sub(down));
                    return greeks;
                  });
            });
    String text =
        CND
            + """
            fun f64 call(f64 s, f64 k, f64 t, f64 r, f64 v) =
              let vt = v * sqrt(t) in
              let d1 = (log(s / k) + (r + v * v / 2.0) * t) / vt in
              s * cnd(d1) - k * exp(-r * t) * cnd(d1 - vt)
            fun {f64, f64, f64, f64, f64, f64, f64} main(f64 s, f64 k, f64 t) =
              let price = call(s, k, t, 0.03, 0.25) in
              let up = call(s + 0.01, k, t, 0.03, 0.25) in
              let down = call(s - 0.01, k, t, 0.03, 0.25) in
              {price,
               (up - down) / (0.01 * 2.0),
               (up - price * 2.0 + down) / (0.01 * 0.01),
               (call(s, k, t, 0.03, 0.25 + 0.01) - price) / 0.01,
               (call(s, k, t - 0.01, 0.03, 0.25) - price) / 0.01,
               (call(s, k, t, 0.03 + 0.01, 0.25) - price) / 0.01,
               up - down}
            """;
    return new Case("greeks by bumping", staged, text, "105.0 100.0 0.75");
  }

  /** Cash flows in cents (i64) due within 30 days, summed; i64 wraps around as i32 does. */
  static Case cashLadderInCents() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(I64.TYPE),
                    Arr.of(I32.TYPE),
                    (cents, days) ->
                        reduce(
                            map(
                                zip(cents, days),
                                (c, d) -> ifThenElse(d.le(30), () -> c, () -> i64(0))),
                            i64(0),
                            (a, b) -> a.add(b))));
    String text =
        """
        fun i64 main([i64] cents, [i32] days) =
          reduce(op +, 0i64, map(fn i64 (i64 c, i32 d) => if d <= 30 then c else 0i64, zip(cents, days)))
        """;
    return new Case(
        "cash ladder in cents",
        staged,
        text,
        "[9223372036854775000i64, 1000i64, -250i64, 77i64] [1, 30, 31, 2]");
  }

  static Case f32Payoffs() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F32.TYPE),
                    F32.TYPE,
                    (spots, strike) ->
                        map(spots, s -> s.sub(strike).max(f32(0.0f)).mul(f32(-0.01f).exp()))));
    String text =
        """
        fun [f32] main([f32] spots, f32 strike) =
          map(fn f32 (f32 s) => max(s - strike, 0.0f32) * exp(-0.01f32), spots)
        """;
    return new Case(
        "f32 payoffs", staged, text, "[95.5f32, 100.25f32, 130.0f32, 101.0f32] 100.0f32");
  }

  /** RiskMetrics' exponentially weighted volatility: a loop over the returns. */
  static Case ewmaVolatility() {
    Program staged =
        L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    F64.TYPE,
                    (returns, lambda) ->
                        loop(
                                returns.get(0).mul(returns.get(0)),
                                returns.size().sub(1),
                                (variance, i) -> {
                                  F64 r = returns.get(i.add(1));
                                  return lambda
                                      .mul(variance)
                                      .add(f64(1.0).sub(lambda).mul(r.mul(r)));
                                })
                            .sqrt()));
    String text =
        """
        fun f64 main([f64] returns, f64 lambda) =
          let variance =
            loop (v = returns[0] * returns[0]) = for i < size(returns) - 1 do
              let r = returns[i + 1] in
              lambda * v + (1.0 - lambda) * (r * r)
            in v in
          sqrt(variance)
        """;
    return new Case(
        "EWMA volatility",
        staged,
        text,
        "[0.012, -0.008, 0.021, -0.015, 0.004, 0.0, -0.027, 0.011] 0.94");
  }
}
