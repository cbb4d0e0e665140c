package dev.l0.programs.finpar;

import static dev.l0.dsl.L0.array;
import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.transpose;
import static dev.l0.dsl.L0.tuple;
import static dev.l0.dsl.L0.unzip;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.FnN;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.Params;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.Tup3;
import dev.l0.dsl.TupN;
import dev.l0.dsl.ValType;
import dev.l0.ir.Program;
import java.util.List;

/**
 * R2, FinPar's InterestCalib, in the Java DSL, in double precision: calibrates the G2++ two-factor
 * short-rate model (genome a, b, rho, nu, sigma) to the swaption quotes by a DE-MCMC genetic
 * algorithm whose fitness is the Cauchy log-likelihood of the genome's G2++ swaption prices
 * (Gauss-Hermite quadrature, Brent root finding) against the quotes' Black prices; every random
 * number is the next 1-D Sobol number, drawn in FinPar's order. The swaption price and the fitness
 * are L0 functions ({@code g2ppPrice}, {@code fitness}); the smaller helpers (dates, the normal
 * distribution, Brent's method, the genetic moves) are Java methods staged where they are called.
 * It computes what {@code programs/finpar/InterestCalib.l0} computes, operation for operation.
 */
public final class InterestCalib {
  private static final ValType<Arr<F64>> REALS = Arr.of(F64.TYPE);
  private static final ValType<Arr<Arr<F64>>> GRID = Arr.of(REALS);

  /**
   * The parameters of {@code main}, in input.data's order, named as in {@code InterestCalib.l0}.
   */
  private static final List<ValType<?>> INPUT =
      List.of(
          I32.TYPE.named("popSize"),
          I32.TYPE.named("mcmcLoops"),
          I32.TYPE.named("numSwapQuotes"),
          GRID.named("quotes"),
          I32.TYPE.named("numHermite"),
          REALS.named("hermiteX"),
          REALS.named("hermiteW"),
          I32.TYPE.named("numSobolBits"),
          Arr.of(I32.TYPE).named("dirVct"));

  /**
   * g2ppPrice's parameters: a, b, rho, nu, sigma, hermiteX, hermiteW, quote, strike, begins, ends.
   */
  private static final List<ValType<?>> PRICE_INPUT =
      List.of(
          F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, REALS, REALS, REALS, F64.TYPE, REALS,
          REALS);

  /** fitness's parameters: genome, hermiteX, hermiteW, quotes, strikes, blacks, begins, ends. */
  private static final List<ValType<?>> FITNESS_INPUT =
      List.of(REALS, REALS, REALS, GRID, REALS, REALS, GRID, GRID);

  /** The genome's fields after its five dimensions a, b, rho, nu, sigma. */
  private static final int LOG_LIK = 5;

  private static final int FB_RAT = 6;
  private static final double INFINITY = 1.0e49;
  private static final double PI = 3.1415926535897932384626433832795;
  private static final double[] GENOME_MIN = {1.0e-3, 1.0e-3, -1.0 + 1.0e-3, 1.0e-3, 1.0e-3};
  private static final double[] GENOME_MAX = {1.0 - 1.0e-3, 1.0 - 1.0e-3, 1.0 - 1.0e-3, 0.2, 0.2};
  private static final double AMPLITUDE_RATIO = 0.005;

  /**
   * The swaptions' genome-independent data: schedule begins and ends (padded), strikes, Black
   * prices.
   */
  private record Swaptions(
      Arr<Arr<F64>> begins, Arr<Arr<F64>> ends, Arr<F64> strikes, Arr<F64> blacks) {}

  /** What the fitness needs besides the genome: the quadrature and the swaptions. */
  private record Market(
      Arr<F64> hermiteX, Arr<F64> hermiteW, Arr<Arr<F64>> quotes, Swaptions swaptions) {}

  /** A date as {year, month, day}. */
  private record Gregorian(I32 year, I32 month, I32 day) {}

  /** {V(tau), B(a, tau), B(b, tau)}. */
  private record BigV(F64 v, F64 ba, F64 bb) {}

  private InterestCalib() {}

  /**
   * The program: {@code main} takes InterestCalib's input.data values and returns output.data's.
   */
  public static Program program() {
    return L0.program(
        prog -> {
          FnN<F64> price = prog.fun("g2ppPrice", PRICE_INPUT, InterestCalib::g2ppPrice);
          FnN<F64> fitness = prog.fun("fitness", FITNESS_INPUT, p -> fitness(price, p));
          prog.fun("main", INPUT, p -> main(price, fitness, p));
        });
  }

  // ---------------------------------------------------------------- dates (minutes since epoch)

  private static F64 genomeMin(I32 dim) {
    return let(
            "mins",
            array(
                f64(GENOME_MIN[0]),
                f64(GENOME_MIN[1]),
                f64(GENOME_MIN[2]),
                f64(GENOME_MIN[3]),
                f64(GENOME_MIN[4])))
        .get(dim);
  }

  private static F64 genomeMax(I32 dim) {
    return let(
            "maxs",
            array(
                f64(GENOME_MAX[0]),
                f64(GENOME_MAX[1]),
                f64(GENOME_MAX[2]),
                f64(GENOME_MAX[3]),
                f64(GENOME_MAX[4])))
        .get(dim);
  }

