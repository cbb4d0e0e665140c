package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarValue;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.pass.Fixpoint;
import dev.l0.opt.pass.Simplifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simplifier's rules (thesis §5.3), each on its own program, run to a fixpoint. */
class SimplifierTest {
  private static final Fixpoint SIMPLIFY = new Fixpoint("simplify", List.of(new Simplifier()), 20);

  private static Internal simplified(String source) {
    return Internal.of(source).after(SIMPLIFY);
  }

  @Test
  void foldsConstantsWithRunTimeSemantics() {
    Internal p = simplified("fun real main() = 0.1 + 0.2 * 3.0");
    assertEquals(List.of(), p.topLevel());
    assertEquals(
        List.of(SubExp.constant(ScalarValue.f64(0.1 + 0.2 * 3.0))), p.main().body().result());
  }

  @Test
  void foldsIntegerArithmeticWithWrapAround() {
    Internal p = simplified("fun int main() = 2147483647 + 1");
    assertEquals(
        List.of(SubExp.constant(ScalarValue.i32(Integer.MIN_VALUE))), p.main().body().result());
  }

  @Test
  void leavesADivisionByZeroToFailAtRunTime() {
    Internal p = simplified("fun int main(int x) = x + 1 / 0");
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.DIV));
  }

  @Test
  void keepsFloatArithmeticThatAnIdentityWouldChange() {
    Internal p = simplified("fun real main(real x) = x * 0.0 + 0.0");
    assertEquals(
        2,
        p.count(e -> e instanceof Exp.BinOp),
        "x * 0.0 is -0.0 or NaN for some x; x + 0.0 changes -0.0");
  }

  @Test
  void removesIntegerIdentitiesAndPropagatesCopies() {
    Internal p = simplified("fun int main(int x) = let y = x in (y + 0) * 1 - 0");
    assertEquals(List.of(), p.topLevel());
    assertEquals(p.main().params().get(0).var(), p.main().body().result().get(0));
  }

  @Test
  void foldsIntegerOperationsWhoseResultIsKnownWithoutTheirOperand() {
    Internal p = simplified("fun int main(int x, int y) = (x - x) + (y * 0) + (0 & x) + (y ^ y)");
    assertEquals(List.of(), p.topLevel());
    assertEquals(List.of(SubExp.constant(ScalarValue.i32(0))), p.main().body().result());
    Internal same = simplified("fun i64 main(i64 x) = (x & x) | x");
    assertEquals(List.of(), same.topLevel());
    assertEquals(same.main().params().get(0).var(), same.main().body().result().get(0));
  }

  @Test
  void aReplicateWhoseCountCancelsOutHasAConstantCount() {
    String source =
        "fun [[int]] main([int] a) = map(fn [int] (int i) => replicate(i - i + 2, i), a)";
    Internal p = simplified(source);
    assertEquals(
        1,
        p.count(
            e ->
                e instanceof Exp.Replicate r
                    && r.count().equals(SubExp.constant(ScalarValue.i32(2)))),
        "a row size the kernel lowering can bound");
    Compiled.of(source).assertSameResult("main", "[3, -1, 7]");
  }

  @Test
  void foldsIfOnAConstant() {
    Internal p = simplified("fun int main(int x) = if 1 < 2 then x + 1 else x - 1");
    assertEquals(0, p.count(e -> e instanceof Exp.If));
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.ADD));
  }

  @Test
  void removesDeadBindingsThatCannotFail() {
    Internal p = simplified("fun int main(int x) = let y = x * 2 in let z = x / 0 in x");
    assertEquals(1, p.topLevel().size(), "x / 0 may fail, so it stays; x * 2 goes");
  }

  @Test
  void keepsADeadIntegerPowerWhoseExponentMayBeNegative() {
    Internal p = simplified("fun int main(int e) = let y = 2 pow 3 in let z = 2 pow e in e");
    assertEquals(1, p.topLevel().size(), "2 pow e may fail, so it stays; 2 pow 3 goes");
    Compiled.of("fun int main(int e) = let z = 2 pow e in 5").assertSameFailure("main", "-1");
    Compiled.of("fun [int] main([int] a) = map(fn int (int x) => let z = 2 pow x in x, a)")
        .assertSameFailure("main", "[1, -1]");
  }

  @Test
  void foldsSizeFromTheShapeInTheType() {
    Internal p = simplified("fun int main(int n) = size(0, map(fn int (int i) => i * 2, iota(n)))");
    assertEquals(p.main().params().get(0).var(), p.main().body().result().get(0));
  }

  @Test
  void assertionOfEqualSizesIsCheckedAndItsCertificateDisappears() {
    Internal p =
        simplified("fun [real] main([real] a) = map(fn real (real x, real y) => x + y, zip(a, a))");
    assertEquals(0, p.count(e -> e instanceof Exp.Assert));
    assertTrue(p.topLevel().stream().allMatch(s -> s.certificates().isEmpty()));
  }

  @Test
  void indexingIntoIotaKeepsTheBoundsCheckAsAnAssertion() {
    Internal p = simplified("fun int main(int n, int i) = let a = iota(n) in a[i]");
    assertEquals(0, p.count(e -> e instanceof Exp.Index));
    assertEquals(1, p.count(e -> e instanceof Exp.Assert a && a.operation().equals("index")));
    assertEquals(p.main().params().get(1).var(), p.main().body().result().get(0));
  }

  @Test
  void indexingIntoATransposeReadsTheOriginal() {
    Internal p = simplified("fun int main([[int]] a) = let t = transpose(a) in t[1, 0]");
    assertEquals(
        1,
        p.count(
            e ->
                e instanceof Exp.Index x
                    && x.array().equals(p.main().params().get(0).var())
                    && x.indices()
                        .equals(
                            List.of(
                                SubExp.constant(ScalarValue.i32(0)),
                                SubExp.constant(ScalarValue.i32(1))))));
  }

  @Test
  void indexingIntoATransposeKeepsItsBoundsChecksInTheTransposesDimensions() {
    String source = "fun int main([[int]] a, int i, int j) = let t = transpose(a) in t[i, j]";
    Internal p = simplified(source);
    assertEquals(2, p.count(e -> e instanceof Exp.Assert a && a.operation().equals("index")));
    Compiled c = Compiled.of(source);
    assertEquals(ScalarValue.i32(2), c.assertSameResult("main", "[[1, 2, 3]] 1 0"));
    c.assertSameFailure("main", "[[1, 2, 3]] 0 1"); // dimension 1 of t, of size 1
    c.assertSameFailure("main", "[[1, 2, 3]] 3 1"); // both outside: t's dimension 0 first
  }

  @Test
  void indexingIntoAReplicateKeepsTheInnerBoundsChecksInTheReplicatesDimensions() {
    Compiled c =
        Compiled.of("fun int main(int n, int i, int j) = let r = replicate(n, iota(3)) in r[i, j]");
    assertEquals(ScalarValue.i32(2), c.assertSameResult("main", "2 1 2"));
    c.assertSameFailure("main", "2 1 5"); // dimension 1 of r, of size 3
    c.assertSameFailure("main", "2 5 7"); // both outside: dimension 0 first
  }

  @Test
  void indexingIntoAReshapeReadsTheSourceAtTheSameOffsetAndKeepsTheBoundsChecks() {
    String source = "fun int main([[int]] a, int i, int j) = let b = reshape((3, 2), a) in b[i, j]";
    Internal p = simplified(source);
    assertEquals(
        1,
        p.count(e -> e instanceof Exp.Index x && x.array().equals(p.main().params().get(0).var())));
    assertEquals(2, p.count(e -> e instanceof Exp.Assert a && a.operation().equals("index")));
    Compiled c = Compiled.of(source);
    assertEquals(ScalarValue.i32(6), c.assertSameResult("main", "[[1, 2, 3], [4, 5, 6]] 2 1"));
    assertEquals(ScalarValue.i32(4), c.assertSameResult("main", "[[1, 2, 3], [4, 5, 6]] 1 1"));
    L0RuntimeError outside =
        assertThrows(
            L0RuntimeError.class, () -> c.assertSameResult("main", "[[1, 2, 3], [4, 5, 6]] 0 2"));
    assertEquals("index", outside.operation());
  }

  @Test
  void absorbsRepeatedBooleanOperands() {
    Internal p = simplified("fun bool main(bool a, bool b) = (a || (a || b)) && (a && a)");
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp x && x.op() == BinaryOperator.OR));
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp x && x.op() == BinaryOperator.AND));
  }
}
