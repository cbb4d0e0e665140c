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
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.scan;
import static dev.l0.dsl.L0.tuple;
import static dev.l0.dsl.L0.zip;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.Params;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.ValType;
import dev.l0.ir.Program;
import java.util.List;

/**
 * R0, FinPar's OptionPricing, in the Java DSL: Monte-Carlo pricing of one contract under M market
 * models. Per path: Sobol numbers (by index before a chunk's first path, by the Gray-code
 * recurrence for its paths), their inverse normal (Wichura's AS241), a Brownian bridge, correlated
 * Black-Scholes paths and the contract's payoff; the price per model is the mean payoff. Contracts:
 * 1 European call, 2 discrete barrier on 3 indices, 3 daily-monitored barrier. The helpers stage
 * their code where they are called, so the program has the one function {@code main}; it computes
 * what {@code programs/finpar/OptionPricing.l0} computes, operation for operation.
 */
public final class OptionPricing {
  private static final ValType<Arr<I32>> INTS = Arr.of(I32.TYPE);
  private static final ValType<Arr<Arr<I32>>> INT_MATRIX = Arr.of(INTS);
  private static final ValType<Arr<F64>> REALS = Arr.of(F64.TYPE);
  private static final ValType<Arr<Arr<F64>>> MATRIX = Arr.of(REALS);
  private static final ValType<Arr<Arr<Arr<F64>>>> MATRICES = Arr.of(MATRIX);

  /**
   * The parameters of {@code main}, in input.data's order, named as in {@code OptionPricing.l0}.
   */
  private static final List<ValType<?>> INPUT =
      List.of(
          I32.TYPE.named("contract"),
          I32.TYPE.named("numMcIt"),
          I32.TYPE.named("numDates"),
          I32.TYPE.named("numUnd"),
          I32.TYPE.named("numModels"),
          I32.TYPE.named("sobolBits"),
          INT_MATRIX.named("dirVs"),
          MATRICES.named("mdC"),
          MATRICES.named("mdVols"),
          MATRICES.named("mdDrifts"),
          MATRIX.named("mdStarts"),
          MATRIX.named("mdDetvals"),
          MATRIX.named("mdDiscts"),
          INT_MATRIX.named("bbInds"),
          MATRIX.named("bbData"));

  // AS241 (PPND16) coefficients, numerator then denominator, constant term first
  private static final double[] CENTRAL_A = {
    3.387132872796366608,
    133.14166789178437745,
    1971.5909503065514427,
    13731.693765509461125,
    45921.953931549871457,
    67265.770927008700853,
    33430.575583588128105,
    2509.0809287301226727
  };
  private static final double[] CENTRAL_B = {
    1.0,
    42.313330701600911252,
    687.1870074920579083,
    5394.1960214247511077,
    21213.794301586595867,
    39307.89580009271061,
    28729.085735721942674,
    5226.495278852854561
  };
  private static final double[] INTERMEDIATE_A = {
    1.42343711074968357734,
    4.6303378461565452959,
    5.7694972214606914055,
    3.64784832476320460504,
    1.27045825245236838258,
    0.24178072517745061177,
    0.0227238449892691845833,
    7.7454501427834140764e-4
  };
  private static final double[] INTERMEDIATE_B = {
    1.0,
    2.05319162663775882187,
    1.6763848301838038494,
    0.68976733498510000455,
    0.14810397642748007459,
    0.0151986665636164571966,
    5.475938084995344946e-4,
    1.05075007164441684324e-9
  };
  private static final double[] TAIL_A = {
    6.6579046435011037772,
    5.4637849111641143699,
    1.7848265399172913358,
    0.29656057182850489123,
    0.026532189526576123093,
    0.0012426609473880784386,
    2.71155556874348757815e-5,
    2.01033439929228813265e-7
  };
  private static final double[] TAIL_B = {
    1.0,
    0.59983220655588793769,
    0.13692988092273580531,
    0.0148753612908506148525,
    7.868691311456132591e-4,
    1.8463183175100546818e-5,
    1.4215117583164458887e-7,
    2.04426310338993978564e-15
  };

