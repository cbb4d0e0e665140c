package dev.l0.syntax;

import static dev.l0.ir.BinaryOperator.ADD;
import static dev.l0.ir.BinaryOperator.AND;
import static dev.l0.ir.BinaryOperator.BAND;
import static dev.l0.ir.BinaryOperator.BOR;
import static dev.l0.ir.BinaryOperator.EQ;
import static dev.l0.ir.BinaryOperator.LT;
import static dev.l0.ir.BinaryOperator.MUL;
import static dev.l0.ir.BinaryOperator.OR;
import static dev.l0.ir.BinaryOperator.POW;
import static dev.l0.ir.BinaryOperator.SHL;
import static dev.l0.ir.BinaryOperator.SUB;
import static dev.l0.ir.BinaryOperator.XOR;
import static dev.l0.syntax.Ast.NONE;
import static dev.l0.syntax.Ast.bin;
import static dev.l0.syntax.Ast.f64;
import static dev.l0.syntax.Ast.i32;
import static dev.l0.syntax.Ast.name;
import static dev.l0.syntax.Ast.neg;
import static dev.l0.syntax.Ast.parsed;
import static dev.l0.syntax.Ast.tuple;
import static dev.l0.syntax.Ast.tuplePattern;
import static dev.l0.syntax.Ast.var;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.PrefixOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class L0ParserTest {

  @Test
  void binaryOperatorsFollowTheirPrecedence() {
    assertEquals(bin(ADD, var("a"), bin(MUL, var("b"), var("c"))), parsed("a + b * c"));
    assertEquals(bin(MUL, bin(ADD, var("a"), var("b")), var("c")), parsed("(a + b) * c"));
    assertEquals(
        bin(OR, bin(AND, bin(LT, var("a"), var("b")), var("c")), var("d")),
        parsed("a < b && c || d"));
    assertEquals(
        bin(BOR, var("a"), bin(XOR, var("b"), bin(BAND, var("c"), bin(SHL, var("d"), i32(1))))),
        parsed("a | b ^ c & d << 1"));
    assertEquals(bin(EQ, bin(ADD, var("a"), i32(1)), var("b")), parsed("a + 1 = b"));
  }

  @Test
  void operatorsAreLeftAssociativeExceptPow() {
    assertEquals(bin(SUB, bin(SUB, var("a"), var("b")), var("c")), parsed("a - b - c"));
    assertEquals(bin(POW, var("a"), bin(POW, var("b"), var("c"))), parsed("a pow b pow c"));
  }

  @Test
  void prefixOperatorsBindTighterThanBinaryOnes() {
    assertEquals(bin(POW, neg(var("x")), i32(2)), parsed("-x pow 2"));
    assertEquals(bin(MUL, neg(var("r")), var("years")), parsed("-r * years"));
    assertEquals(
        bin(AND, new Expr.Unary(PrefixOperator.NOT, var("a"), NONE), var("b")),
        parsed("not a && b"));
    assertEquals(neg(new Expr.Index(var("a"), List.of(var("i")), NONE)), parsed("-a[i]"));
  }

  @Test
  void minusBeforeANumberIsANegativeLiteral() {
    assertEquals(f64(-0.356), parsed("-0.356"));
    assertEquals(bin(MUL, bin(MUL, f64(-0.5), var("d")), var("d")), parsed("-0.5*d*d"));
    assertEquals(bin(POW, i32(-2), i32(2)), parsed("-2 pow 2"));
    assertEquals(bin(SUB, var("x"), i32(-3)), parsed("x - -3"));
    assertEquals(bin(SUB, var("x"), i32(-3)), parsed("x--3"));
    assertEquals(bin(LT, var("x"), i32(-1)), parsed("x<-1"));
    assertEquals(i32(Integer.MIN_VALUE), parsed("-2147483648"));
    assertEquals(i32(Integer.MIN_VALUE), parsed("-0x80000000"));
    assertEquals(
        new Expr.Literal(ScalarValue.i64(Long.MIN_VALUE), NONE), parsed("-9223372036854775808i64"));
    assertEquals(neg(i32(3)), parsed("-(3)"));
  }

  @ParameterizedTest
  @CsvSource({
    "123, i32, 123",
    "123i32, i32, 123",
    "123i64, i64, 123",
    "0, i32, 0",
    "1.5, f64, 1.5",
    "1e-3, f64, 0.001",
    "1.5e3, f64, 1500",
    "2E2, f64, 200",
    "1.5f32, f32, 1.5",
    "3f32, f32, 3",
    "2.0f64, f64, 2",
    "0x1F, i32, 31",
    "0XfF, i32, 255",
    "0x7fffffff, i32, 2147483647",
    "0x1Fi64, i64, 31",
    "0xffffffffi64, i64, 4294967295",
    "0o17, i32, 15",
    "0O777i64, i64, 511",
  })
  void numericLiteralsHaveTheTypeOfTheirSuffix(String text, String type, double value) {
    Expr.Literal literal = assertInstanceOf(Expr.Literal.class, parsed(text));
    assertEquals(type, literal.value().type().keyword());
    double actual =
        literal.value() instanceof ScalarValue.Int i
            ? i.value()
            : ((ScalarValue.Float) literal.value()).value();
    assertEquals(value, actual, 1e-12);
  }

  @Test
  void f32LiteralsAreRoundedOnceToFloat() {
    assertEquals(new Expr.Literal(ScalarValue.f32(0.1f), NONE), parsed("0.1f32"));
  }

  @Test
  void literalsAtTheEdgesOfTheFloatRangesAreKept() {
    assertEquals(f64(Double.MIN_VALUE), parsed("4.9e-324"));
    assertEquals(f64(Double.MAX_VALUE), parsed("1.7976931348623157e308"));
    assertEquals(new Expr.Literal(ScalarValue.f32(Float.MIN_VALUE), NONE), parsed("1.4e-45f32"));
    assertEquals(
        new Expr.Literal(ScalarValue.f32(Float.MAX_VALUE), NONE), parsed("3.4028235e38f32"));
    assertEquals(f64(0.0), parsed("0.0e-400"));
    assertEquals(f64(0.0), parsed("0e99999"));
  }

  @Test
  void booleanLiteralsHaveBothSpellings() {
    Expr yes = new Expr.Literal(ScalarValue.bool(true), NONE);
    Expr no = new Expr.Literal(ScalarValue.bool(false), NONE);
    assertEquals(yes, parsed("True"));
    assertEquals(yes, parsed("true"));
    assertEquals(no, parsed("False"));
    assertEquals(no, parsed("false"));
  }

  @Test
  void letIfAndLoopExtendAsFarRightAsPossible() {
    assertEquals(
        new Expr.Let(name("x"), i32(1), bin(ADD, var("x"), i32(1)), NONE),
        parsed("let x = 1 in x + 1"));
    assertEquals(
        bin(ADD, var("a"), new Expr.If(var("c"), i32(1), bin(ADD, i32(2), i32(3)), NONE)),
        parsed("a + if c then 1 else 2 + 3"));
    assertEquals(
        bin(MUL, var("a"), new Expr.Let(name("y"), i32(2), bin(ADD, var("y"), var("b")), NONE)),
        parsed("a * let y = 2 in y + b"));
  }

  @Test
  void tupleLiteralsAndPatternsNest() {
    Expr expected =
        new Expr.Let(
            tuplePattern(name("a"), tuplePattern(name("b"), name("c"))),
            tuple(i32(1), tuple(i32(2), i32(3))),
            var("b"),
            NONE);
    assertEquals(expected, parsed("let {a, {b, c}} = {1, {2, 3}} in b"));
    assertEquals(new Expr.TupleLit(List.of(), NONE), parsed("{}"));
    assertEquals(tuple(var("x")), parsed("{x}"));
  }

  @Test
  void letWithAndItsShorthand() {
    Expr update =
        new Expr.LetWith(
            "b",
            "a",
            List.of(i32(2)),
            new Expr.ArrayLit(List.of(i32(1), i32(2)), NONE),
            var("b"),
            NONE);
    assertEquals(update, parsed("let b = a with [2] <- [1,2] in b"));
    Expr shorthand =
        new Expr.LetWith(
            "res", "res", List.of(var("i"), var("j")), var("partsum"), var("res"), NONE);
    assertEquals(shorthand, parsed("let res[i,j] = partsum in res"));
  }

  @Test
  void loopWithInitialValueAndShorthand() {
    Expr full =
        new Expr.Loop(
            name("x"),
            var("a"),
            "i",
            var("n"),
            new Expr.Call("g", List.of(var("x")), NONE),
            var("x"),
            NONE);
    assertEquals(full, parsed("loop (x = a) = for i < n do g(x) in x"));
    Expr shorthand =
        new Expr.Loop(
            tuplePattern(name("x"), tuplePattern(name("y"), name("z"))),
            tuple(var("x"), tuple(var("y"), var("z"))),
            "i",
            var("n"),
            var("x"),
            var("y"),
            NONE);
    assertEquals(shorthand, parsed("loop ({x, {y, z}}) = for i < n do x in y"));
  }

  @Test
  void theThesisImperativeMatrixMultiplicationParses() {
    String text =
        """
        fun *[[int]] matmultImp(int N, [[int]] a, [[int]] b) =
            let res = replicate(N, iota(N)) in
            loop (res) = for i < N do
                loop (res) = for j < N do
                let partsum =
                    let res = 0 in
                    loop (res) = for k < N do
                    let res = res + a[i,k] * b[k,j]
                    in res
                    in res
                    in let res[i,j] = partsum in res
                    in res
                in res
        """;
    FunDef f = L0Parser.parse(text, "matmultImp.l0").functions().get(0);
    assertEquals(new Type.Array(Type.array(ScalarType.I32), Dim.UNKNOWN, true), f.returnType());
    Expr.Loop outer =
        assertInstanceOf(Expr.Loop.class, assertInstanceOf(Expr.Let.class, f.body()).body());
    Expr.Loop inner = assertInstanceOf(Expr.Loop.class, outer.loopBody());
    assertEquals("j", inner.counter());
    Expr.Let partsum = assertInstanceOf(Expr.Let.class, inner.loopBody());
    assertInstanceOf(Expr.LetWith.class, partsum.body());
  }

  @Test
  void conversionsAreCallsByTheirWrittenName() {
    for (String conversion : List.of("f64", "i32", "int", "real", "i64", "f32")) {
      assertEquals(new Expr.Call(conversion, List.of(var("x")), NONE), parsed(conversion + "(x)"));
    }
  }

  @Test
  void arrayConstructsTakeTheirStaticArguments() {
    assertEquals(new Expr.Size(0, var("a"), NONE), parsed("size(a)"));
    assertEquals(new Expr.Size(1, var("a"), NONE), parsed("size(1, a)"));
    assertEquals(new Expr.Transpose(0, 1, var("a"), NONE), parsed("transpose(a)"));
    assertEquals(new Expr.Transpose(-1, 2, var("a"), NONE), parsed("transpose(-1, 2, a)"));
    assertEquals(
        new Expr.Reshape(List.of(var("n"), i32(3)), var("a"), NONE), parsed("reshape((n, 3), a)"));
    assertEquals(
        new Expr.Reshape(List.of(bin(MUL, var("n"), var("m"))), var("a"), NONE),
        parsed("reshape((n*m), a)"));
    assertEquals(new Expr.Zip(List.of(var("a"), var("b"), var("c")), NONE), parsed("zip(a, b, c)"));
    assertEquals(new Expr.Split(i32(2), var("a"), NONE), parsed("split(2, a)"));
    assertEquals(new Expr.Concat(var("a"), var("b"), NONE), parsed("concat(a, b)"));
    assertEquals(new Expr.Copy(var("a"), NONE), parsed("copy(a)"));
    assertEquals(new Expr.Replicate(var("n"), i32(0), NONE), parsed("replicate(n, 0)"));
    assertEquals(new Expr.Unzip(new Expr.Iota(var("n"), NONE), NONE), parsed("unzip(iota(n))"));
  }

  @Test
  void soacFunctionArgumentsInAllForms() {
    Param x = new Param(ScalarType.F64, "x", NONE);
    FunArg lambda =
        new FunArg.Lambda(ScalarType.F64, List.of(x), bin(ADD, var("x"), var("c")), NONE);
    assertEquals(
        new Expr.Map(lambda, var("xs"), NONE), parsed("map(fn real (real x) => x + c, xs)"));
    assertEquals(
        new Expr.Map(new FunArg.FunctionRef("replin", List.of(var("N")), NONE), var("a"), NONE),
        parsed("map ( replin(N), a)"));
    assertEquals(
        new Expr.Filter(new FunArg.FunctionRef("p", List.of(), NONE), var("a"), NONE),
        parsed("filter(p, a)"));
    assertEquals(
        new Expr.Reduce(
            new FunArg.OperatorRef(BinaryOperator.ADD, List.of(), NONE), i32(0), var("a"), NONE),
        parsed("reduce(op +, 0, a)"));
    assertEquals(
        new Expr.Scan(
            new FunArg.OperatorRef(BinaryOperator.POW, List.of(), NONE), f64(1), var("a"), NONE),
        parsed("scan(op pow, 1.0, a)"));
    assertEquals(
        new Expr.Map(
            new FunArg.OperatorRef(BinaryOperator.MUL, List.of(var("c")), NONE), var("a"), NONE),
        parsed("map(op *(c), a)"));
    assertEquals(
        new Expr.Map(new FunArg.FunctionRef("f64", List.of(), NONE), var("a"), NONE),
        parsed("map(f64, a)"));
  }

  @Test
  void lambdaBodiesEndAtTheNextArgument() {
    Expr.Reduce reduce =
        assertInstanceOf(
            Expr.Reduce.class,
            parsed("reduce(fn {int} (int a, int b) => let s = a + b in {s}, {0}, xs)"));
    assertEquals(tuple(i32(0)), reduce.neutral());
    FunArg.Lambda lambda = assertInstanceOf(FunArg.Lambda.class, reduce.function());
    assertEquals(Type.tuple(ScalarType.I32), lambda.returnType());
    assertEquals(List.of("a", "b"), lambda.params().stream().map(Param::name).toList());
  }

  @Test
  void indexingIsPostfixOnNamesParenthesesAndIndexings() {
    assertEquals(new Expr.Index(var("a"), List.of(var("i"), var("j")), NONE), parsed("a[i, j]"));
    Expr call = new Expr.Call("f", List.of(var("x")), NONE);
    assertEquals(new Expr.Index(call, List.of(i32(0)), NONE), parsed("(f(x))[0]"));
    Expr inner = new Expr.Index(var("a"), List.of(var("i")), NONE);
    assertEquals(new Expr.Index(inner, List.of(var("j")), NONE), parsed("a[i][j]"));
  }

  @Test
  void typesInAllForms() {
    assertEquals(ScalarType.I32, L0Parser.parseType("int", "t"));
    assertEquals(ScalarType.F64, L0Parser.parseType("real", "t"));
    assertEquals(ScalarType.I64, L0Parser.parseType("i64", "t"));
    assertEquals(ScalarType.F32, L0Parser.parseType("f32", "t"));
    assertEquals(ScalarType.BOOL, L0Parser.parseType("bool", "t"));
    assertEquals(Type.tuple(), L0Parser.parseType("{}", "t"));
    assertEquals(Type.tuple(ScalarType.I32), L0Parser.parseType("{int}", "t"));
    assertEquals(
        Type.array(Type.array(Type.array(Type.tuple(ScalarType.I32, ScalarType.F64)))),
        L0Parser.parseType("[[[{int, real}]]]", "t"));
    assertEquals(
        new Type.Array(Type.array(ScalarType.F64), Dim.UNKNOWN, true),
        L0Parser.parseType("*[[real]]", "t"));
    assertEquals(
        Type.tuple(new Type.Array(ScalarType.I32, Dim.UNKNOWN, true), ScalarType.I32),
        L0Parser.parseType("{*[int], int}", "t"));
  }

  @Test
  void commentsAndLayoutAreInsignificant() {
    String text = "fun int f(int x) = // the identity\n\tx // done\n// trailing\n";
    FunDef f = L0Parser.parse(text, "f.l0").functions().get(0);
    assertEquals(var("x"), dev.l0.testing.SourcePositions.erase(f.body()));
  }

  @Test
  void anEmptyTextIsAnEmptyProgram() {
    assertEquals(new Program(List.of()), L0Parser.parse("  // nothing\n", "empty.l0"));
  }

  @Test
  void nodesCarryThePositionOfTheirFirstTokenAndBinaryOperationsOfTheirOperator() {
    String text =
        String.join(
            "\n",
            "fun [real] f(int n, [real] xs) =",
            "  let {a, b} = {n, 2} in",
            "  map(fn real (real x) => x * -1.0, xs)");
    FunDef f = L0Parser.parse(text, "pos.l0").functions().get(0);
    assertEquals(new SourcePos("pos.l0", 1, 1), f.pos());
    assertEquals(new SourcePos("pos.l0", 1, 14), f.params().get(0).pos());
    assertEquals(new SourcePos("pos.l0", 1, 21), f.params().get(1).pos());
    Expr.Let let = (Expr.Let) f.body();
    assertEquals(new SourcePos("pos.l0", 2, 3), let.pos());
    assertEquals(new SourcePos("pos.l0", 2, 7), let.pattern().pos());
    assertEquals(new SourcePos("pos.l0", 2, 11), let.pattern().names().get(1).pos());
    assertEquals(new SourcePos("pos.l0", 2, 16), let.value().pos());
    Expr.Map map = (Expr.Map) let.body();
    assertEquals(new SourcePos("pos.l0", 3, 3), map.pos());
    FunArg.Lambda lambda = (FunArg.Lambda) map.function();
    assertEquals(new SourcePos("pos.l0", 3, 7), lambda.pos());
    Expr.Binary times = (Expr.Binary) lambda.body();
    assertEquals(new SourcePos("pos.l0", 3, 29), times.pos());
    assertEquals(new SourcePos("pos.l0", 3, 31), times.right().pos());
    assertEquals(new SourcePos("pos.l0", 3, 37), map.array().pos());
  }
}