  private static I32 dateOfGregorian(I32 year, I32 month, I32 day, int hour, int minute) {
    I32 ym =
        let(
            "ym",
            ifThenElse(
                month.eq(1).or(month.eq(2)),
                () ->
                    i32(1461)
                        .mul(year.add(4800).sub(1))
                        .div(4)
                        .add(i32(367).mul(month.add(10)).div(12))
                        .sub(i32(3).mul(year.add(4900).sub(1).div(100)).div(4)),
                () ->
                    i32(1461)
                        .mul(year.add(4800))
                        .div(4)
                        .add(i32(367).mul(month.sub(2)).div(12))
                        .sub(i32(3).mul(year.add(4900).div(100)).div(4))));
    I32 days = let("days", ym.add(day).sub(32075).sub(2444238));
    return days.mul(1440).add(i32(hour * 60)).add(i32(minute));
  }

  private static F64 today() {
    return dateOfGregorian(i32(2012), i32(1), i32(1), 12, 0).toF64();
  }

  private static Gregorian gregorianOfDate(I32 minutes) {
    I32 jul = let("jul", minutes.div(1440));
    I32 l0 = let("l0", jul.add(68569).add(2444238));
    I32 n = let("n", i32(4).mul(l0).div(146097));
    I32 l1 = let("l1", l0.sub(i32(146097).mul(n).add(3).div(4)));
    I32 i = let("i", i32(4000).mul(l1.add(1)).div(1461001));
    I32 l2 = let("l2", l1.sub(i32(1461).mul(i).div(4)).add(31));
    I32 j = let("j", i32(80).mul(l2).div(2447));
    I32 d = let("d", l2.sub(i32(2447).mul(j).div(80)));
    I32 l3 = let("l3", j.div(11));
    return new Gregorian(
        let("year", i32(100).mul(n.sub(49)).add(i).add(l3)),
        let("month", j.add(2).sub(i32(12).mul(l3))),
        d);
  }

  private static Bool leap(I32 y) {
    return y.mod(i32(4)).eq(0).and(y.mod(i32(100)).ne(i32(0)).or(y.mod(i32(400)).eq(0)));
  }

  private static I32 endOfMonth(I32 year, I32 month) {
    return ifThenElse(
        month.eq(2).and(leap(year)),
        () -> i32(29),
        () ->
            ifThenElse(
                month.eq(2),
                () -> i32(28),
                () ->
                    ifThenElse(
                        month.eq(4).or(month.eq(6)).or(month.eq(9)).or(month.eq(11)),
                        () -> i32(30),
                        () -> i32(31))));
  }

  /**
   * The date {@code nbMonths} months after {@code time}, at noon, its day clamped to the end of the
   * month.
   */
  private static F64 addMonths(F64 time, F64 nbMonths) {
    Gregorian start = gregorianOfDate(time.toI32());
    I32 month1 = let("month1", start.month().add(nbMonths.toI32()));
    I32 year1 = let("year1", start.year().add(month1.sub(1).div(12)));
    I32 month2 = let("month2", month1.sub(1).mod(i32(12)).add(1));
    Tup2<I32, I32> ym =
        let(
            "ym",
            ifThenElse(
                month2.le(0),
                () -> tuple(year1.sub(1), month2.add(12)),
                () -> tuple(year1, month2)));
    I32 monthEnd = let("monthEnd", endOfMonth(ym._1(), ym._2()));
    return dateOfGregorian(
            ym._1(),
            ym._2(),
            ifThenElse(start.day().lt(monthEnd), start::day, () -> monthEnd),
            12,
            0)
        .toF64();
  }

  private static F64 addYears(F64 date, F64 nbYears) {
    return addMonths(date, nbYears.mul(12.0));
  }

  private static F64 act365(F64 t1, F64 t2) {
    return t1.sub(t2).div(1440.0).div(365.0);
  }

  /** The zero-coupon bond price at t, flat rate 3%. */
  private static F64 zc(F64 t) {
    return f64(-0.03).mul(act365(t, today())).exp();
  }

  // ---------------------------------------------------------------- normal distribution (A&S
  // 7.1.26)

  private static F64 erfPolynomial(F64 x) {
    F64 t = let("t", f64(1.0).div(f64(1.0).add(f64(0.3275911).mul(x))));
    F64 t2 = let("t2", t.mul(t));
    F64 t3 = let("t3", t.mul(t2));
    F64 t4 = let("t4", t2.mul(t2));
    F64 t5 = let("t5", t2.mul(t3));
    return f64(0.254829592)
        .mul(t)
        .add(f64(-0.284496736).mul(t2))
        .add(f64(1.421413741).mul(t3))
        .add(f64(-1.453152027).mul(t4))
        .add(f64(1.061405429).mul(t5));
  }

  private static F64 erfPositive(F64 x) {
    return f64(1.0).sub(erfPolynomial(x).mul(x.mul(x).neg().exp()));
  }

  private static F64 normalCdf(F64 x) {
    F64 u = let("u", x.div(f64(2.0).sqrt()));
    F64 e = let("e", ifThenElse(u.lt(0.0), () -> erfPositive(u.neg()).neg(), () -> erfPositive(u)));
    return f64(0.5).mul(f64(1.0).add(e));
  }

  /** normalCdf(x) * exp(expFactor), without overflow in between. */
  private static F64 normalCdfTimesExp(F64 x, F64 expFactor) {
    F64 u = let("u", x.div(f64(2.0).sqrt()).abs());
    F64 partial = let("partial", f64(0.5).mul(erfPolynomial(u)).mul(expFactor.sub(u.mul(u)).exp()));
    return ifThenElse(x.ge(0.0), () -> expFactor.exp().sub(partial), () -> partial);
  }

  // ---------------------------------------------------------------- G2++ helpers

  private static F64 bFun(F64 z0, F64 tau) {
    return f64(1.0).sub(z0.neg().mul(tau).exp()).div(z0);
  }

