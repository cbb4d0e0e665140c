package dev.l0.programs.finpar;

import static dev.l0.dsl.L0.array;
import static dev.l0.dsl.L0.copy;
import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.iota;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.loop;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.replicate;
import static dev.l0.dsl.L0.tuple;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.dsl.L0;
import dev.l0.dsl.Params;
import dev.l0.dsl.Tup2;
import dev.l0.dsl.ValType;
import dev.l0.ir.Program;
import java.util.List;
import java.util.function.Function;

/**
 * R1, FinPar's LocVolCalib, in the Java DSL: for each strike, a European call's price under a
 * local-volatility model by a Crank-Nicolson alternating-direction scheme on an X (spot) by Y
 * (log-volatility) grid, stepped backwards in time from the payoff. Each step has an explicit part
 * (3-point stencils in X and Y) and two implicit parts, a tridiagonal solve (Thomas algorithm,
 * sequential per row) per grid row along X, then along Y. The helpers stage their code where they
 * are called, so the program has the one function {@code main}; it computes what {@code
 * programs/finpar/LocVolCalib.l0} computes, operation for operation.
 */
public final class LocVolCalib {
  private static final ValType<Arr<F64>> REALS = Arr.of(F64.TYPE);

  /**
   * The parameters of {@code main}, in input.data's order (OUTER, NUM_X, NUM_Y, NUM_T, s0, t,
   * alpha, nu, beta), named as in {@code LocVolCalib.l0}.
   */
  private static final List<ValType<?>> INPUT =
      List.of(
          I32.TYPE.named("outer"),
          I32.TYPE.named("numX"),
          I32.TYPE.named("numY"),
          I32.TYPE.named("numT"),
          F64.TYPE.named("s0"),
          F64.TYPE.named("t"),
          F64.TYPE.named("alpha"),
          F64.TYPE.named("nu"),
          F64.TYPE.named("beta"));

  /** The model and the grid's resolution, shared by every strike. */
  private record Model(I32 numX, I32 numY, I32 numT, F64 s0, F64 t, F64 alpha, F64 nu, F64 beta) {}

  /**
   * The 3-point operators of the grid: first and second derivative weights along X and along Y, one
   * row {lower, centre, upper} per point.
   */
  private record Operators(
      Arr<Arr<F64>> dx, Arr<Arr<F64>> dxx, Arr<Arr<F64>> dy, Arr<Arr<F64>> dyy) {}

  private LocVolCalib() {}

  /**
   * The program: {@code main} takes LocVolCalib's input.data values and returns the price per
   * strike 0.001*o.
   */
  public static Program program() {
    return L0.program(prog -> prog.fun("main", INPUT, LocVolCalib::main));
  }

  private static Arr<F64> main(Params in) {
    I32 outer = in.get("outer", I32.TYPE);
    Model model =
        new Model(
            in.get("numX", I32.TYPE),
            in.get("numY", I32.TYPE),
            in.get("numT", I32.TYPE),
            in.get("s0", F64.TYPE),
            in.get("t", F64.TYPE),
            in.get("alpha", F64.TYPE),
            in.get("nu", F64.TYPE),
            in.get("beta", F64.TYPE));
    return map(iota(outer), o -> value(model, f64(0.001).mul(o.toF64())));
  }

  // ---------------------------------------------------------------- grid and operators

  /** {@code n} points, {@code point(i)} each. */
  private static Arr<F64> grid(I32 n, Function<I32, F64> point) {
    return map(iota(n), point);
  }

  /**
   * The 3-point first-derivative weights on the non-uniform grid {@code xx}; one-sided at the two
   * ends.
   */
  private static Arr<Arr<F64>> firstDerivative(Arr<F64> xx) {
    I32 n = let("n", xx.size());
    return map(
        iota(n),
        i ->
            ifThenElse(
                i.eq(0),
                () -> {
                  F64 du = let("du", xx.get(1).sub(xx.get(0)));
                  return array(f64(0.0), f64(-1.0).div(du), f64(1.0).div(du));
                },
                () ->
                    ifThenElse(
                        i.eq(n.sub(1)),
                        () -> {
                          F64 dl = let("dl", xx.get(n.sub(1)).sub(xx.get(n.sub(2))));
                          return array(f64(-1.0).div(dl), f64(1.0).div(dl), f64(0.0));
                        },
                        () -> {
                          F64 dl = let("dl", xx.get(i).sub(xx.get(i.sub(1))));
                          F64 du = let("du", xx.get(i.add(1)).sub(xx.get(i)));
                          return array(
                              du.neg().div(dl).div(dl.add(du)),
                              du.div(dl).sub(dl.div(du)).div(dl.add(du)),
                              dl.div(du).div(dl.add(du)));
                        })));
  }

