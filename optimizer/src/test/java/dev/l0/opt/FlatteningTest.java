package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Dim;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.eval.ValueFlattening;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TypedValue;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Tuple-of-arrays flattening into internal L0 (thesis ch. 4). */
class FlatteningTest {

  @Test
  void arraysOfTuplesBecomeOneArrayPerComponentBehindACertificate() {
    Internal p = Internal.of("fun [{int, real}] main([{int, real}] a) = a");
    List<Type> expected =
        List.of(InternalTypes.CERT, Type.array(ScalarType.I32), Type.array(ScalarType.F64));
    assertEquals(expected, p.main().params().stream().map(Ident::type).map(Type::erased).toList());
    assertEquals(expected, p.main().returnTypes().stream().map(Type::erased).toList());
    assertEquals(3, p.main().body().result().size());
  }

  @Test
  void aSoacOverAnArrayOfEmptyTuplesIsRefusedAtItsPosition() {
    // [{}] becomes no array at all, so nothing knows its rows: refused, not an internal error
    L0CompileError map =
        assertThrows(
            L0CompileError.class,
            () ->
                Internal.of(
                    "fun [int] main([int] xs) =\n"
                        + "  let u = map(fn {} (int x) => {}, xs) in\n"
                        + "  map(fn int ({} e) => 1, u)"));
    assertEquals(
        "test.l0:3:3: the optimiser cannot run this map over an array of empty tuples: such an"
            + " array has no component that knows its size (run it with --no-opt)",
        map.getMessage());
    L0CompileError scan =
        assertThrows(
            L0CompileError.class,
            () ->
                Internal.of(
                    "fun int main([int] xs) =\n"
                        + "  let u = map(fn {} (int x) => {}, xs) in\n"
                        + "  let v = scan(fn {} ({} a, {} b) => {}, {}, u) in 3"));
    assertEquals(new SourcePos("test.l0", 3, 11), scan.pos());
    assertTrue(scan.detail().contains("cannot run this scan over an array of empty tuples"));
    // a reduce or filter over one would run on no rows at all, dropping its function's failures
    for (String soac :
        List.of(
            "reduce(fn {} ({} a, {} b) => let q = n / z in {}, {}, u)",
            "filter(fn bool ({} e) => n / z > 0, u)")) {
      L0CompileError refused =
          assertThrows(
              L0CompileError.class,
              () ->
                  Internal.of(
                      "fun int main(int n, int z) =\n"
                          + "  let u = map(fn {} (int x) => {}, iota(n)) in\n"
                          + "  let r = "
                          + soac
                          + " in 3"),
              soac);
      assertEquals(new SourcePos("test.l0", 3, 11), refused.pos(), soac);
      assertTrue(refused.detail().contains("over an array of empty tuples"), refused.getMessage());
    }
  }

  @Test
  void unzipDisappears() {
    Internal p = Internal.of("fun {[int], [real]} main([{int, real}] a) = unzip(a)");
    List<SubExp> arrays =
        p.main().params().stream()
            .filter(id -> !id.isCertificate())
            .map(id -> (SubExp) id.var())
            .toList();
    assertEquals(arrays, p.main().body().result(), "a tuple of arrays needs no certificate");
  }

  @Test
  void zipBecomesACertificateThatPredicatesItsConsumer() {
    Internal p = Internal.of("fun [real] main([real] a, [real] b) = map(op +, zip(a, b))");
    Stm check =
        p.topLevel().stream().filter(s -> s.exp() instanceof Exp.Assert).findFirst().orElseThrow();
    assertEquals("zip", ((Exp.Assert) check.exp()).operation());
    Stm map = p.topLevel().stream().filter(s -> s.exp().isMap()).findFirst().orElseThrow();
    assertEquals(List.of(check.pattern().get(0).name()), map.certificates());
    assertEquals(
        2, ((Exp.Screma) map.exp()).inputs().size(), "the map is tupleless: one input per array");
  }

  @Test
  void soacsOverTuplesTakeAndReturnSeveralArrays() {
    Internal p =
        Internal.of(
            """
        fun {[int], [real]} main([{int, real}] a) = unzip(map(fn {int, real} ({int, real} t) =>
          let {i, x} = t in {i + 1, x * 2.0}, a))
        """);
    Stm map = p.topLevel().stream().filter(s -> s.exp().isMap()).findFirst().orElseThrow();
    assertEquals(2, map.pattern().size());
    assertEquals(2, ((Exp.Screma) map.exp()).function().params().size());
  }

  @Test
  void arrayParametersGetTheirSizesNamed() {
    Internal p = Internal.of("fun int main([[int]] a) = size(1, a)");
    Type.Array a = (Type.Array) p.main().params().get(0).type();
    assertTrue(
        a.size() instanceof Dim.Named && ((Type.Array) a.element()).size() instanceof Dim.Named,
        () -> "sizes should be named: " + a);
  }

  @Provide
  Arbitrary<TypedValue> values() {
    return RandomPrograms.values();
  }

  @Property(tries = 500, seed = "20261122")
  void valuesFlattenAndComeBackUnchanged(@ForAll("values") TypedValue v) {
    assertEquals(
        v.value(),
        ValueFlattening.unflatten(ValueFlattening.flatten(v.value(), v.type()), v.type()));
  }
}