  private static F64 tFun(F64 sigma, F64 x0, F64 tau) {
    F64 expxtau = let("expxtau", x0.neg().mul(tau).exp());
    F64 exp2xtau = let("exp2xtau", expxtau.mul(expxtau));
    return sigma
        .mul(sigma)
        .div(x0.mul(x0))
        .mul(
            tau.add(f64(2.0).div(x0).mul(expxtau))
                .sub(f64(1.0).div(f64(2.0).mul(x0)).mul(exp2xtau))
                .sub(f64(3.0).div(f64(2.0).mul(x0))));
  }

  private static BigV bigV(F64 a, F64 b, F64 rho, F64 nu, F64 sigma, F64 tau) {
    F64 bai = let("bai", bFun(a, tau));
    F64 bbi = let("bbi", bFun(b, tau));
    F64 v0 = let("v0", tFun(sigma, a, tau));
    F64 v1 = let("v1", v0.add(tFun(nu, b, tau)));
    F64 v =
        let(
            "v",
            v1.add(
                f64(2.0)
                    .mul(rho)
                    .mul(nu)
                    .mul(sigma)
                    .div(a.mul(b))
                    .mul(tau.sub(bai).sub(bbi).add(bFun(a.add(b), tau)))));
    return new BigV(v, bai, bbi);
  }

  /**
   * Brigo-Mercurio's drift term M^x (own rate a, other rate b) or M^y (own b, other a) between s
   * and t for maturity tmat, from its three coefficients (which differ between the two by more than
   * a swap of roles, so each caller writes its own).
   */
  private static F64 bigM(
      F64 own,
      F64 other,
      F64 firstCoef,
      F64 secondCoef,
      F64 thirdCoef,
      F64 day0,
      F64 tmat,
      F64 s,
      F64 t) {
    F64 ts = let("ts", act365(t, s));
    F64 tmatt = let("tmatt", act365(tmat, t));
    F64 tmat0 = let("tmat0", act365(tmat, day0));
    F64 tmats = let("tmats", act365(tmat, s));
    F64 t0 = let("t0", act365(t, day0));
    F64 s0 = let("s0", act365(s, day0));
    F64 first = let("first", firstCoef.mul(f64(1.0).sub(own.neg().mul(ts).exp())));
    F64 second =
        let(
            "second",
            secondCoef.mul(own.neg().mul(tmatt).exp().sub(own.neg().mul(tmats.add(ts)).exp())));
    F64 third =
        let(
            "third",
            thirdCoef.mul(
                other
                    .neg()
                    .mul(tmatt)
                    .exp()
                    .sub(
                        other
                            .neg()
                            .mul(tmat0)
                            .sub(own.mul(t0))
                            .add(own.add(other).mul(s0))
                            .exp())));
    return f64(0.0).add(first).sub(second).sub(third);
  }

  private static F64 bigMx(
      F64 a, F64 b, F64 rho, F64 nu, F64 sigma, F64 day0, F64 tmat, F64 s, F64 t) {
    return bigM(
        a,
        b,
        sigma.mul(sigma).div(a.mul(a)).add(sigma.mul(rho).mul(nu).div(a.mul(b))),
        sigma.mul(sigma).div(f64(2.0).mul(a).mul(a)),
        rho.mul(sigma).mul(nu).div(b.mul(a.add(b))),
        day0,
        tmat,
        s,
        t);
  }

  private static F64 bigMy(
      F64 a, F64 b, F64 rho, F64 nu, F64 sigma, F64 day0, F64 tmat, F64 s, F64 t) {
    return bigM(
        b,
        a,
        nu.mul(nu).div(b.mul(b)).add(sigma.mul(rho).mul(nu).div(a.mul(b))),
        nu.mul(nu).div(f64(2.0).mul(b).mul(b)),
        sigma.mul(rho).mul(nu).div(a.mul(a.add(b))),
        day0,
        tmat,
        s,
        t);
  }

  // ---------------------------------------------------------------- swaptions (genome-independent)

  private static I32 periods(Arr<F64> quote) {
    return f64(12.0).mul(quote.get(2)).div(quote.get(1)).toI32();
  }

  private static F64 maturityOf(Arr<F64> quote) {
    return addYears(today(), quote.get(0));
  }

  /**
   * {strike, Black price} of a swaption quote [maturity years, frequency months, term years, vol].
   */
  private static Tup2<F64, F64> blackPrice(Arr<F64> quote) {
    F64 maturity = let("maturity", maturityOf(quote));
    F64 freq = let("freq", quote.get(1));
    Tup3<F64, F64, F64> schedule =
        loop(
            tuple(f64(0.0), f64(168307199.0), f64(3600.0)),
            periods(quote),
            (acc, i) -> {
              F64 a1 = let("a1", addMonths(maturity, freq.mul(i.toF64())));
              F64 a2 = let("a2", addMonths(a1, freq));
              return tuple(
                  acc._1().add(zc(a2).mul(act365(a2, a1))), acc._2().min(a1), acc._3().max(a2));
            });
    F64 lvl = schedule._1();
    F64 strike = let("strike", zc(schedule._2()).sub(zc(schedule._3())).div(lvl));
    F64 d1 = let("d1", f64(0.5).mul(quote.get(3)).mul(act365(maturity, today())));
    return tuple(strike, lvl.mul(strike).mul(normalCdf(d1).sub(normalCdf(d1.neg()))));
  }

