package dev.l0.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Param;
import dev.l0.ir.Pattern;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The checker never fails with anything but an {@link L0CompileError}: on ASTs that the parser
 * would never build, on deeply nested programs, and on randomly damaged program text. And it
 * accepts every program of the random generator, which are well typed by construction.
 */
class CheckerRobustnessTest {
  private static final SourcePos AT = new SourcePos("weird", 1, 1);
  private static final Type INTS = Type.array(ScalarType.I32);

  /** Function {@code f(xs : [i32], n : i32) : result} with body {@code body}. */
  private static Program program(Type result, Expr body) {
    return new Program(
        List.of(
            new FunDef(
                "f",
                result,
                List.of(new Param(INTS, "xs", AT), new Param(ScalarType.I32, "n", AT)),
                body,
                AT)));
  }

  private static Expr xs() {
    return new Expr.Var("xs", AT);
  }

  private static Expr one() {
    return new Expr.Literal(ScalarValue.i32(1), AT);
  }

  @TestFactory
  Stream<DynamicTest> weirdTreesAreRejectedWithACompileError() {
    List<Object[]> cases =
        List.of(
            new Object[] {
              "empty array literal",
              program(INTS, new Expr.ArrayLit(List.of(), AT)),
              "at least one element"
            },
            new Object[] {
              "zip of nothing",
              program(INTS, new Expr.Zip(List.of(), AT)),
              "zip needs at least one array"
            },
            new Object[] {
              "operator section with two operands",
              program(
                  INTS,
                  new Expr.Map(
                      new FunArg.OperatorRef(BinaryOperator.ADD, List.of(one(), one()), AT),
                      xs(),
                      AT)),
              "at most one operand"
            },
            new Object[] {
              "negative size dimension",
              program(ScalarType.I32, new Expr.Size(-1, xs(), AT)),
              "size(-1"
            },
            new Object[] {
              "negative transpose start",
              program(INTS, new Expr.Transpose(-1, 1, xs(), AT)),
              "transpose(-1, 1"
            },
            new Object[] {
              "built-in given all its arguments in advance",
              program(
                  INTS, new Expr.Map(new FunArg.FunctionRef("sqrt", List.of(one()), AT), xs(), AT)),
              "given 1 in advance"
            },
            new Object[] {
              "lambda of no parameters",
              program(
                  INTS,
                  new Expr.Map(new FunArg.Lambda(ScalarType.I32, List.of(), one(), AT), xs(), AT)),
              "takes 0 arguments"
            },
            new Object[] {
              "call of an unknown function with no arguments",
              program(INTS, new Expr.Call("nothing", List.of(), AT)),
              "unknown function 'nothing'"
            },
            new Object[] {
              "update of an unknown array",
              program(INTS, new Expr.LetWith("a", "b", List.of(one()), one(), xs(), AT)),
              "unknown variable 'b'"
            },
            new Object[] {
              "loop over a tuple pattern of a scalar",
              program(
                  ScalarType.I32,
                  new Expr.Loop(
                      new Pattern.Tuple(List.of(new Pattern.Name("a", AT)), AT),
                      one(),
                      "i",
                      one(),
                      one(),
                      one(),
                      AT)),
              "does not match"
            },
            new Object[] {
              "array of declared sizes that conflict",
              program(
                  INTS,
                  new Expr.Zip(
                      List.of(
                          new Expr.Iota(one(), AT),
                          new Expr.Iota(new Expr.Literal(ScalarValue.i32(2), AT), AT)),
                      AT)),
              "sizes 1 and 2"
            },
            new Object[] {
              "positions of generated code",
              new Program(
                  List.of(
                      new FunDef(
                          "g",
                          ScalarType.I32,
                          List.of(),
                          new Expr.Var("v", SourcePos.NONE),
                          SourcePos.NONE))),
              "unknown variable 'v'"
            });
    return cases.stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    (String) c[0],
                    () -> {
                      L0CompileError e = rejection((Program) c[1]);
                      assertTrue(e.detail().contains((String) c[2]), e.getMessage());
                    }));
  }

  @Test
  void aDeclaredSizeInAParameterTypeIsKept() {
    Type sized = new Type.Array(ScalarType.F64, new Dim.Const(3), false);
    Program p =
        new Program(
            List.of(
                new FunDef(
                    "f", sized, List.of(new Param(sized, "a", AT)), new Expr.Var("a", AT), AT)));
    assertEquals(sized, TypeChecker.check(p).typeOf(p.functions().get(0).body()));
  }

  @Test
  void aVeryDeeplyNestedExpressionIsACompileErrorNotACrash() {
    Expr e = one();
    for (int i = 0; i < 200_000; i++) {
      e = new Expr.Unary(PrefixOperator.NEG, e, AT);
    }
    L0CompileError error = rejection(program(ScalarType.I32, e));
    assertTrue(error.detail().contains("is nested more than 3000 levels deep"), error.getMessage());
  }

  /**
   * A chain of lets built without the parser (as the Java DSL builds one) that nests beyond the
   * limit is named as a chain of lets, with its first let's position: each let's body is a level.
   */
  @Test
  void aLetChainBeyondTheLimitIsNamedWithItsFirstLet() {
    Expr body = new Expr.Var("x5000", new SourcePos("chain.l0", 5002, 3));
    for (int i = 5000; i >= 1; i--) {
      SourcePos line = new SourcePos("chain.l0", i + 1, 3);
      Expr value =
          new Expr.Binary(
              BinaryOperator.ADD, new Expr.Var(i == 1 ? "n" : "x" + (i - 1), line), one(), line);
      body = new Expr.Let(new Pattern.Name("x" + i, line), value, body, line);
    }
    L0CompileError error = rejection(program(ScalarType.I32, body));
    assertEquals(
        "the body of 'f' is nested more than 3000 levels deep, the limit of this implementation:"
            + " it is inside 3000 nested 'let' expressions, the outermost at 2:3; split them into"
            + " functions to nest less",
        error.detail());
    assertEquals(new SourcePos("chain.l0", 3002, 3), error.pos());
  }

  /**
   * Random damage to the appendix programs: parsing and checking fail, if at all, with a compile
   * error.
   */
  @Property(tries = 400)
  void damagedProgramTextIsRejectedCleanly(@ForAll("damagedPrograms") String text) {
    try {
      TypeChecker.check(L0Parser.parse(text, "damaged.l0"));
    } catch (L0CompileError e) {
      assertEquals(L0CompileError.class, e.getClass());
      assertEquals("damaged.l0", e.pos().source());
    }
  }

  @Provide
  Arbitrary<String> damagedPrograms() {
    List<String> texts =
        List.of(
            TestPrograms.text(TestPrograms.P0_BLACKSCHOLES),
            TestPrograms.text(TestPrograms.P1_MATMUL),
            TestPrograms.text(TestPrograms.P2_SHORTEST_PATHS),
            """
            fun *[int] modify(*[int] a, int i, int x) =
              let b = a with [i] <- a[i] + x in
              loop (b) = for j < i do let b[j] = b[j] * 2 in b in
              let {l, r} = split(1, b) in concat(copy(l), map(fn int (int y) => y + x, r))
            """);
    List<String> snippets =
        List.of(
            "",
            " ",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            "let ",
            " in ",
            "a",
            "x",
            "0",
            "1.5",
            "*",
            "*[int]",
            "copy(",
            "op +",
            "fn int (int q) => q",
            "transpose(",
            "zip(",
            "in",
            "=",
            "<-",
            "with",
            "loop");
    return Arbitraries.of(texts)
        .flatMap(
            text ->
                Arbitraries.integers()
                    .between(0, text.length())
                    .tuple3()
                    .flatMap(
                        positions ->
                            Arbitraries.of(snippets)
                                .map(snippet -> damage(text, positions, snippet))));
  }

  private static String damage(
      String text, Tuple.Tuple3<Integer, Integer, Integer> at, String snippet) {
    int from = Math.min(at.get1(), at.get2());
    int to = Math.min(text.length(), from + Math.abs(at.get2() - at.get1()) % 12);
    String once = text.substring(0, from) + snippet + text.substring(to);
    int again = Math.min(at.get3(), once.length());
    return once.substring(0, again) + snippet + once.substring(again);
  }

  /** Programs of the random generator are well typed by construction: the checker accepts them. */
  @Property(tries = 300)
  void randomProgramsCheck(@ForAll("randomPrograms") ProgramCase c) {
    TypedProgram typed = TypeChecker.check(c.program());
    FunDef entry = typed.function(c.entry());
    assertTrue(typed.typeOf(entry.body()).sameShapeAs(entry.returnType()));
    List<Expr> all = new ArrayList<>();
    c.program().functions().forEach(f -> collect(f.body(), all));
    all.forEach(typed::typeOf);
  }

  @Provide
  Arbitrary<ProgramCase> randomPrograms() {
    return RandomPrograms.programs();
  }

  private static void collect(Expr e, List<Expr> into) {
    into.add(e);
    e.children().forEach(c -> collect(c, into));
  }

  private static L0CompileError rejection(Program p) {
    try {
      TypeChecker.check(p);
    } catch (L0CompileError e) {
      assertEquals(L0CompileError.class, e.getClass());
      return e;
    }
    throw new AssertionError("accepted: " + p);
  }
}