  /** The 3-point second-derivative weights on {@code xx}; zero at the two ends. */
  private static Arr<Arr<F64>> secondDerivative(Arr<F64> xx) {
    I32 n = let("n", xx.size());
    return map(
        iota(n),
        i ->
            ifThenElse(
                i.eq(0).or(i.eq(n.sub(1))),
                () -> array(f64(0.0), f64(0.0), f64(0.0)),
                () -> {
                  F64 dl = let("dl", xx.get(i).sub(xx.get(i.sub(1))));
                  F64 du = let("du", xx.get(i.add(1)).sub(xx.get(i)));
                  return array(
                      f64(2.0).div(dl).div(dl.add(du)),
                      f64(-2.0).mul(f64(1.0).div(dl).add(f64(1.0).div(du))).div(dl.add(du)),
                      f64(2.0).div(du).div(dl.add(du)));
                }));
  }

  // ---------------------------------------------------------------- tridiagonal solve

  /**
   * Solves the tridiagonal system with sub-diagonal {@code a}, diagonal {@code b}, super-diagonal
   * {@code c} and right-hand side {@code y} (Thomas algorithm). The forward sweep runs over rows
   * 1..n-2, as FinPar's original code does (its reference outputs come from it).
   */
  private static Arr<F64> tridag(Arr<F64> a, Arr<F64> b, Arr<F64> c, Arr<F64> y) {
    I32 n = let("n", y.size());
    Tup2<Arr<F64>, Arr<F64>> forward =
        loop(
            tuple(copy(b), copy(y)),
            n.sub(2),
            (state, s) -> {
              Arr<F64> bb = state._1();
              Arr<F64> yy = state._2();
              I32 i = let("i", s.add(1));
              F64 beta = let("beta", a.get(i).div(bb.get(i.sub(1))));
              Arr<F64> newBb = bb.with(i, bb.get(i).sub(beta.mul(c.get(i.sub(1)))));
              Arr<F64> newYy = yy.with(i, yy.get(i).sub(beta.mul(yy.get(i.sub(1)))));
              return tuple(newBb, newYy);
            });
    Arr<F64> bb = forward._1();
    Arr<F64> swept = forward._2();
    Arr<F64> last = swept.with(n.sub(1), swept.get(n.sub(1)).div(bb.get(n.sub(1))));
    return loop(
        last,
        n.sub(1),
        (yy, s) -> {
          I32 i = let("i", n.sub(2).sub(s));
          return yy.with(i, yy.get(i).sub(c.get(i).mul(yy.get(i.add(1)))).div(bb.get(i)));
        });
  }

  // ---------------------------------------------------------------- one time step

  /** {@code mu * d[k] + 0.5 * var * dd[k]}: the operator's weight on neighbour {@code k}. */
  private static F64 weight(F64 mu, F64 var, Arr<F64> d, Arr<F64> dd, int k) {
    return mu.mul(d.get(k)).add(f64(0.5).mul(var).mul(dd.get(k)));
  }

