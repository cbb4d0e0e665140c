package dev.l0.syntax;

import static dev.l0.ir.BinaryOperator.ADD;
import static dev.l0.ir.BinaryOperator.MUL;
import static dev.l0.ir.BinaryOperator.POW;
import static dev.l0.ir.BinaryOperator.SUB;
import static dev.l0.syntax.Ast.NONE;
import static dev.l0.syntax.Ast.bin;
import static dev.l0.syntax.Ast.f64;
import static dev.l0.syntax.Ast.i32;
import static dev.l0.syntax.Ast.name;
import static dev.l0.syntax.Ast.neg;
import static dev.l0.syntax.Ast.parsed;
import static dev.l0.syntax.Ast.var;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class L0PrinterTest {

  private static void assertPrintsAndReadsBack(String expectedText, Expr expr) {
    assertEquals(expectedText, L0Printer.print(expr));
    assertEquals(expr, parsed(expectedText));
  }

  @Test
  void typesUseCanonicalKeywords() {
    assertEquals("i32", L0Printer.print(L0Parser.parseType("int", "t")));
    assertEquals("f64", L0Printer.print(L0Parser.parseType("real", "t")));
    assertEquals("*[[f64]]", L0Printer.print(L0Parser.parseType("*[[real]]", "t")));
    assertEquals(
        "{bool, {}, {i64}, [f32]}",
        L0Printer.print(L0Parser.parseType("{bool,{},{i64},[f32]}", "t")));
    assertEquals("[i32]", L0Printer.print(Type.array(ScalarType.I32, new Dim.Const(4))));
  }

  @Test
  void onlyNecessaryParenthesesArePrinted() {
    assertPrintsAndReadsBack("a - b - c", bin(SUB, bin(SUB, var("a"), var("b")), var("c")));
    assertPrintsAndReadsBack("a - (b - c)", bin(SUB, var("a"), bin(SUB, var("b"), var("c"))));
    assertPrintsAndReadsBack("a + b * c", bin(ADD, var("a"), bin(MUL, var("b"), var("c"))));
    assertPrintsAndReadsBack("(a + b) * c", bin(MUL, bin(ADD, var("a"), var("b")), var("c")));
    assertPrintsAndReadsBack("a pow b pow c", bin(POW, var("a"), bin(POW, var("b"), var("c"))));
    assertPrintsAndReadsBack("(a pow b) pow c", bin(POW, bin(POW, var("a"), var("b")), var("c")));
    assertPrintsAndReadsBack("-(a * b)", neg(bin(MUL, var("a"), var("b"))));
    assertPrintsAndReadsBack("-a * b", bin(MUL, neg(var("a")), var("b")));
  }

  @Test
  void negativeLiteralsAndNegatedLiteralsStayApart() {
    assertPrintsAndReadsBack("-3", i32(-3));
    assertPrintsAndReadsBack("-(3)", neg(i32(3)));
    assertPrintsAndReadsBack("-(-3)", neg(i32(-3)));
    assertPrintsAndReadsBack("-(-x)", neg(neg(var("x"))));
    assertPrintsAndReadsBack("x - -3", bin(SUB, var("x"), i32(-3)));
    assertPrintsAndReadsBack("-2 pow 2", bin(POW, i32(-2), i32(2)));
    assertPrintsAndReadsBack("-(2) pow 2", bin(POW, neg(i32(2)), i32(2)));
  }

  @Test
  void literalsOfEveryTypeReadBackBitForBit() {
    assertPrintsAndReadsBack("5i64", new Expr.Literal(ScalarValue.i64(5), NONE));
    assertPrintsAndReadsBack(
        "-9223372036854775808i64", new Expr.Literal(ScalarValue.i64(Long.MIN_VALUE), NONE));
    assertPrintsAndReadsBack("0.1f32", new Expr.Literal(ScalarValue.f32(0.1f), NONE));
    assertPrintsAndReadsBack("-0.0", f64(-0.0));
    assertPrintsAndReadsBack("1.0e-7", f64(1e-7));
    assertPrintsAndReadsBack("4.9e-324", f64(Double.MIN_VALUE));
    assertPrintsAndReadsBack("true", new Expr.Literal(ScalarValue.bool(true), NONE));
  }

  @Test
  void nonFiniteFloatsPrintAsTheDivisionThatYieldsThem() {
    assertEquals("(1.0 / 0.0)", L0Printer.print(f64(Double.POSITIVE_INFINITY)));
    assertEquals(
        "(-1.0f32 / 0.0f32)",
        L0Printer.print(new Expr.Literal(ScalarValue.f32(Float.NEGATIVE_INFINITY), NONE)));
    assertEquals("(0.0 / 0.0)", L0Printer.print(f64(Double.NaN)));
  }

  @Test
  void blocksAreParenthesisedAsOperandsOnly() {
    Expr conditional = new Expr.If(var("c"), i32(1), i32(2), NONE);
    assertPrintsAndReadsBack("(if c then 1 else 2) + x", bin(ADD, conditional, var("x")));
    assertPrintsAndReadsBack("x + (if c then 1 else 2)", bin(ADD, var("x"), conditional));
    assertPrintsAndReadsBack(
        "f(if c then 1 else 2)", new Expr.Call("f", List.of(conditional), NONE));
    Expr let = new Expr.Let(name("y"), i32(1), var("y"), NONE);
    assertPrintsAndReadsBack("(let y = 1 in\n y) * 2", bin(MUL, let, i32(2)));
  }

  @Test
  void shorthandsArePrintedWhereTheyApply() {
    Expr update = new Expr.LetWith("a", "a", List.of(var("i")), i32(0), var("a"), NONE);
    assertPrintsAndReadsBack("let a[i] = 0 in\na", update);
    Expr copyUpdate =
        new Expr.LetWith("b", "a", List.of(var("i"), var("j")), i32(0), var("b"), NONE);
    assertPrintsAndReadsBack("let b = a with [i, j] <- 0 in\nb", copyUpdate);
    Expr loop =
        new Expr.Loop(
            name("x"), var("x"), "i", var("n"), bin(ADD, var("x"), var("i")), var("x"), NONE);
    assertPrintsAndReadsBack("loop (x) = for i < n do\n  x + i\nin\nx", loop);
    Expr seeded = new Expr.Loop(name("x"), i32(0), "i", var("n"), var("x"), var("x"), NONE);
    assertPrintsAndReadsBack("loop (x = 0) = for i < n do\n  x\nin\nx", seeded);
    assertPrintsAndReadsBack("transpose(a)", new Expr.Transpose(0, 1, var("a"), NONE));
    assertPrintsAndReadsBack("transpose(1, 2, a)", new Expr.Transpose(1, 2, var("a"), NONE));
    assertPrintsAndReadsBack("size(0, a)", new Expr.Size(0, var("a"), NONE));
  }

  @Test
  void programsAreIndentedWithOneBindingPerLine() {
    Program program =
        L0Parser.parse(
            "fun real f (int n, *[real] a) = let {x, y} = {n, 2} in let z = x + y in map(fn real (real v) => let w = v * 2.0 in w, a)",
            "f.l0");
    String expected =
        String.join(
            "\n",
            "fun f64 f(i32 n, *[f64] a) =",
            "  let {x, y} = {n, 2} in",
            "  let z = x + y in",
            "  map(fn f64 (f64 v) =>",
            "        let w = v * 2.0 in",
            "        w,",
            "      a)",
            "");
    assertEquals(expected, L0Printer.print(program));
  }

  @Test
  void deeplyNestedConditionalsPrintInLinearTime() {
    Expr nested = var("fallback");
    for (int depth = 0; depth < 60; depth++) {
      nested =
          new Expr.If(
              var("condition_number_" + depth),
              nested,
              var("a_rather_long_alternative_name_" + depth),
              NONE);
    }
    Expr deep = nested;
    String text = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> L0Printer.print(deep));
    assertEquals(deep, parsed(text));
    assertTrue(
        text.lines().allMatch(line -> line.length() <= 250),
        "long conditionals are broken over lines");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a + (let x = 1 in x) * 2",
        "let x = if a then let y = 1 in y else 2 in x",
        "if if a then b else c then let d = 1 in d else -e",
        "(f(x))[0] + a[1]",
        "-(3)[0]",
        "(-3)[0]",
        "a[i][j, k]",
        "map(fn {[int], real} (int x, {real} t) => {iota(x), 0.5}, zip(xs, ys))",
        "reduce(op pow(2.0), 1.0, xs)",
        "scan(op -, 0, xs)",
        "filter(g(1, -2), xs)",
        "reshape((n, m * 2), concat(a, b))",
        "let {a, {b, {}}} = x in loop ({a, {b, c}}) = for i < n do {b, {a, c}} in a",
        "loop (x = let y = 1 in y) = for i < let m = 2 in m do let z = x in z in x",
        "not not a && b || not c",
        "a < b = (c < d)",
        "1 << 2 >> 3 & 4 ^ 5 | 6",
        "x - - - 3",
        "real(i) * f64(int(j))",
      })
  void trickyExpressionsSurvivePrintingAndReparsing(String text) {
    Expr original = parsed(text);
    assertEquals(
        original,
        parsed(L0Printer.print(original)),
        () -> "printed as:\n" + L0Printer.print(original));
  }
}
