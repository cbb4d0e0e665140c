package dev.l0.dsl.comparison;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.l0.ir.Expr;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.testing.AlphaNormalizer;
import dev.l0.testing.SourcePositions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Programs equal up to the names of bound variables normalise to equal programs; others do not. */
class AlphaNormalizerTest {
  @Test
  void renamesEveryKindOfBinderInBindingOrder() {
    Program program =
        parse(
            """
        fun [i32] f(*[i32] a, i32 n) =
          let {x, y} = {n, 1} in
          let b = a with [0] <- x in
          loop (acc = b) = for i < y do map(fn i32 (i32 e) => e + i, acc) in
          acc""");

    assertEquals(
        SourcePositions.erase(
            parse(
                """
        fun [i32] f(*[i32] v0, i32 v1) =
          let {v2, v3} = {v1, 1} in
          let v4 = v0 with [0] <- v2 in
          loop (v5 = v4) = for v6 < v3 do map(fn i32 (i32 v7) => v7 + v6, v5) in
          v5""")),
        normalize(program));
  }

  @Test
  void programsDifferingOnlyInNamesNormaliseEqually() {
    assertEquals(
        normalize(parse("fun f64 f(f64 x) = let y = x * 2.0 in let x = y + 1.0 in x * y")),
        normalize(parse("fun f64 f(f64 a) = let b = a * 2.0 in let c = b + 1.0 in c * b")));
  }

  @Test
  void shadowingIsResolvedToTheInnermostBinder() {
    assertNotEquals(
        normalize(parse("fun f64 f(f64 x) = let y = x * 2.0 in let x = y + 1.0 in x * y")),
        normalize(parse("fun f64 f(f64 a) = let b = a * 2.0 in let c = b + 1.0 in a * b")));
  }

  @Test
  void lambdaParametersScopeOverTheLambdaOnly() {
    assertNotEquals(
        normalize(parse("fun [f64] f([f64] xs, f64 x) = map(fn f64 (f64 x) => x, xs)")),
        normalize(parse("fun [f64] f([f64] xs, f64 x) = map(fn f64 (f64 y) => x, xs)")));
  }

  @Test
  void functionNamesAndFreeVariablesStay() {
    Program program = normalize(parse("fun f64 g(f64 x) = x\nfun f64 h(f64 y) = g(y)"));
    assertEquals("g", program.functions().get(0).name());
    assertEquals(
        new Expr.Call("g", List.of(new Expr.Var("v0", SourcePos.NONE)), SourcePos.NONE),
        program.functions().get(1).body());

    Expr open =
        SourcePositions.erase(
            AlphaNormalizer.normalize(L0Parser.parseExpression("let a = free + 1 in a", "e")));
    assertEquals("let v0 = free + 1 in v0", L0Printer.print(open).replaceAll("\\s+", " ").strip());
  }

  private static Program parse(String text) {
    return L0Parser.parse(text, "test.l0");
  }

  private static Program normalize(Program program) {
    return SourcePositions.erase(AlphaNormalizer.normalize(program));
  }
}