  /** One backward step: {@code r} [numX][numY] is the value at time g+1; the result, at g. */
  private static Arr<Arr<F64>> rollback(
      F64 dtInv, Operators op, Arr<Arr<F64>> varX, F64 varY, Arr<Arr<F64>> r) {
    I32 numX = let("numX", r.size(0));
    I32 numY = let("numY", r.size(1));
    F64 muX = let("muX", f64(0.0));
    F64 muY = let("muY", f64(0.0));
    // explicit y: v [numX][numY]
    Arr<Arr<F64>> v =
        let(
            "v",
            map(
                iota(numX),
                i ->
                    map(
                        iota(numY),
                        j -> {
                          Arr<F64> dy = op.dy().get(j);
                          Arr<F64> dyy = op.dyy().get(j);
                          F64 below =
                              let(
                                  "below",
                                  ifThenElse(
                                      i32(0).lt(j),
                                      () ->
                                          r.get(i).get(j.sub(1)).mul(weight(muY, varY, dy, dyy, 0)),
                                      () -> f64(0.0)));
                          F64 here =
                              let(
                                  "here",
                                  below.add(r.get(i).get(j).mul(weight(muY, varY, dy, dyy, 1))));
                          return ifThenElse(
                              j.lt(numY.sub(1)),
                              () ->
                                  here.add(
                                      r.get(i).get(j.add(1)).mul(weight(muY, varY, dy, dyy, 2))),
                              () -> here);
                        })));
    // explicit x plus explicit y: u [numY][numX]
    Arr<Arr<F64>> u =
        let(
            "u",
            map(
                iota(numY),
                j ->
                    map(
                        iota(numX),
                        i -> {
                          F64 vx = let("vx", varX.get(j).get(i));
                          Arr<F64> dx = op.dx().get(i);
                          Arr<F64> dxx = op.dxx().get(i);
                          F64 start = let("start", dtInv.mul(r.get(i).get(j)));
                          F64 left =
                              let(
                                  "left",
                                  ifThenElse(
                                      i32(0).lt(i),
                                      () ->
                                          start.add(
                                              f64(0.5)
                                                  .mul(r.get(i.sub(1)).get(j))
                                                  .mul(weight(muX, vx, dx, dxx, 0))),
                                      () -> start));
                          F64 here =
                              let(
                                  "here",
                                  left.add(
                                      f64(0.5)
                                          .mul(r.get(i).get(j))
                                          .mul(weight(muX, vx, dx, dxx, 1))));
                          F64 right =
                              let(
                                  "right",
                                  ifThenElse(
                                      i.lt(numX.sub(1)),
                                      () ->
                                          here.add(
                                              f64(0.5)
                                                  .mul(r.get(i.add(1)).get(j))
                                                  .mul(weight(muX, vx, dx, dxx, 2))),
                                      () -> here));
                          return right.add(v.get(i).get(j));
                        })));
    // implicit x: one solve per row j of u
    Arr<Arr<F64>> ux =
        let(
            "ux",
            map(
                iota(numY),
                j -> {
                  Arr<F64> a =
                      let(
                          "a",
                          grid(
                              numX,
                              i ->
                                  f64(-0.5)
                                      .mul(
                                          weight(
                                              muX,
                                              varX.get(j).get(i),
                                              op.dx().get(i),
                                              op.dxx().get(i),
                                              0))));
                  Arr<F64> b =
                      let(
                          "b",
                          grid(
                              numX,
                              i ->
                                  dtInv.sub(
                                      f64(0.5)
                                          .mul(
                                              weight(
                                                  muX,
                                                  varX.get(j).get(i),
                                                  op.dx().get(i),
                                                  op.dxx().get(i),
                                                  1)))));
                  Arr<F64> c =
                      let(
                          "c",
                          grid(
                              numX,
                              i ->
                                  f64(-0.5)
                                      .mul(
                                          weight(
                                              muX,
                                              varX.get(j).get(i),
                                              op.dx().get(i),
                                              op.dxx().get(i),
                                              2))));
                  return tridag(a, b, c, u.get(j));
                }));
    // implicit y: one solve per row i, the result [numX][numY]
    return map(
        iota(numX),
        i -> {
          Arr<F64> a =
              let(
                  "a",
                  grid(
                      numY,
                      j -> f64(-0.5).mul(weight(muY, varY, op.dy().get(j), op.dyy().get(j), 0))));
          Arr<F64> b =
              let(
                  "b",
                  grid(
                      numY,
                      j ->
                          dtInv.sub(
                              f64(0.5)
                                  .mul(weight(muY, varY, op.dy().get(j), op.dyy().get(j), 1)))));
          Arr<F64> c =
              let(
                  "c",
                  grid(
                      numY,
                      j -> f64(-0.5).mul(weight(muY, varY, op.dy().get(j), op.dyy().get(j), 2))));
          Arr<F64> y =
              let(
                  "y",
                  grid(numY, j -> dtInv.mul(ux.get(j).get(i)).sub(f64(0.5).mul(v.get(i).get(j)))));
          return tridag(a, b, c, y);
        });
  }

  // ---------------------------------------------------------------- one strike

  /** The price of the call with strike {@code strike}. */
  private static F64 value(Model m, F64 strike) {
    Arr<F64> time =
        let("time", grid(m.numT(), i -> m.t().mul(i.toF64()).div(m.numT().sub(1).toF64())));
    F64 dxStep =
        let("dxStep", f64(20.0).mul(m.alpha()).mul(m.s0()).mul(m.t().sqrt()).div(m.numX().toF64()));
    I32 indX = let("indX", m.s0().div(dxStep).toI32());
    Arr<F64> x =
        let(
            "x",
            grid(m.numX(), i -> i.toF64().mul(dxStep).sub(indX.toF64().mul(dxStep)).add(m.s0())));
    F64 dyStep = let("dyStep", f64(10.0).mul(m.nu()).mul(m.t().sqrt()).div(m.numY().toF64()));
    I32 indY = let("indY", m.numY().div(2));
    F64 logAlpha = let("logAlpha", m.alpha().log());
    Arr<F64> y =
        let(
            "y",
            grid(m.numY(), j -> j.toF64().mul(dyStep).sub(indY.toF64().mul(dyStep)).add(logAlpha)));
    Operators op =
        new Operators(
            let("dx", firstDerivative(x)),
            let("dxx", secondDerivative(x)),
            let("dy", firstDerivative(y)),
            let("dyy", secondDerivative(y)));
    Arr<Arr<F64>> payoff =
        let("payoff", map(x, xi -> replicate(m.numY(), xi.sub(strike).max(f64(0.0)))));
    Arr<Arr<F64>> r =
        loop(
            payoff,
            m.numT().sub(1),
            (rNext, s) -> {
              I32 g = let("g", m.numT().sub(2).sub(s));
              Arr<Arr<F64>> varX =
                  let(
                      "varX",
                      map(
                          y,
                          yj ->
                              map(
                                  x,
                                  xi ->
                                      f64(2.0)
                                          .mul(
                                              m.beta()
                                                  .mul(xi.log())
                                                  .add(yj)
                                                  .sub(
                                                      f64(0.5)
                                                          .mul(m.nu())
                                                          .mul(m.nu())
                                                          .mul(time.get(g))))
                                          .exp())));
              return rollback(
                  f64(1.0).div(time.get(g.add(1)).sub(time.get(g))),
                  op,
                  varX,
                  m.nu().mul(m.nu()),
                  rNext);
            });
    return r.get(indX).get(indY);
  }
}