  private static Swaptions swaptions(Arr<Arr<F64>> quotes) {
    I32 maxPeriods =
        let("maxPeriods", reduce(map(quotes, InterestCalib::periods), i32(0), (x, y) -> x.max(y)));
    Arr<Arr<F64>> begins =
        let(
            "begins",
            map(
                quotes,
                quote ->
                    map(
                        iota(maxPeriods),
                        i -> addMonths(maturityOf(quote), quote.get(1).mul(i.toF64())))));
    Arr<Arr<F64>> ends =
        let(
            "ends",
            map(
                quotes,
                quote ->
                    map(
                        iota(maxPeriods),
                        i ->
                            addMonths(
                                addMonths(maturityOf(quote), quote.get(1).mul(i.toF64())),
                                quote.get(1)))));
    Tup2<Arr<F64>, Arr<F64>> black = let("black", unzip(map(quotes, InterestCalib::blackPrice)));
    return new Swaptions(begins, ends, black._1(), black._2());
  }

  // ---------------------------------------------------------------- the G2++ swaption price

  /** sum_{i<n} hatScale[i] * exp(-bbi[i] * y) - 1. */
  private static F64 toSolve(I32 n, Arr<F64> hatScale, Arr<F64> bbi, F64 y) {
    return loop(
            f64(0.0),
            n,
            (accum, i) -> accum.add(hatScale.get(i).mul(bbi.get(i).neg().mul(y).exp())))
        .sub(1.0);
  }

  /**
   * Brent's root finding of toSolve in [lb, ub] (tolerance 1e-4, 1000 iterations): {root, f(root)};
   * f is +-1e49 when the bracket holds no sign change.
   */
  private static Tup2<F64, F64> brent(I32 n, Arr<F64> hatScale, Arr<F64> bbi, F64 lb, F64 ub) {
    double tol = 1.0e-4;
    F64 fa0 = let("fa0", toSolve(n, hatScale, bbi, lb));
    F64 fb0 = let("fb0", toSolve(n, hatScale, bbi, ub));
    return ifThenElse(
        fa0.mul(fb0).ge(0.0),
        () -> tuple(f64(0.0), ifThenElse(lb.ge(0.0), () -> f64(INFINITY), () -> f64(-INFINITY))),
        () -> {
          Bool swap = let("swap", fa0.abs().lt(fb0.abs()));
          F64 a1 = let("a1", ifThenElse(swap, () -> ub, () -> lb));
          F64 b1 = let("b1", ifThenElse(swap, () -> lb, () -> ub));
          F64 fa1 = let("fa1", ifThenElse(swap, () -> fb0, () -> fa0));
          F64 fb1 = let("fb1", ifThenElse(swap, () -> fa0, () -> fb0));
          TupN last =
              loop(
                  tuple(a1, b1, a1, f64(0.0), fa1, fb1, fa1, L0.bool(true)),
                  i32(1000),
                  (st, it) -> {
                    F64 a = st.get(0, F64.TYPE);
                    F64 b = st.get(1, F64.TYPE);
                    F64 c = st.get(2, F64.TYPE);
                    F64 d = st.get(3, F64.TYPE);
                    F64 fa = st.get(4, F64.TYPE);
                    F64 fb = st.get(5, F64.TYPE);
                    F64 fc = st.get(6, F64.TYPE);
                    Bool mflag = st.get(7, Bool.TYPE);
                    return ifThenElse(
                        fb.ne(f64(0.0)).and(b.sub(a).abs().ge(tol)),
                        () -> {
                          F64 s0 =
                              let(
                                  "s0",
                                  ifThenElse(
                                      fa.eq(fc).or(fb.eq(fc)),
                                      () -> b.sub(fb.mul(b.sub(a)).div(fb.sub(fa))),
                                      () ->
                                          a.mul(fb)
                                              .mul(fc)
                                              .div(fa.sub(fb).mul(fa.sub(fc)))
                                              .add(
                                                  b.mul(fa).mul(fc).div(fb.sub(fa).mul(fb.sub(fc))))
                                              .add(
                                                  c.mul(fa)
                                                      .mul(fb)
                                                      .div(fc.sub(fa).mul(fc.sub(fb))))));
                          Bool bisect =
                              let(
                                  "bisect",
                                  f64(3.0)
                                      .mul(a)
                                      .add(b)
                                      .div(4.0)
                                      .gt(s0)
                                      .or(s0.gt(b))
                                      .or(mflag.and(b.sub(c).abs().div(2.0).le(s0.sub(b).abs())))
                                      .or(
                                          mflag
                                              .not()
                                              .and(c.sub(d).abs().div(2.0).le(s0.sub(b).abs())))
                                      .or(mflag.and(b.sub(c).abs().le(f64(tol).abs())))
                                      .or(mflag.not().and(c.sub(d).abs().le(f64(tol).abs()))));
                          F64 s = let("s", ifThenElse(bisect, () -> a.add(b).div(2.0), () -> s0));
                          F64 fs = let("fs", toSolve(n, hatScale, bbi, s));
                          Bool left = let("left", fa.mul(fs).lt(0.0));
                          F64 a2 = let("a2", ifThenElse(left, () -> a, () -> s));
                          F64 fa2 = let("fa2", ifThenElse(left, () -> fa, () -> fs));
                          F64 b2 = let("b2", ifThenElse(left, () -> s, () -> b));
                          F64 fb2 = let("fb2", ifThenElse(left, () -> fs, () -> fb));
                          return ifThenElse(
                              fa2.abs().lt(fb2.abs()),
                              () -> tuple(b2, a2, b, c, fb2, fa2, fb, bisect),
                              () -> tuple(a2, b2, b, c, fa2, fb2, fb, bisect));
                        },
                        () -> tuple(a, b, c, d, fa, fb, fc, mflag));
                  });
          return tuple(last.get(1, F64.TYPE), last.get(5, F64.TYPE));
        });
  }

