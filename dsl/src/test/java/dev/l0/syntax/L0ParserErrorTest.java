package dev.l0.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.SourcePos;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Syntax errors point at the offending token and say what was expected there. */
class L0ParserErrorTest {

  static Stream<Arguments> badPrograms() {
    return Stream.of(
        bad(
            "fun [int] f([int] a) =\n  let b = map(g, a\n  in b",
            3,
            3,
            "expected ')' to close the argument list of 'map' opened at 2:14, found 'in'"),
        bad(
            "fun bool f(int a) = a == 1",
            1,
            23,
            "'==' is not an L0 operator: equality is written '='"),
        bad("fun [int] f() = []", 1, 17, "empty array literal [] is not allowed"),
        bad(
            "fun real f(real x) =\n  1.0 + pow(x, 2.0)",
            2,
            9,
            "'pow' is L0's infix power operator (thesis §2.3): write x pow y, not pow(x, y)"),
        bad(
            "fun int f([int] a) =\n  redomap(op +, g, 0, a)",
            2,
            3,
            "'redomap' is internal to the compiler"),
        bad(
            "fun [int] f([int] a) =\n  mapT(fn {int} (int x) => {x + 1}, a)",
            2,
            3,
            "'mapT' is the thesis's internal form of map (its optimised listings, chapter 4), which"
                + " a program cannot write; write map(...)"),
        bad(
            "fun int f([int] a) =\n  redomapT(op +, op +, 0, a)",
            2,
            3,
            "'redomapT' is the thesis's internal form of redomap (its optimised listings, chapter"
                + " 4), which a program cannot write; write reduce(f, ne, map(g, a))"),
        bad(
            "fun [int] f([int] a) =\n  scanomap(op +, op +, 0, a)",
            2,
            3,
            "'scanomap' is given a function argument ('op'), which only map, filter, reduce and"
                + " scan take; L0 has no other higher-order functions (the optimiser's fused forms"
                + " such as redomap cannot be written)"),
        bad(
            "fun int g(int x) = x\nfun [int] f([int] a) = g(fn int (int x) => x, a)",
            2,
            24,
            "'g' is given a function argument ('fn')"),
        bad(
            "fun bool f(int a) = a > 0 and a < 3",
            1,
            27,
            "expected an operator, 'fun' or end of input after the body of 'f', found name 'and'"
                + " (logical and is written '&&')"),
        bad(
            "fun bool f(bool a, bool b) =\n  let c = a or b in c",
            2,
            13,
            "expected 'in' after the bound value of the 'let' at 2:3, found name 'or' (logical or is"
                + " written '||')"),
        bad(
            "fun int f([int] a) =\n  reduce(op +, a)",
            2,
            3,
            "'reduce' expects 3 arguments, as in reduce(f, ne, a), but got 2"),
        bad(
            "fun [int] f([int] a) = map(g, a, a)",
            1,
            24,
            "'map' expects 2 arguments, as in map(f, a), but got 3"),
        bad(
            "fun [int] f([[int]] a) = transpose(0, a)",
            1,
            26,
            "'transpose' expects 1 or 3 arguments"),
        bad("fun int f() = 'a'", 1, 15, "character and string literals are not supported"),
        bad("fun char f() = 1", 1, 5, "the type 'char' is not supported"),
        bad(
            "fun int f() =\n  1 + 3000000000",
            2,
            7,
            "the integer literal 3000000000 is out of range for i32"),
        bad(
            "fun int f() = -2147483649",
            1,
            15,
            "the integer literal -2147483649 is out of range for i32"),
        bad("fun int f() = 12abc", 1, 15, "bad numeric literal '12abc'"),
        bad(
            "fun int main() = iota(3)[1]",
            1,
            25,
            "only a name or a parenthesised expression can be indexed: bind the value with let,"
                + " or write (...)[...]"),
        bad(
            "fun int main() = [1, 2][0]",
            1,
            24,
            "only a name or a parenthesised expression can be indexed"),
        bad("fun int f() = 1.5i32", 1, 15, "cannot have the integer suffix i32"),
        bad(
            "fun int f() = 0x80000000",
            1,
            15,
            "the integer literal 2147483648 is out of range for i32"),
        bad(
            "fun int f() = 0x",
            1,
            15,
            "bad numeric literal '0x': a hexadecimal literal needs digits after '0x'"),
        bad("fun int f() = 0o18", 1, 15, "bad numeric literal '0o18': an octal literal has digits"),
        bad(
            "fun int f() = 0x1Fu8",
            1,
            15,
            "bad numeric literal '0x1Fu8': a hexadecimal or octal literal may end in i32 or i64"),
        bad("fun real f() = 1e400", 1, 16, "out of range for f64"),
        bad(
            "fun f64 main() = 1e",
            1,
            18,
            "bad numeric literal '1e': an exponent needs digits after 'e', as in 1e3 or 1e-3"),
        bad(
            "fun f64 main() = 2.5E+ 1",
            1,
            18,
            "bad numeric literal '2.5E': an exponent needs digits after 'E', as in 1e3 or 1e-3"),
        bad(
            "fun f64 main() =\n  1.0e-400",
            2,
            3,
            "the literal 1.0e-400 is out of range for f64: it is not zero but rounds to 0 (the"
                + " smallest positive f64 is 4.9e-324)"),
        bad(
            "fun f64 main() = -2e-324",
            1,
            18,
            "the literal -2e-324 is out of range for f64: it is not zero but rounds to 0"),
        bad(
            "fun f32 main() = 1.0e-50f32",
            1,
            18,
            "the literal 1.0e-50 is out of range for f32: it is not zero but rounds to 0 (the"
                + " smallest positive f32 is 1.4e-45f32)"),
        bad(
            "fun f32 main() = 1e39f32",
            1,
            18,
            "the literal 1e39 is out of range for f32: it is larger than the largest f32,"
                + " 3.4028235e38f32"),
        bad(
            "fun f64 main() = 1.0e400",
            1,
            18,
            "the literal 1.0e400 is out of range for f64: it is larger than the largest f64,"
                + " 1.7976931348623157e308"),
        bad(
            "fun int f(bool c) = if c then 1\nfun int g() = 2",
            2,
            1,
            "expected 'else' after the 'then' branch of the 'if' at 1:21"),
        bad(
            "fun int f() =\n  let x = 1\n  x",
            3,
            3,
            "expected 'in' after the bound value of the 'let' at 2:3, found name 'x'"),
        bad(
            "fun int f() = (1 + 2",
            1,
            21,
            "expected ')' to close the parenthesis opened at 1:15, found end of input"),
        bad("fun int f(int x) = x # 2", 1, 22, "unexpected character '#'"),
        bad(
            "fun int sumpair({int, int} {x, y}) = x + y",
            1,
            28,
            "a parameter cannot be a tuple pattern"),
        bad(
            "fun {int, real f() = 1",
            1,
            16,
            "expected '}' to close the tuple type opened at 1:5, found name 'f'"),
        bad(
            "fun int f([[int]] a, int k) = size(k, a)",
            1,
            36,
            "must be a non-negative integer literal"),
        bad("fun int (int x) = x", 1, 9, "expected a name for the function, found '('"),
        bad("fun int f(int map) = map", 1, 15, "found 'map' (a reserved word)"),
        bad(
            "fun int f(int x) = let copy = x in copy",
            1,
            24,
            "expected a name or a tuple pattern {a, b} to bind, found 'copy' (a reserved word)"),
        bad(
            "fun int f(int x) = let {a, size} = {x, x} in a",
            1,
            28,
            "found 'size' (a reserved word)"),
        bad(
            "fun int f() = 1 2",
            1,
            17,
            "expected an operator, 'fun' or end of input after the body of 'f', found number 2"),
        bad(
            "fun int f(int n) = loop (x = 0) = while x do x in x",
            1,
            35,
            "expected 'for' in the 'loop' at 1:20"),
        bad("fun int f() = (1, 2)", 1, 17, "tuples are written {a, b}"),
        bad(
            "fun [int] f([int] a) = map(1, a)",
            1,
            28,
            "expected a function as the first argument of 'map'"),
        bad("fun [*[int]] f() = 1", 1, 6, "uniqueness applies to the outermost array only"),
        bad(
            "fun [int] f(*[int] a) = let b = a with [0] = 1 in b",
            1,
            44,
            "expected '<-' after the indices of the in-place update"),
        bad("fun int f() = )\n'x'", 1, 15, "expected an expression, found ')'"),
        bad(
            "fun int f() = fn int (int x) => x",
            1,
            15,
            "may appear only as the first argument of map, filter, reduce or scan"),
        bad("fun int f([int] a) = a[]", 1, 24, "needs at least one index"),
        bad("int f() = 1", 1, 1, "expected 'fun' to begin a function definition, found 'int'"),
        bad(
            "fun int f() = let {a, b = c in a",
            1,
            25,
            "expected '}' to close the tuple pattern opened at 1:19, found '='"));
  }