  /** The market models, one row (or matrix) per model. */
  private record Models(
      Arr<Arr<Arr<F64>>> correlation,
      Arr<Arr<Arr<F64>>> vols,
      Arr<Arr<Arr<F64>>> drifts,
      Arr<Arr<F64>> starts,
      Arr<Arr<F64>> detvals,
      Arr<Arr<F64>> discounts) {}

  /**
   * The Brownian bridge's schedule: the date filled at each step and its left and right neighbours
   * (1-based), and their weights.
   */
  private record Bridge(Arr<Arr<I32>> indices, Arr<Arr<F64>> weights) {}

  private OptionPricing() {}

  /**
   * The program: {@code main} takes OptionPricing's input.data values and returns the price per
   * model.
   */
  public static Program program() {
    return L0.program(prog -> prog.fun("main", INPUT, OptionPricing::main));
  }

  private static Arr<F64> main(Params in) {
    I32 contract = in.get("contract", I32.TYPE);
    I32 paths = in.get("numMcIt", I32.TYPE);
    I32 dates = in.get("numDates", I32.TYPE);
    I32 underlyings = in.get("numUnd", I32.TYPE);
    I32 models = in.get("numModels", I32.TYPE);
    I32 sobolBits = in.get("sobolBits", I32.TYPE);
    Arr<Arr<I32>> directions = in.get("dirVs", INT_MATRIX);
    Models market =
        new Models(
            in.get("mdC", MATRICES),
            in.get("mdVols", MATRICES),
            in.get("mdDrifts", MATRICES),
            in.get("mdStarts", MATRIX),
            in.get("mdDetvals", MATRIX),
            in.get("mdDiscts", MATRIX));
    Bridge bridge = new Bridge(in.get("bbInds", INT_MATRIX), in.get("bbData", MATRIX));

    F64 sobolFactor = let("sobolFactor", f64(1.0).div(i32(1).shiftLeft(sobolBits).toF64()));
    I32 pathsPerChunk = let("pathsPerChunk", i32(32));
    Arr<Arr<F64>> chunkSums =
        let(
            "chunkSums",
            map(
                iota(paths.add(pathsPerChunk).sub(1).div(pathsPerChunk)),
                chunk ->
                    chunkPayoffSums(
                        contract,
                        paths,
                        dates,
                        underlyings,
                        models,
                        sobolFactor,
                        directions,
                        market,
                        bridge,
                        pathsPerChunk,
                        chunk)));
    Arr<F64> sums =
        let("sums", reduce(chunkSums, replicate(models, f64(0.0)), OptionPricing::plus));
    return map(sums, sum -> sum.div(paths.toF64()));
  }

  /**
   * The sum of the payoffs per model over chunk {@code chunk} of the paths cut into chunks of
   * {@code pathsPerChunk} consecutive paths, in path order, stage by stage over the chunk's paths:
   * their Sobol integers, their draws, their Brownian bridges, then each path's payoffs, then the
   * sums.
   */
  private static Arr<F64> chunkPayoffSums(
      I32 contract,
      I32 paths,
      I32 dates,
      I32 underlyings,
      I32 models,
      F64 sobolFactor,
      Arr<Arr<I32>> directions,
      Models market,
      Bridge bridge,
      I32 pathsPerChunk,
      I32 chunk) {
    I32 first = let("first", chunk.mul(pathsPerChunk));
    I32 n = let("n", pathsPerChunk.min(paths.sub(first)));
    Arr<Arr<I32>> sobol = let("sobol", sobolRows(directions, first, n));
    Arr<Arr<Arr<F64>>> draws =
        let(
            "draws",
            map(iota(n), p -> pathDraws(dates, underlyings, sobolFactor, sobol.get(p.add(1)))));
    Arr<Arr<Arr<F64>>> bridged =
        let("bridged", map(iota(n), p -> brownianBridge(bridge, draws.get(p))));
    Arr<Arr<F64>> payoffs =
        let("payoffs", map(iota(n), p -> pathPayoffs(contract, market, bridged.get(p))));
    return loop(replicate(models, f64(0.0)), n, (sums, p) -> plus(sums, payoffs.get(p)));
  }