  /** The per-swaption constants exactYhat reads: the model's moments and the coupon terms. */
  private record Linearisation(
      I32 n,
      F64 b,
      F64 sigmax,
      F64 sigmay,
      F64 rhoxy,
      F64 rhoxyc,
      F64 rhoxycs,
      F64 mux,
      F64 muy,
      Arr<F64> bai,
      Arr<F64> bbi,
      Arr<F64> aici,
      Arr<F64> logAici) {}

  /** The linearisation point yhat(x) of the G2++ swaption formula. */
  private static F64 exactYhat(Linearisation l, F64 x) {
    double k = -3.71901648545568;
    Arr<F64> hatScale =
        let(
            "hatScale",
            map(iota(l.bai().size()), i -> l.aici().get(i).mul(l.bai().get(i).mul(x).neg().exp())));
    Tup2<F64, F64> bounds =
        loop(
            tuple(f64(0.0), f64(-INFINITY)),
            l.n(),
            (acc, i) ->
                tuple(
                    acc._1().add(hatScale.get(i)),
                    acc._2()
                        .max(l.logAici().get(i).sub(l.bai().get(i).mul(x)).div(l.bbi().get(i)))));
    F64 logS = let("logS", bounds._1().log());
    F64 lastRatio = let("lastRatio", logS.div(l.bbi().get(l.n().sub(1))));
    F64 firstRatio = let("firstRatio", logS.div(l.bbi().get(0)));
    F64 up =
        let(
            "up",
            ifThenElse(
                lastRatio.le(0.0),
                () -> lastRatio,
                () -> ifThenElse(f64(0.0).le(firstRatio), () -> firstRatio, () -> f64(-INFINITY))));
    F64 yl = let("yl", bounds._2().sub(1.0e-5));
    F64 yu = let("yu", up.add(1.0e-5));
    F64 y0 =
        let(
            "y0",
            l.sigmay()
                .mul(l.rhoxy().mul(x.sub(l.mux())).div(l.sigmax()).add(f64(k).mul(l.rhoxycs())))
                .sub(l.rhoxyc().div(l.b()))
                .add(l.muy()));
    F64 y1 =
        let(
            "y1",
            l.sigmay()
                .mul(l.rhoxy().mul(x.sub(l.mux())).div(l.sigmax()).sub(f64(k).mul(l.rhoxycs())))
                .add(l.muy()));
    return ifThenElse(
        y1.le(yl),
        () -> y1.add(1.0),
        () ->
            ifThenElse(
                yu.le(y0),
                () -> y0.sub(1.0),
                () -> {
                  Tup2<F64, F64> root =
                      let("root", brent(l.n(), hatScale, l.bbi(), yl.max(y0), yu.min(y1)));
                  F64 error = root._2();
                  return ifThenElse(
                      error.eq(-INFINITY),
                      () -> y0.sub(1.0),
                      () -> ifThenElse(error.eq(INFINITY), () -> y1.add(1.0), root::_1));
                }));
  }

