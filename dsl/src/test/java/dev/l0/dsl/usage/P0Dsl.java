package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.ifThenElse;
import static dev.l0.dsl.L0.let;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.tuple;

import dev.l0.dsl.Arr;
import dev.l0.dsl.Bool;
import dev.l0.dsl.F64;
import dev.l0.dsl.Fn1;
import dev.l0.dsl.L0;
import dev.l0.dsl.Tup5;
import dev.l0.dsl.Tup6;
import dev.l0.dsl.ValType;
import dev.l0.ir.Program;

/**
 * The thesis's P0 (Black-Scholes, appendix "Artificial Benchmark Programs") written in the DSL,
 * function for function and {@code let} for {@code let} as test resource {@code
 * programs/p0_blackscholes.l0} writes it: an option is {call, price, strike, years, r, v}.
 */
final class P0Dsl {
  /** {call, price, strike, years, r, v}. */
  static final ValType<Tup6<Bool, F64, F64, F64, F64, F64>> OPTION =
      Tup6.of(Bool.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE, F64.TYPE);

  private P0Dsl() {}

  static Program program() {
    return L0.program(
        prog -> {
          Fn1<F64, F64> horner =
              prog.fun(
                  "horner",
                  F64.TYPE,
                  x -> {
                    Tup5<F64, F64, F64, F64, F64> c =
                        let(
                            "c",
                            tuple(
                                f64(0.31938153),
                                f64(-0.356563782),
                                f64(1.781477937),
                                f64(-1.821255978),
                                f64(1.330274429)));
                    return x.mul(
                        c._1()
                            .add(
                                x.mul(
                                    c._2()
                                        .add(
                                            x.mul(c._3().add(x.mul(c._4().add(x.mul(c._5())))))))));
                  });

          Fn1<F64, F64> abs =
              prog.fun("abs", F64.TYPE, x -> ifThenElse(x.lt(0.0), () -> x.neg(), () -> x));

          Fn1<F64, F64> cnd0 =
              prog.fun(
                  "cnd0",
                  F64.TYPE,
                  d -> {
                    F64 k = let("k", f64(1.0).div(f64(1.0).add(f64(0.2316419).mul(abs.call(d)))));
                    F64 p = let("p", horner.call(k));
                    F64 rsqrt2pi = let("rsqrt2pi", f64(0.39894228040143267793994605993438));
                    return rsqrt2pi.mul(f64(-0.5).mul(d).mul(d).exp()).mul(p);
                  });

          Fn1<F64, F64> cnd =
              prog.fun(
                  "cnd",
                  F64.TYPE,
                  d -> {
                    F64 c = let("c", cnd0.call(d));
                    return ifThenElse(f64(0.0).lt(d), () -> f64(1.0).sub(c), () -> c);
                  });

          Fn1<Tup6<Bool, F64, F64, F64, F64, F64>, F64> go =
              prog.fun(
                  "go",
                  OPTION,
                  x -> {
                    Bool call = x._1();
                    F64 price = x._2();
                    F64 strike = x._3();
                    F64 years = x._4();
                    F64 r = x._5();
                    F64 v = x._6();
                    F64 vSqrtT = let("v_sqrtT", v.mul(years.sqrt()));
                    F64 d1 =
                        let(
                            "d1",
                            price
                                .div(strike)
                                .log()
                                .add(r.add(f64(0.5).mul(v).mul(v)).mul(years))
                                .div(vSqrtT));
                    F64 d2 = let("d2", d1.sub(vSqrtT));
                    F64 cndD1 = let("cndD1", cnd.call(d1));
                    F64 cndD2 = let("cndD2", cnd.call(d2));
                    F64 xExpRT = let("x_expRT", strike.mul(r.neg().mul(years).exp()));
                    return ifThenElse(
                        call,
                        () -> price.mul(cndD1).sub(xExpRT.mul(cndD2)),
                        () -> xExpRT.mul(f64(1.0).sub(cndD2)).sub(price.mul(f64(1.0).sub(cndD1))));
                  });

          prog.fun("blackscholes", Arr.of(OPTION), xs -> map(xs, go));
        });
  }
}