  /**
   * The Sobol integers (date-major) of the points of indices {@code first} to {@code first + n},
   * one row each: the first's by index, every later one's from the one before by the Gray-code
   * recurrence.
   */
  private static Arr<Arr<I32>> sobolRows(Arr<Arr<I32>> directions, I32 first, I32 n) {
    Arr<Arr<I32>> rows =
        let("rows", replicate(n.add(1), map(directions, dirv -> sobolInt(dirv, first))));
    return loop(
        rows, n, (r, p) -> r.with(p.add(1), nextSobolInts(directions, r.get(p), first.add(p))));
  }

  private static Arr<F64> plus(Arr<F64> a, Arr<F64> b) {
    return map(zip(a, b), (x, y) -> x.add(y));
  }

  private static Arr<F64> times(Arr<F64> a, Arr<F64> b) {
    return map(zip(a, b), (x, y) -> x.mul(y));
  }

  /** The normal draws (date-major) of the path whose Sobol integers are {@code sobol}. */
  private static Arr<Arr<F64>> pathDraws(
      I32 dates, I32 underlyings, F64 sobolFactor, Arr<I32> sobol) {
    return map(
        iota(dates),
        t ->
            map(
                iota(underlyings),
                m -> inverseNormal(sobol.get(t.mul(underlyings).add(m)).toF64().mul(sobolFactor))));
  }

  /** The payoffs under every model of the path whose Brownian increments are {@code w}. */
  private static Arr<F64> pathPayoffs(I32 contract, Models market, Arr<Arr<F64>> w) {
    return map(
        iota(market.starts().size()),
        model -> {
          Arr<Arr<F64>> prices =
              let(
                  "prices",
                  blackScholes(
                      market.correlation().get(model),
                      market.vols().get(model),
                      market.drifts().get(model),
                      market.starts().get(model),
                      w));
          return payoff(
              contract, market.discounts().get(model), market.detvals().get(model), prices);
        });
  }

  // ---------------------------------------------------------------- Sobol numbers by index

  private static I32 grayCode(I32 n) {
    return n.xor(n.shiftRight(1));
  }

  /**
   * The Sobol integer of index {@code n} in the dimension whose direction numbers are {@code
   * directions}.
   */
  private static I32 sobolInt(Arr<I32> directions, I32 n) {
    I32 gray = let("g", grayCode(n));
    return loop(
        i32(0),
        directions.size(),
        (x, k) ->
            ifThenElse(
                gray.shiftRight(k).bitAnd(1).eq(1), () -> x.xor(directions.get(k)), () -> x));
  }

  /**
   * The lowest bit of {@code n} that is 0: the Gray codes of {@code n} and {@code n + 1} differ in
   * it.
   */
  private static I32 lowestZeroBit(I32 n) {
    return loop(
        i32(0),
        i32(31),
        (k, i) -> ifThenElse(n.shiftRight(k).bitAnd(1).eq(1), () -> k.add(1), () -> k));
  }

  /** The Sobol integers of index {@code n + 1} from {@code x}, those of index {@code n}. */
  private static Arr<I32> nextSobolInts(Arr<Arr<I32>> directions, Arr<I32> x, I32 n) {
    I32 bit = let("bit", lowestZeroBit(n));
    return map(iota(directions.size()), d -> x.get(d).xor(directions.get(d).get(bit)));
  }

  // ---------------------------------------------------------------- inverse normal (AS241, PPND16)

  /**
   * The polynomial with coefficients {@code c} (constant term first) at {@code x}, by Horner's
   * rule.
   */
  private static F64 horner(F64 x, double[] c) {
    F64 value = x.mul(c[c.length - 1]).add(c[c.length - 2]);
    for (int k = c.length - 3; k >= 0; k--) {
      value = x.mul(value).add(c[k]);
    }
    return value;
  }

