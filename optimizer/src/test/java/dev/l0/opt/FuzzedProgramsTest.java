package dev.l0.opt;

import org.junit.jupiter.api.Test;

/**
 * Programs from random-program campaigns outside CI that the optimiser once broke, kept as they
 * were generated (each names its generator and seed): the optimised program is well formed (the
 * optimiser's tests check the internal program after every pass) and gives the interpreter's
 * result.
 */
class FuzzedProgramsTest {
  /**
   * {@code RandomPrograms.kernelArrayProgram(200067)}: a redomap whose result is an array of 10 and
   * a map over rows of 1 were clustered as loops of one size (the reduction's result took the size
   * of the rows it reduces), and their maps were joined into a map over inputs of sizes 1 and 10.
   */
  @Test
  void aReductionsArrayResultHasItsOwnSizeNotItsInputsRows() {
    Compiled c =
        Compiled.of(
            """
        fun bool helper0(bool p60) =
          true

        fun bool main({i64, [{bool, i32, bool}], [bool]} arg0) =
          loop (acc10 = replicate(4, (scan(fn {f64, f64} ({f64, f64} x1, {f64, f64} y2) =>
                      let {x3, x5} = x1 in
                      let {y4, y6} = y2 in
                      {x3 + y4, x5 * y6},
                    {0.0, 1.0}, if false then
                   replicate(1, {-10.434, 7.5})
                 else
                   replicate(1, {5.0, 60.791})))[(reduce(op &, -(1), map(fn i32 (f64 e7) => i32(e7), replicate(7, 3.75))) % 1 + 1) % 1])) = for k11 < 1 do
            concat(acc10, map(fn {f64, f64} (f64 e40, i64 e41, f32 e42) =>
                    let c43 = replicate(1, replicate(4, replicate(1, f64(e42)))) in
                    let u52 = c43 with [0, 1] <-
                      loop (acc47 = loop (acc44 = copy(replicate(1, replicate(2, i64(k11))))) = for k45 < 5 do
                          let u46 = acc44 with [(k45 % 1 + 1) % 1] <- replicate(2, i64(k45)) in
                          u46
                        in
                        k11) = for k48 < 4 do
                        reduce(fn i32 (i32 x49, i32 y50) => x49 + y50, 0, replicate(7, i32(e41)))
                      in
                      map(fn f64 (i64 e51) => -48.486, replicate(1, i64(e42)))
                    in
                    loop (acc53 = copy(replicate(1, replicate(2, 8.0f32)))) = for k54 < 4 do
                      let u57 = acc53 with [(k54 % (k54 | 1) % 1 + 1) % 1] <-
                        let c55 = replicate(2, replicate(1, replicate(1, e42))) in
                        let u56 = c55 with [1, (k54 % 1 + 1) % 1] <- replicate(1, 2.75f32) in
                        replicate(2, e42)
                      in
                      u57
                    in
                    loop (acc58 = replicate(3, false)) = for k59 < 4 do
                      filter(helper0, acc58)
                    in
                    {1.75, f64(e42)},
                  zip(reduce(fn [f64] ([f64] a22, [f64] b23) => map(fn f64 (f64 x24, f64 y25) => x24 * y25, zip(a22, b23)), replicate(10, 1.0), loop (acc15 = copy(map(fn [[i32]] (bool e12, i32 e13, f32 e14) => replicate(1, replicate(2, 6)), zip(replicate(1, 0 < k11), replicate(1, 2), replicate(1, f32(k11)))))) = for k16 < 0 do
                      let u20 = acc15 with [(3 % 1 + 1) % 1, 0] <-
                        loop (acc17 = copy(replicate(1, replicate(6, f32(k16))))) = for k18 < 4 do
                          let u19 = acc17 with [(k18 % 1 + 1) % 1, (k18 % 6 + 6) % 6] <- 5.25f32 in
                          u19
                        in
                        replicate(2, 10)
                      in
                      u20
                    in
                    map(fn [f64] ([[i32]] e21) => replicate(10, f64(k11)), acc15)), map(fn i64 (f64 e31) => i64(e31), reduce(fn [f64] ([f64] a27, [f64] b28) => map(fn f64 (f64 x29, f64 y30) => x29 * y30, zip(a27, b28)), replicate(10, 1.0), filter(fn bool ([f64] e26) => 0 < k11, replicate(1, replicate(10, f64(k11)))))), let x39 =
                    let {t33, t34} =
                      let x32 = replicate(1, f32(k11)) in
                      {0 < k11, 0 < k11}
                    in
                    loop (acc35 = replicate(10, t33)) = for k36 < k11 % 5 do
                      concat(filter(fn bool (bool e37) => e37, acc35), filter(fn bool (bool e38) => t34, acc35))
                    in
                    replicate(3, {k11, if t34 then i64(1) else i64(0)})
                  in
                  replicate(10, f32(k11)))))
          in
          true
            """);
    c.assertSameResult("main", "{9i64, [{true, 4, false}, {true, -1, false}], [true]}");
  }
}