  /**
   * The G2++ price of a swaption (quote, its strike and its schedule begins/ends) under a genome.
   */
  private static F64 g2ppPrice(Params p) {
    F64 a = p.get(0, F64.TYPE);
    F64 b = p.get(1, F64.TYPE);
    F64 rho = p.get(2, F64.TYPE);
    F64 nu = p.get(3, F64.TYPE);
    F64 sigma = p.get(4, F64.TYPE);
    Arr<F64> hermiteX = p.get(5, REALS);
    Arr<F64> hermiteW = p.get(6, REALS);
    Arr<F64> quote = p.get(7, REALS);
    F64 strike = p.get(8, F64.TYPE);
    Arr<F64> begins = p.get(9, REALS);
    Arr<F64> ends = p.get(10, REALS);
    F64 day0 = let("day0", today());
    I32 n = let("n", periods(quote));
    F64 maturity = let("maturity", maturityOf(quote));
    F64 tmat0 = let("tmat0", act365(maturity, day0));
    F64 v0Mat = bigV(a, b, rho, nu, sigma, tmat0).v();
    F64 mux = let("mux", bigMx(a, b, rho, nu, sigma, day0, maturity, day0, maturity).neg());
    F64 muy = let("muy", bigMy(a, b, rho, nu, sigma, day0, maturity, day0, maturity).neg());
    F64 zcMat = let("zcMat", zc(maturity));
    F64 sqrtBfunA = let("sqrtBfunA", bFun(f64(2.0).mul(a), tmat0).sqrt());
    F64 sqrtBfunB = let("sqrtBfunB", bFun(f64(2.0).mul(b), tmat0).sqrt());
    F64 rhoxy = let("rhoxy", rho.mul(bFun(a.add(b), tmat0)).div(sqrtBfunA.mul(sqrtBfunB)));
    F64 sigmax = let("sigmax", sigma.mul(sqrtBfunA));
    F64 sigmay = let("sigmay", nu.mul(sqrtBfunB));
    F64 rhoxyc = let("rhoxyc", f64(1.0).sub(rhoxy.mul(rhoxy)));
    F64 rhoxycs = let("rhoxycs", rhoxyc.sqrt());
    F64 sigmayRhoxycs = let("sigmayRhoxycs", sigmay.mul(rhoxycs));
    F64 t4 = let("t4", rhoxy.mul(sigmay).div(sigmax));
    Arr<Arr<F64>> terms =
        let(
            "terms",
            map(
                iota(begins.size()),
                i -> {
                  F64 res = let("res", act365(ends.get(i), begins.get(i)).mul(strike));
                  F64 cii =
                      let("cii", ifThenElse(i.eq(n.sub(1)), () -> f64(1.0).add(res), () -> res));
                  F64 v0End = bigV(a, b, rho, nu, sigma, act365(ends.get(i), day0)).v();
                  BigV vt = bigV(a, b, rho, nu, sigma, act365(ends.get(i), maturity));
                  F64 expoAici = let("expoAici", f64(0.5).mul(vt.v().sub(v0End).add(v0Mat)));
                  F64 factAici = let("factAici", cii.mul(zc(ends.get(i))).div(zcMat));
                  return array(
                      factAici,
                      vt.bb()
                          .mul(
                              mux.mul(t4)
                                  .sub(
                                      muy.sub(
                                          f64(0.5)
                                              .mul(rhoxyc)
                                              .mul(sigmay)
                                              .mul(sigmay)
                                              .mul(vt.bb()))))
                          .add(expoAici),
                      vt.ba(),
                      vt.bb(),
                      factAici.mul(expoAici.exp()),
                      factAici.log().add(expoAici),
                      vt.ba().add(vt.bb().mul(t4)).neg());
                }));
    Arr<Arr<F64>> columns = let("columns", transpose(terms));
    Arr<F64> ci = let("ci", columns.get(0));
    Arr<F64> t1cs = let("t1cs", columns.get(1));
    Linearisation l =
        new Linearisation(
            n,
            b,
            sigmax,
            sigmay,
            rhoxy,
            rhoxyc,
            rhoxycs,
            mux,
            muy,
            let("bai", columns.get(2)),
            let("bbi", columns.get(3)),
            let("aici", columns.get(4)),
            let("logAici", columns.get(5)));
    Arr<F64> scale = let("scale", columns.get(6));
    F64 eps = let("eps", f64(0.5).mul(sigmax));
    F64 f = let("f", exactYhat(l, mux));
    F64 g = let("g", exactYhat(l, mux.add(eps)));
    F64 h = let("h", exactYhat(l, mux.sub(eps)));
    F64 df = let("df", f64(0.5).mul(g.sub(h)).div(eps));
    F64 sqrt2sigmax = let("sqrt2sigmax", f64(2.0).sqrt().mul(sigmax));
    F64 t2 = let("t2", rhoxy.div(sigmax.mul(rhoxycs)));
    F64 accum =
        loop(
            f64(0.0),
            hermiteX.size(),
            (acc, j) -> {
              F64 xQuad = let("xQuad", hermiteX.get(j));
              F64 x = let("x", sqrt2sigmax.mul(xQuad).add(mux));
              F64 yhatX = let("yhatX", f.add(df.mul(x.sub(mux))));
              F64 h1 = let("h1", yhatX.sub(muy).div(sigmayRhoxycs).sub(t2.mul(x.sub(mux))));
              F64 accum1 =
                  loop(
                      f64(0.0),
                      n,
                      (acc1, i) -> {
                        F64 h2 = let("h2", h1.add(l.bbi().get(i).mul(sigmayRhoxycs)));
                        return acc1.add(
                            ci.get(i)
                                .mul(
                                    normalCdfTimesExp(
                                        h2.neg(), t1cs.get(i).add(scale.get(i).mul(x)))));
                      });
              F64 tmp = let("tmp", f64(2.0).sqrt().mul(xQuad));
              return acc.add(
                  hermiteW
                      .get(j)
                      .mul(f64(-0.5).mul(tmp).mul(tmp).exp())
                      .mul(normalCdf(h1.neg()).sub(accum1)));
            });
    return zcMat.mul(accum.div(f64(PI).sqrt()));
  }

  // ---------------------------------------------------------------- fitness

  /** The Cauchy log-likelihood of a price against the reference price. */
  private static F64 logLikelihood(F64 reference, F64 price) {
    F64 gamma = let("gamma", reference.abs().div(50.0).mul(5.0).add(0.01));
    F64 x = let("x", price.sub(reference).div(gamma));
    return f64(1.0).div(f64(PI).mul(gamma).mul(f64(1.0).add(x.mul(x)))).add(1.0e-20).log();
  }

  /** The G2++ price of every swaption under genome {@code g}. */
  private static Arr<F64> g2ppPrices(FnN<F64> price, Arr<F64> g, Market m) {
    return map(
        iota(m.quotes().size()),
        q ->
            price.call(
                g.get(0),
                g.get(1),
                g.get(2),
                g.get(3),
                g.get(4),
                m.hermiteX(),
                m.hermiteW(),
                m.quotes().get(q),
                m.swaptions().strikes().get(q),
                m.swaptions().begins().get(q),
                m.swaptions().ends().get(q)));
  }

  private static F64 fitness(FnN<F64> price, Params p) {
    Market m =
        new Market(
            p.get(1, REALS),
            p.get(2, REALS),
            p.get(3, GRID),
            new Swaptions(p.get(6, GRID), p.get(7, GRID), p.get(4, REALS), p.get(5, REALS)));
    Arr<F64> prices = let("prices", g2ppPrices(price, p.get(0, REALS), m));
    return loop(
        f64(0.0),
        m.quotes().size(),
        (sum, q) -> sum.add(logLikelihood(m.swaptions().blacks().get(q), prices.get(q))));
  }

  private static F64 fitnessOf(FnN<F64> fitness, Arr<F64> g, Market m) {
    Swaptions s = m.swaptions();
    return fitness.call(
        g, m.hermiteX(), m.hermiteW(), m.quotes(), s.strikes(), s.blacks(), s.begins(), s.ends());
  }

