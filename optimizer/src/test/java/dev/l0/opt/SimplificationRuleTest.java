package dev.l0.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.opt.fusion.IndexInlining;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalProgram;
import dev.l0.opt.ir.NameSource;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import dev.l0.opt.pass.Inliner;
import dev.l0.opt.pass.RewriteRule;
import dev.l0.opt.pass.RuleLog;
import dev.l0.opt.pass.SimplificationRule;
import dev.l0.opt.pass.Simplifier;
import dev.l0.opt.pass.SizeHindrances;
import dev.l0.opt.pass.TransposeMaterialisation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Each {@link SimplificationRule} applied alone (in the manner of Catalyst's one-rule suites): the
 * rewrite it makes on a small program, and, where another rule would also apply, that the rule
 * alone leaves that other rewrite undone. The passes that record their rule name the statement they
 * shaped.
 */
class SimplificationRuleTest {
  private static Internal alone(SimplificationRule rule, String source) {
    return Internal.of(source).after(Simplifier.only(rule));
  }

  /**
   * {@code let y = x in let b = 2 * 3 in y + b}, built here: the flattener propagates the source's
   * copies itself.
   */
  private static Internal copyAndConstants() {
    Ident x = new Ident("x", ScalarType.I32);
    Ident y = new Ident("y", ScalarType.I32);
    Ident b = new Ident("b", ScalarType.I32);
    Ident r = new Ident("r", ScalarType.I32);
    SubExp two = SubExp.constant(ScalarValue.i32(2));
    SubExp three = SubExp.constant(ScalarValue.i32(3));
    Body body =
        new Body(
            List.of(
                new Stm(List.of(y), new Exp.Atom(x.var())),
                new Stm(List.of(b), binary(BinaryOperator.MUL, two, three)),
                new Stm(List.of(r), binary(BinaryOperator.ADD, y.var(), b.var()))),
            List.of(r.var()));
    InternalFunction main = new InternalFunction("main", List.of(x), body, List.of(ScalarType.I32));
    return new Internal(new InternalProgram(List.of(main)), new NameSource());
  }

  private static Exp binary(BinaryOperator op, SubExp l, SubExp r) {
    return new Exp.BinOp(op, ScalarType.I32, l, r, SourcePos.NONE);
  }

  @Test
  void copyPropagationAloneReplacesACopyAndFoldsNothing() {
    Internal p = copyAndConstants().after(Simplifier.only(SimplificationRule.COPY_PROPAGATION));
    assertEquals(0, p.count(e -> e instanceof Exp.Atom));
    Exp.BinOp add = (Exp.BinOp) p.topLevel().get(p.topLevel().size() - 1).exp();
    assertEquals(p.main().params().get(0).var(), add.left());
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.MUL));
  }

  @Test
  void constantFoldingAloneFoldsAndLeavesTheCopy() {
    Internal p = copyAndConstants().after(Simplifier.only(SimplificationRule.CONSTANT_FOLDING));
    assertEquals(0, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.MUL));
    assertEquals(
        1,
        p.count(
            e ->
                e instanceof Exp.BinOp b && b.right().equals(SubExp.constant(ScalarValue.i32(6)))));
    assertEquals(1, p.count(e -> e instanceof Exp.Atom), "the copy is COPY-PROPAGATION's");
  }

  @Test
  void foldSizeAloneReadsTheSizeFromTheType() {
    Internal p = alone(SimplificationRule.FOLD_SIZE, "fun int main(int n) = size(0, iota(n))");
    assertEquals(0, p.count(e -> e instanceof Exp.Size));
    assertEquals(p.main().params().get(0).var(), p.main().body().result().get(0));
  }

  @Test
  void foldIndexAloneReadsIotaAndKeepsTheBoundsCheck() {
    Internal p =
        alone(
            SimplificationRule.FOLD_INDEX, "fun int main(int n, int i) = let a = iota(n) in a[i]");
    assertEquals(0, p.count(e -> e instanceof Exp.Index));
    assertEquals(1, p.count(e -> e instanceof Exp.Assert a && a.operation().equals("index")));
  }

  @Test
  void foldIfAloneTakesTheBranchOfAConstantCondition() {
    Internal p =
        alone(SimplificationRule.FOLD_IF, "fun int main(int x) = if true then x + 1 else x - 1");
    assertEquals(0, p.count(e -> e instanceof Exp.If));
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.ADD));
    assertEquals(0, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.SUB));
  }

  /** zip(a, a)'s size check folds to {@code assert(true)}, which the next rule removes. */
  @Test
  void removeCheckedAssertAloneRemovesAnAssertionOfTrueAndItsCertificate() {
    String source = "fun [int] main([int] a) = map(fn int (int x, int y) => x + y, zip(a, a))";
    Internal folded = alone(SimplificationRule.CONSTANT_FOLDING, source);
    assertEquals(1, folded.count(e -> e instanceof Exp.Assert), "folding leaves the assertion");
    Internal p = folded.after(Simplifier.only(SimplificationRule.REMOVE_CHECKED_ASSERT));
    assertEquals(0, p.count(e -> e instanceof Exp.Assert));
    assertEquals(List.of(), certificates(p));
  }

  @Test
  void removeDeadCodeAloneKeepsWhatMayFail() {
    Internal p =
        alone(
            SimplificationRule.REMOVE_DEAD_CODE,
            "fun int main(int x) = let y = x * 2 in let z = x / 0 in x");
    assertEquals(0, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.MUL));
    assertEquals(1, p.count(e -> e instanceof Exp.BinOp b && b.op() == BinaryOperator.DIV));
  }

  @Test
  void pruneSoacInputsAloneDropsAnInputTheFunctionIgnores() {
    String source = "fun [int] main([int] a, [int] b) = map(fn int (int x, int y) => x, zip(a, b))";
    Internal before = Internal.of(source);
    Internal p = before.after(Simplifier.only(SimplificationRule.PRUNE_SOAC_INPUTS));
    assertEquals(2, mapOf(before).inputs().size());
    assertEquals(List.of(p.main().params().get(0).var()), mapOf(p).inputs());
  }

  @Test
  void refineMapShapesAloneGivesTheRowsTheSizeOfTheFunctionsResult() {
    String source =
        """
        fun [int] row(int n) = iota(n)
        fun [[int]] main([int] a, int n) = map(fn [int] (int x) => row(n), a)
        """;
    Internal before = Internal.of(source).after(new Inliner());
    Internal p = before.after(Simplifier.only(SimplificationRule.REFINE_MAP_SHAPES));
    assertInstanceOf(Dim.Unknown.class, rowSize(before));
    assertEquals(new Dim.Named(p.main().params().get(1).name()), rowSize(p));
  }

  @Test
  void theSimplifierRefusesARuleThatIsAPassOfItsOwn() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Simplifier.only(SimplificationRule.INLINE_INDEXING));
    assertEquals(
        "INLINE-INDEXING is not a rule of the simplifier; its own pass applies it alone",
        e.getMessage());
  }

  @Test
  void removeSizeHindranceAloneSizesATransposeAndRecordsIt() {
    Recorder log = new Recorder();
    Internal before = Internal.of("fun [[int]] main([[int]] a) = transpose(a)");
    Internal p = before.after(new SizeHindrances(log));
    Stm transpose = only(p, Exp.Transpose.class);
    assertNotEquals(only(before, Exp.Transpose.class), transpose);
    Type.Array outer = (Type.Array) transpose.pattern().get(0).type();
    assertInstanceOf(Dim.Named.class, outer.size());
    assertEquals(List.of(SimplificationRule.REMOVE_SIZE_HINDRANCE), log.rules);
    assertEquals(List.of(transpose), log.statements);
  }

  @Test
  void inlineIndexingAloneReadsTheMapsInputAndRecordsTheMap() {
    Recorder log = new Recorder();
    Internal p =
        Internal.of(
                """
                fun int main([int] a) =
                  let b = map(fn int (int x) => x + 1, a) in
                  b[0] + reduce(op +, 0, b)
                """)
            .after(new IndexInlining(log));
    Stm map = only(p, Exp.Screma.class, e -> e.isMap());
    assertEquals(
        1,
        p.count(e -> e instanceof Exp.Index x && x.array().equals(p.main().params().get(0).var())));
    SubExp b = map.pattern().get(0).var();
    assertEquals(0, p.count(e -> e instanceof Exp.Index x && x.array().equals(b)));
    assertEquals(List.of(SimplificationRule.INLINE_INDEXING), log.rules);
    assertEquals(List.of(map), log.statements);
  }

  @Test
  void materialiseTransposeAloneCopiesATransposedResultAndRecordsTheCopy() {
    Recorder log = new Recorder();
    Internal p =
        Internal.of("fun [[int]] main([[int]] a) = transpose(a)")
            .after(new TransposeMaterialisation(log));
    Stm copy = only(p, Exp.Screma.class, e -> e.isMap());
    Stm transpose = only(p, Exp.Transpose.class);
    assertEquals(List.of(transpose.pattern().get(0).var()), ((Exp.Screma) copy.exp()).inputs());
    assertEquals(List.of(copy.pattern().get(0).var()), p.main().body().result());
    assertEquals(List.of(SimplificationRule.MATERIALISE_TRANSPOSE), log.rules);
    assertEquals(List.of(copy), log.statements);
  }

  /** A {@link RuleLog} that keeps what it is told. */
  private static final class Recorder implements RuleLog {
    final List<RewriteRule> rules = new ArrayList<>();
    final List<Stm> statements = new ArrayList<>();

    @Override
    public void shaped(RewriteRule rule, Stm shaped) {
      rules.add(rule);
      statements.add(shaped);
    }
  }

  private static List<String> certificates(Internal p) {
    return p.everywhere().stream().flatMap(s -> s.certificates().stream()).toList();
  }

  private static Exp.Screma mapOf(Internal p) {
    return (Exp.Screma) only(p, Exp.Screma.class, e -> e.isMap()).exp();
  }

  private static Dim rowSize(Internal p) {
    Stm map = only(p, Exp.Screma.class, e -> e.isMap());
    return ((Type.Array) ((Type.Array) map.pattern().get(0).type()).element()).size();
  }

  private static Stm only(Internal p, Class<? extends Exp> kind) {
    return only(p, kind, e -> true);
  }

  private static Stm only(Internal p, Class<? extends Exp> kind, Predicate<Exp> also) {
    List<Stm> found =
        p.everywhere().stream()
            .filter(s -> kind.isInstance(s.exp()) && also.test(s.exp()))
            .toList();
    assertEquals(1, found.size(), found::toString);
    return found.get(0);
  }
}
