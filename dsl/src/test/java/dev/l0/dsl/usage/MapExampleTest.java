package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.L0;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.syntax.L0Parser;
import org.junit.jupiter.api.Test;

/** The brief's first example: a staged map builds the IR its text form parses to. */
class MapExampleTest {
  private static final String TEXT =
      "fun [f64] scale([f64] xs) = map(fn f64 (f64 x) => x*2.0+1.0, xs)";

  @Test
  void stagedMapEqualsTheTextForm() {
    Program staged =
        L0.program(
            prog -> prog.fun("scale", Arr.of(F64.TYPE), xs -> map(xs, x -> x.mul(2.0).add(1.0))));

    assertEquals(Canonical.of(L0Parser.parse(TEXT, "scale.l0")), Canonical.of(staged));
  }

  @Test
  void aDifferentComputationIsADifferentProgram() {
    Program staged =
        L0.program(
            prog -> prog.fun("scale", Arr.of(F64.TYPE), xs -> map(xs, x -> x.add(1.0).mul(2.0))));

    assertNotEquals(Canonical.of(L0Parser.parse(TEXT, "scale.l0")), Canonical.of(staged));
  }

  @Test
  void everyNodeCarriesTheJavaLineThatStagedIt() {
    int line = StackWalker.getInstance().walk(s -> s.findFirst()).orElseThrow().getLineNumber() + 3;
    Program staged =
        L0.program(
            prog -> prog.fun("scale", Arr.of(F64.TYPE), xs -> map(xs, x -> x.mul(2.0).add(1.0))));

    SourcePos expected = new SourcePos("MapExampleTest.java", line, 0);
    Expr.Map body = (Expr.Map) staged.functions().get(0).body();
    FunArg.Lambda lambda = (FunArg.Lambda) body.function();
    assertEquals(expected, body.pos());
    assertEquals(expected, lambda.pos());
    assertEquals(expected, lambda.params().get(0).pos());
    lambda
        .body()
        .transformUp(
            node -> {
              assertEquals(expected, node.pos(), () -> "position of " + node);
              return node;
            });
  }
}