  private static F64 rationalFunction(F64 x, double[] numerator, double[] denominator) {
    F64 at = let("x", x);
    return horner(at, numerator).div(horner(at, denominator));
  }

  /** The standard normal quantile of {@code u} in (0, 1). */
  private static F64 inverseNormal(F64 u) {
    F64 q = let("q", u.sub(0.5));
    return ifThenElse(
        q.abs().le(0.425),
        () -> q.mul(rationalFunction(f64(0.180625).sub(q.mul(q)), CENTRAL_A, CENTRAL_B)),
        () -> {
          F64 r =
              let(
                  "r",
                  ifThenElse(q.lt(0.0), () -> f64(0.5).add(q), () -> f64(0.5).sub(q))
                      .log()
                      .neg()
                      .sqrt());
          F64 x =
              let(
                  "x",
                  ifThenElse(
                      r.le(5.0),
                      () -> rationalFunction(r.sub(1.6), INTERMEDIATE_A, INTERMEDIATE_B),
                      () -> rationalFunction(r.sub(5.0), TAIL_A, TAIL_B)));
          return ifThenElse(q.lt(0.0), () -> x.neg(), () -> x);
        });
  }

  // ---------------------------------------------------------------- Brownian bridge

  /**
   * The normal draws {@code z} [dates][underlyings] as Brownian increments: the bridge fills the
   * dates in its order, each from its neighbours, then takes differences of consecutive dates.
   */
  private static Arr<Arr<F64>> brownianBridge(Bridge bridge, Arr<Arr<F64>> z) {
    Arr<Arr<I32>> ind = bridge.indices();
    Arr<Arr<F64>> weight = bridge.weights();
    I32 dates = let("numDates", z.size(0));
    I32 underlyings = let("numUnd", z.size(1));
    Arr<Arr<F64>> zero = let("w", replicate(dates, replicate(underlyings, f64(0.0))));
    Arr<Arr<F64>> first =
        zero.with(ind.get(0).get(0).sub(1), map(z.get(0), zm -> weight.get(0).get(0).mul(zm)));
    Arr<Arr<F64>> filled =
        loop(
            first,
            dates.sub(1),
            (w, s) -> {
              I32 t = let("t", s.add(1));
              I32 l = let("l", ind.get(0).get(t).sub(1));
              I32 j = let("j", ind.get(1).get(t).sub(1));
              I32 k = let("k", ind.get(2).get(t).sub(1));
              Arr<F64> row =
                  let(
                      "row",
                      map(
                          iota(underlyings),
                          m -> {
                            F64 partial =
                                let(
                                    "partial",
                                    weight
                                        .get(2)
                                        .get(t)
                                        .mul(w.get(k).get(m))
                                        .add(weight.get(0).get(t).mul(z.get(t).get(m))));
                            return ifThenElse(
                                j.eq(-1),
                                () -> partial,
                                () -> partial.add(weight.get(1).get(t).mul(w.get(j).get(m))));
                          }));
              return w.with(l, row);
            });
    return loop(
        filled,
        dates.sub(1),
        (w, s) -> {
          I32 t = let("t", dates.sub(1).sub(s));
          Arr<F64> row = let("row", map(zip(w.get(t), w.get(t.sub(1))), (a, b) -> a.sub(b)));
          return w.with(t, row);
        });
  }

  // ---------------------------------------------------------------- Black-Scholes paths

  /**
   * The prices [dates][underlyings] along one path under one model: correlated increments (the
   * lower-triangular {@code c}), exp(vol * noise + drift) per date, a product scan over dates times
   * the spot prices. The dates are the model's ({@code vols} and {@code drifts} are
   * [dates][underlyings], as {@code w} is), as in the text version.
   */
  private static Arr<Arr<F64>> blackScholes(
      Arr<Arr<F64>> c, Arr<Arr<F64>> vols, Arr<Arr<F64>> drifts, Arr<F64> starts, Arr<Arr<F64>> w) {
    I32 underlyings = let("numUnd", starts.size());
    Arr<Arr<F64>> factors =
        let(
            "factors",
            map(
                iota(vols.size()),
                t ->
                    map(
                        iota(underlyings),
                        j -> {
                          F64 noise =
                              let(
                                  "noise",
                                  reduce(
                                      map(
                                          iota(underlyings),
                                          l ->
                                              ifThenElse(
                                                  l.le(j),
                                                  () -> c.get(j).get(l).mul(w.get(t).get(l)),
                                                  () -> f64(0.0))),
                                      f64(0.0),
                                      (a, b) -> a.add(b)));
                          return vols.get(t).get(j).mul(noise).add(drifts.get(t).get(j)).exp();
                        })));
    Arr<Arr<F64>> growth =
        let("growth", scan(factors, replicate(underlyings, f64(1.0)), OptionPricing::times));
    return map(growth, g -> times(starts, g));
  }