  // ---------------------------------------------------------------- the genetic algorithm

  /**
   * The n-th 1-D Sobol number of FinPar's generator: Gray code, direction vectors, scaled to (0,
   * 1).
   */
  private static F64 sobolDraw(Arr<I32> dirVct, I32 n) {
    I32 gray = let("gray", n.shiftRight(1).xor(n));
    I32 bits =
        loop(
            i32(0),
            dirVct.size(),
            (acc, i) ->
                ifThenElse(
                    gray.shiftRight(i).bitAnd(1).eq(1), () -> acc.xor(dirVct.get(i)), () -> acc));
    return bits.toF64().div(i32(1).shiftLeft(dirVct.size()).toF64().add(1.0));
  }

  private static F64 constrain(I32 dim, F64 x) {
    return genomeMin(dim).max(genomeMax(dim).min(x));
  }

  /** One dimension's uniform mutation around gene: {new value, backward/forward range ratio}. */
  private static Tup2<F64, F64> mutateDim(I32 dim, F64 gene, F64 prop, F64 ratio, F64 r01) {
    F64 amplitude = let("amplitude", genomeMax(dim).sub(genomeMin(dim)).mul(ratio).abs());
    F64 semi = let("semi", amplitude.div(2.0));
    F64 forward =
        let("forward", genomeMax(dim).min(gene.add(semi)).sub(genomeMin(dim).max(gene.sub(semi))));
    F64 backward =
        let("backward", genomeMax(dim).min(prop.add(semi)).sub(genomeMin(dim).max(prop.sub(semi))));
    F64 bfFact =
        let("bfFact", ifThenElse(semi.gt(0.0), () -> backward.div(forward), () -> f64(1.0)));
    return tuple(constrain(dim, gene.add(amplitude.mul(r01).sub(semi))), bfFact);
  }

  /**
   * The proposal of all dimensions ({@code oneDim} < 0) or only dimension {@code oneDim} from
   * genome {@code orig} and the proposal slot {@code prop}, drawing sobol(first), ...,
   * sobol(first+4).
   */
  private static Arr<F64> mutate(
      Arr<I32> dirVct, I32 first, I32 oneDim, Arr<F64> orig, Arr<F64> prop) {
    Arr<Tup2<F64, F64>> moved =
        let(
            "moved",
            map(
                iota(i32(5)),
                dim -> {
                  F64 ratio =
                      let(
                          "ratio",
                          ifThenElse(
                              oneDim.lt(0).or(oneDim.eq(dim)),
                              () -> f64(AMPLITUDE_RATIO),
                              () -> f64(0.0)));
                  return mutateDim(
                      dim, orig.get(dim), prop.get(dim), ratio, sobolDraw(dirVct, first.add(dim)));
                }));
    Tup2<Arr<F64>, Arr<F64>> split = let("split", unzip(moved));
    Arr<F64> genes = split._1();
    Arr<F64> ratios = split._2();
    F64 fbRat = loop(f64(1.0), i32(5), (acc, dim) -> acc.mul(ratios.get(dim)));
    return array(
        genes.get(0),
        genes.get(1),
        genes.get(2),
        genes.get(3),
        genes.get(4),
        prop.get(LOG_LIK),
        fbRat);
  }

  /**
   * The DE-MCMC proposal for genome i, drawing sobol(first), ..., sobol(first+7): k, l, gamma1,
   * then one per dimension.
   */
  private static Arr<F64> crossover(
      Arr<I32> dirVct, I32 first, I32 i, Arr<Arr<F64>> genomes, Arr<F64> prop) {
    I32 pop = let("pop", genomes.size());
    I32 k0 = let("k0", sobolDraw(dirVct, first).mul(pop.sub(1).toF64()).toI32());
    I32 k = let("k", ifThenElse(k0.eq(i), () -> pop.sub(1), () -> k0));
    I32 bound = let("bound", ifThenElse(k0.eq(i), () -> pop.sub(2), () -> pop.sub(1)));
    I32 l0 = let("l0", sobolDraw(dirVct, first.add(1)).mul(bound.toF64()).toI32());
    I32 l = let("l", ifThenElse(l0.eq(i).or(l0.eq(k)), () -> bound, () -> l0));
    F64 gamma1 =
        let(
            "gamma1",
            f64(2.38).div(f64(2.0).mul(5.0).sqrt()).sub(0.5).add(sobolDraw(dirVct, first.add(2))));
    Arr<F64> genes =
        let(
            "genes",
            map(
                iota(i32(5)),
                dim -> {
                  F64 amplitude =
                      let(
                          "amplitude",
                          genomeMax(dim)
                              .sub(genomeMin(dim))
                              .mul(f64(0.1).mul(AMPLITUDE_RATIO))
                              .abs());
                  F64 perturb =
                      let(
                          "perturb",
                          amplitude
                              .mul(sobolDraw(dirVct, first.add(3).add(dim)))
                              .sub(amplitude.div(2.0)));
                  return constrain(
                      dim,
                      genomes
                          .get(i)
                          .get(dim)
                          .add(perturb)
                          .add(gamma1.mul(genomes.get(k).get(dim).sub(genomes.get(l).get(dim)))));
                }));
    return array(
        genes.get(0),
        genes.get(1),
        genes.get(2),
        genes.get(3),
        genes.get(4),
        prop.get(LOG_LIK),
        f64(1.0));
  }

  private static Arr<F64> withLogLik(Arr<F64> g, F64 logLik) {
    return array(g.get(0), g.get(1), g.get(2), g.get(3), g.get(4), logLik, g.get(FB_RAT));
  }

