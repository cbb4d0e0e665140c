package dev.l0.opt.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The hashes CSE files bindings under ({@link SharingKey.Hashes}). */
class SharingKeyTest {
  private static Exp plusOne(SubExp operand) {
    return new Exp.BinOp(
        BinaryOperator.ADD,
        ScalarType.I32,
        operand,
        SubExp.constant(ScalarValue.i32(1)),
        SourcePos.NONE);
  }

  /** {@code map(fn (param) => param + 1, xs)}. */
  private static Exp mapPlusOne(String param, String result, SubExp xs) {
    Ident p = new Ident(param, ScalarType.I32);
    Ident r = new Ident(result, ScalarType.I32);
    Body body = new Body(List.of(new Stm(List.of(r), plusOne(p.var()))), List.of(r.var()));
    return Exp.Screma.map(
        new Lambda(List.of(p), body, List.of(ScalarType.I32)), List.of(xs), SourcePos.NONE);
  }

  /**
   * A chain of lets {@code a1 = a0 + 1, a2 = a1 + 1, ...} has one shape: its bindings, which read
   * different names, get different hashes, so CSE's table does not compare each with all the
   * earlier ones (quadratic in the chain's length).
   */
  @Test
  void bindingsThatReadDifferentNamesGetDifferentHashes() {
    SharingKey.Hashes hashes = new SharingKey.Hashes();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      seen.add(hashes.of(plusOne(SubExp.var("a" + i))));
    }
    assertEquals(1_000, seen.size());
  }

  /** Alpha-equivalent code (other names bound inside) keeps one key and so one hash. */
  @Test
  void alphaEquivalentExpressionsGetTheSameHash() {
    SubExp xs = new Ident("xs", Type.array(ScalarType.I32, new Dim.Const(4))).var();
    Exp first = mapPlusOne("p1", "r1", xs);
    Exp second = mapPlusOne("p2", "r2", xs);
    assertEquals(SharingKey.of(first), SharingKey.of(second));
    SharingKey.Hashes hashes = new SharingKey.Hashes();
    assertEquals(hashes.of(first), hashes.of(second));
  }
}