  // ---------------------------------------------------------------- payoffs

  private static F64 payoff(I32 contract, Arr<F64> discounts, Arr<F64> detvals, Arr<Arr<F64>> s) {
    return ifThenElse(
        contract.eq(1),
        () -> europeanCall(discounts, detvals, s),
        () ->
            ifThenElse(
                contract.eq(2),
                () -> discreteBarrier(discounts, s),
                () -> dailyBarrier(discounts, s)));
  }

  /** The worst of the three indices relative to its barrier level. */
  private static F64 minRatio(Arr<F64> s) {
    return s.get(0).div(3758.05).min(s.get(1).div(11840.0).min(s.get(2).div(1200.0)));
  }

  private static F64 europeanCall(Arr<F64> discounts, Arr<F64> detvals, Arr<Arr<F64>> s) {
    return f64(0.0).max(s.get(0).get(0).sub(4000.0).mul(detvals.get(0))).mul(discounts.get(0));
  }

  /**
   * The first of dates 0..3 where every index is at or above its barrier pays that date's coupon;
   * else date 4 pays by the worst index.
   */
  private static F64 discreteBarrier(Arr<F64> discounts, Arr<Arr<F64>> s) {
    Arr<F64> coupons = let("coupons", array(f64(1150.0), f64(1300.0), f64(1450.0), f64(1600.0)));
    Tup2<Bool, F64> early =
        loop(
            tuple(L0.bool(false), f64(0.0)),
            i32(4),
            (state, t) -> {
              Bool paid = state._1();
              return ifThenElse(
                  paid.not().and(f64(1.0).le(minRatio(s.get(t)))),
                  () -> tuple(L0.bool(true), coupons.get(t).mul(discounts.get(t))),
                  () -> state);
            });
    return ifThenElse(
        early._1(),
        () -> early._2(),
        () -> {
          F64 x = let("x", minRatio(s.get(4)));
          F64 value =
              let(
                  "value",
                  ifThenElse(
                      f64(1.0).le(x),
                      () -> f64(1750.0),
                      () ->
                          ifThenElse(
                              f64(0.75).lt(x), () -> f64(1000.0), () -> f64(1000.0).mul(x))));
          return value.mul(discounts.get(4));
        });
  }

  /**
   * 100 at once; at maturity 1000, or 1000 times the worst index if a barrier was ever touched and
   * some index ends below its start.
   */
  private static F64 dailyBarrier(Arr<F64> discounts, Arr<Arr<F64>> s) {
    I32 last = let("last", s.size().sub(1));
    Bool touched =
        let(
            "touched",
            reduce(
                map(
                    s,
                    st ->
                        st.get(0)
                            .le(2630.6349999999998)
                            .or(st.get(1).le(8288.0))
                            .or(st.get(2).le(840.0))),
                L0.bool(false),
                (a, b) -> a.or(b)));
    Arr<F64> end = s.get(last);
    Bool down =
        let("down", end.get(0).lt(3758.05).or(end.get(1).lt(11840.0)).or(end.get(2).lt(1200.0)));
    F64 amount =
        let(
            "amount",
            ifThenElse(touched.and(down), () -> f64(1000.0).mul(minRatio(end)), () -> f64(1000.0)));
    return f64(100.0).mul(discounts.get(0)).add(amount.mul(discounts.get(1)));
  }
}