  /** The index of the first genome of highest log-likelihood. */
  private static I32 best(Arr<Arr<F64>> genomes) {
    return loop(
            tuple(i32(0), f64(-INFINITY)),
            genomes.size(),
            (acc, i) -> {
              F64 lik = let("lik", genomes.get(i).get(LOG_LIK));
              return ifThenElse(
                  lik.gt(acc._2()), () -> tuple(i, lik), () -> tuple(acc._1(), acc._2()));
            })
        ._1();
  }

  /**
   * The entry: FinPar's input.data values in file order; output.data's values: the winning genome's
   * a, b, sigma, nu, rho and log-likelihood, and per swaption [G2++ price * 1e4, Black price * 1e4,
   * 100 * |G2++ - Black| / Black].
   */
  private static TupN main(FnN<F64> price, FnN<F64> fitness, Params in) {
    I32 popSize = in.get("popSize", I32.TYPE);
    I32 mcmcLoops = in.get("mcmcLoops", I32.TYPE);
    Arr<Arr<F64>> quotes = in.get("quotes", GRID);
    Arr<I32> dirVct = in.get("dirVct", Arr.of(I32.TYPE));
    Market m =
        new Market(in.get("hermiteX", REALS), in.get("hermiteW", REALS), quotes, swaptions(quotes));
    Arr<Arr<F64>> initial =
        let(
            "initial",
            map(
                iota(popSize),
                i -> {
                  Arr<F64> genes =
                      let(
                          "genes",
                          map(
                              iota(i32(5)),
                              dim ->
                                  sobolDraw(dirVct, i32(1).add(i32(5).mul(i)).add(dim))
                                      .mul(genomeMax(dim).sub(genomeMin(dim)))
                                      .add(genomeMin(dim))));
                  return array(
                      genes.get(0),
                      genes.get(1),
                      genes.get(2),
                      genes.get(3),
                      genes.get(4),
                      f64(0.0),
                      f64(0.0));
                }));
    Arr<Arr<F64>> evaluated =
        let("evaluated", map(initial, g -> withLogLik(g, fitnessOf(fitness, g, m))));
    Tup3<Arr<Arr<F64>>, Arr<Arr<F64>>, I32> population =
        loop(
            tuple(evaluated, initial, i32(1).add(i32(5).mul(popSize))),
            mcmcLoops,
            (state, iteration) -> {
              Arr<Arr<F64>> genomes = state._1();
              Arr<Arr<F64>> proposals = state._2();
              I32 next = state._3();
              F64 move = let("move", sobolDraw(dirVct, next));
              Tup2<I32, I32> kind =
                  let(
                      "kind",
                      ifThenElse(
                          move.le(0.2),
                          () -> tuple(i32(-1), next.add(1)),
                          () ->
                              ifThenElse(
                                  move.le(0.5),
                                  () ->
                                      tuple(
                                          sobolDraw(dirVct, next.add(1)).mul(5.0).toI32(),
                                          next.add(2)),
                                  () -> tuple(i32(0), next.add(1)))));
              I32 oneDim = kind._1();
              I32 first = kind._2();
              I32 drawsPerGenome =
                  let("drawsPerGenome", ifThenElse(move.le(0.5), () -> i32(5), () -> i32(8)));
              Arr<Arr<F64>> moved =
                  let(
                      "moved",
                      map(
                          iota(popSize),
                          i ->
                              ifThenElse(
                                  move.le(0.5),
                                  () ->
                                      mutate(
                                          dirVct,
                                          first.add(drawsPerGenome.mul(i)),
                                          oneDim,
                                          genomes.get(i),
                                          proposals.get(i)),
                                  () ->
                                      crossover(
                                          dirVct,
                                          first.add(drawsPerGenome.mul(i)),
                                          i,
                                          genomes,
                                          proposals.get(i)))));
              Arr<Arr<F64>> scored =
                  let("scored", map(moved, g -> withLogLik(g, fitnessOf(fitness, g, m))));
              I32 acceptFirst = let("acceptFirst", first.add(drawsPerGenome.mul(popSize)));
              Arr<Arr<F64>> kept =
                  let(
                      "kept",
                      map(
                          iota(popSize),
                          i -> {
                            F64 acceptance =
                                let(
                                    "acceptance",
                                    f64(1.0)
                                        .min(
                                            scored
                                                .get(i)
                                                .get(LOG_LIK)
                                                .sub(genomes.get(i).get(LOG_LIK))
                                                .exp()
                                                .mul(scored.get(i).get(FB_RAT))));
                            return ifThenElse(
                                sobolDraw(dirVct, acceptFirst.add(i)).lt(acceptance),
                                () -> scored.get(i),
                                () -> genomes.get(i));
                          }));
              return tuple(kept, scored, acceptFirst.add(popSize));
            });
    Arr<Arr<F64>> genomes = population._1();
    Arr<F64> winner = let("winner", genomes.get(best(genomes)));
    Arr<F64> prices = let("prices", g2ppPrices(price, winner, m));
    Arr<F64> blacks = m.swaptions().blacks();
    Arr<Arr<F64>> summary =
        let(
            "summary",
            map(
                iota(quotes.size()),
                q ->
                    array(
                        f64(10000.0).mul(prices.get(q)),
                        f64(10000.0).mul(blacks.get(q)),
                        f64(100.0)
                            .mul(prices.get(q).sub(blacks.get(q)).div(blacks.get(q)).abs()))));
    return tuple(
        winner.get(0),
        winner.get(1),
        winner.get(4),
        winner.get(3),
        winner.get(2),
        winner.get(LOG_LIK),
        summary);
  }
}