  private static Arguments bad(String text, int line, int column, String messageFragment) {
    return Arguments.of(text, line, column, messageFragment);
  }

  @Test
  void aLoneCarriageReturnEndsALineAndTheCommentOnIt() {
    assertEquals(
        1, L0Parser.parse("// a comment\rfun i32 main() = 1\r", "cr.l0").functions().size());
    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () -> L0Parser.parse("fun i32 main() =\r  // c\r\n  1 +\r  @\r", "cr.l0"));
    assertEquals(new SourcePos("cr.l0", 4, 3), error.pos(), error.getMessage());
  }

  @ParameterizedTest
  @MethodSource("badPrograms")
  void aSyntaxErrorIsReportedAtTheOffendingToken(
      String text, int line, int column, String messageFragment) {
    L0CompileError error = assertThrows(L0CompileError.class, () -> L0Parser.parse(text, "bad.l0"));
    assertEquals(new SourcePos("bad.l0", line, column), error.pos(), error.getMessage());
    assertTrue(error.detail().contains(messageFragment), () -> "message was: " + error.detail());
  }

  @Test
  void aHugeTokenIsQuotedCut() {
    String name = "y".repeat(10_000_000);
    L0CompileError extraName =
        assertThrows(
            L0CompileError.class, () -> L0Parser.parse("fun int f() = 1 " + name, "big.l0"));
    assertEquals(
        "big.l0:1:17: expected an operator, 'fun' or end of input after the body of 'f', found name '"
            + "y".repeat(60)
            + "... (10000000 characters)'",
        extraName.getMessage());
    L0CompileError hugeNumber =
        assertThrows(
            L0CompileError.class,
            () -> L0Parser.parse("fun int f() = " + "9".repeat(10_000_000), "big.l0"));
    assertEquals(
        "big.l0:1:15: the integer literal "
            + "9".repeat(60)
            + "... (10000000 characters) is out of range for i32",
        hugeNumber.getMessage());
  }

  @Test
  void theMessageStartsWithFileLineAndColumn() {
    L0CompileError error =
        assertThrows(
            L0CompileError.class, () -> L0Parser.parse("fun int f() =\n  1 +", "dir/prog.l0"));
    assertEquals("dir/prog.l0:2:6: expected an expression, found end of input", error.getMessage());
  }

  @Test
  void expressionAndTypeEntryPointsRejectTrailingText() {
    L0CompileError expr =
        assertThrows(L0CompileError.class, () -> L0Parser.parseExpression("a b", "e"));
    assertEquals(new SourcePos("e", 1, 3), expr.pos());
    L0CompileError type =
        assertThrows(L0CompileError.class, () -> L0Parser.parseType("[int] x", "t"));
    assertEquals("expected end of input after the type, found name 'x'", type.detail());
  }

  @Test
  void deepNestingIsACompileErrorNotAStackOverflow() {
    String text = "fun int f() = " + "(".repeat(200_000) + "1" + ")".repeat(200_000);
    L0CompileError error =
        assertThrows(L0CompileError.class, () -> L0Parser.parse(text, "deep.l0"));
    assertEquals(
        "deep.l0:1:3015: the expression is nested more than 3000 levels deep, the limit of this"
            + " implementation: it is inside 3000 nested parentheses, the outermost at 1:15; split"
            + " them into functions to nest less",
        error.getMessage());
  }

  /**
   * A long chain of lets, which nests one level per let (its body), is named as such where it
   * passes the limit: the message counts the lets around that point and gives the first one's
   * position, not only the expression at which the count ran out.
   */
  @Test
  void aLetChainBeyondTheLimitIsNamedWithItsFirstLet() {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x0) =\n");
    for (int i = 1; i <= 5000; i++) {
      text.append("  let x").append(i).append(" = x").append(i - 1).append(" + 1 in\n");
    }
    text.append("  x5000\n");
    L0CompileError error =
        assertThrows(L0CompileError.class, () -> L0Parser.parse(text.toString(), "chain.l0"));
    assertEquals(
        "chain.l0:3000:23: the expression is nested more than 3000 levels deep, the limit of this"
            + " implementation: it is inside 2999 nested 'let' expressions, the outermost at 2:3;"
            + " split them into functions to nest less",
        error.getMessage());
  }
}
