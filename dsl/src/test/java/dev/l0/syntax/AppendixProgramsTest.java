package dev.l0.syntax;

import static dev.l0.syntax.Ast.NONE;
import static dev.l0.syntax.Ast.f64;
import static dev.l0.syntax.Ast.var;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.testing.SourcePositions;
import dev.l0.testing.TestPrograms;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The thesis's appendix programs P0, P1 and P2 (test resources) parse as the thesis means them. */
class AppendixProgramsTest {
  private static final Type MATRIX = Type.array(Type.array(ScalarType.I32));
  private static final Type OPTION = TestPrograms.P0_OPTION;

  private static FunDef function(Program program, String name) {
    return program.function(name).orElseThrow();
  }

  private static List<Type> paramTypes(FunDef f) {
    return f.params().stream().map(Param::type).toList();
  }

  @Test
  void p0PricesOptionsThatCarryTheirOwnRateAndVolatility() {
    Program p0 = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    assertEquals(
        List.of("horner", "abs", "cnd0", "cnd", "go", "blackscholes"),
        p0.functions().stream().map(FunDef::name).toList());
    assertEquals(List.of(OPTION), paramTypes(function(p0, "go")));
    FunDef blackscholes = function(p0, "blackscholes");
    assertEquals(Type.array(ScalarType.F64), blackscholes.returnType());
    assertEquals(List.of(Type.array(OPTION)), paramTypes(blackscholes));
    assertEquals(
        new Expr.Map(new FunArg.FunctionRef("go", List.of(), NONE), var("xs"), NONE),
        SourcePositions.erase(blackscholes.body()));
    Expr.Let coefficients =
        assertInstanceOf(Expr.Let.class, SourcePositions.erase(function(p0, "horner").body()));
    Expr.TupleLit values = assertInstanceOf(Expr.TupleLit.class, coefficients.value());
    assertEquals(f64(-0.356563782), values.elements().get(1));
    assertEquals(5, values.elements().size());
  }

  @Test
  void p1MultipliesTwoMatrices() {
    Program p1 = TestPrograms.load(TestPrograms.P1_MATMUL);
    assertEquals(
        List.of("redplus1", "redplus2", "mul1", "mul2", "replin", "matmultFun", "main"),
        p1.functions().stream().map(FunDef::name).toList());
    assertEquals(ScalarType.I32, function(p1, "redplus1").returnType());
    assertEquals(List.of(MATRIX, MATRIX), paramTypes(function(p1, "main")));
    Expr.Let size =
        assertInstanceOf(Expr.Let.class, SourcePositions.erase(function(p1, "matmultFun").body()));
    assertEquals(new Expr.Size(0, var("a"), NONE), size.value());
    Expr.Let replicated = assertInstanceOf(Expr.Let.class, size.body());
    assertEquals(
        new Expr.Replicate(var("N"), new Expr.Transpose(0, 1, var("b"), NONE), NONE),
        replicated.value());
    Expr.Let curried = assertInstanceOf(Expr.Let.class, replicated.body());
    assertEquals(
        new Expr.Map(new FunArg.FunctionRef("replin", List.of(var("N")), NONE), var("a"), NONE),
        curried.value());
    Expr.Reduce sum =
        assertInstanceOf(Expr.Reduce.class, SourcePositions.erase(function(p1, "redplus1").body()));
    assertEquals(new FunArg.OperatorRef(BinaryOperator.ADD, List.of(), NONE), sum.function());
  }

  @Test
  void p2HasItsBuiltInMatrixAndAnEntryForInputMatrices() {
    Program p2 = TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS);
    assertEquals(List.of(), function(p2, "main").params());
    Expr.Let arr = assertInstanceOf(Expr.Let.class, function(p2, "main").body());
    Expr.ArrayLit rows = assertInstanceOf(Expr.ArrayLit.class, arr.value());
    assertEquals(3, rows.elements().size());
    FunDef shortest = function(p2, "shortest");
    assertEquals(List.of(MATRIX), paramTypes(shortest));
    assertEquals(
        new Expr.Call("floydSbsFun", List.of(new Expr.Size(0, var("D"), NONE), var("D")), NONE),
        SourcePositions.erase(shortest.body()));
    Expr.If min = assertInstanceOf(Expr.If.class, function(p2, "MIN").body());
    assertEquals(BinaryOperator.LT, assertInstanceOf(Expr.Binary.class, min.condition()).op());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        TestPrograms.P0_BLACKSCHOLES,
        TestPrograms.P1_MATMUL,
        TestPrograms.P2_SHORTEST_PATHS
      })
  void printingAnAppendixProgramGivesTextThatParsesToTheSameProgram(String name) {
    Program program = TestPrograms.load(name);
    String printed = L0Printer.print(program);
    Program reparsed = L0Parser.parse(printed, "printed.l0");
    assertEquals(SourcePositions.erase(program), SourcePositions.erase(reparsed));
    assertEquals(printed, L0Printer.print(reparsed));
  }

  @Test
  void positionsNameTheResource() {
    Program p1 = TestPrograms.load(TestPrograms.P1_MATMUL);
    assertEquals("/programs/p1_matmul.l0", p1.functions().get(0).pos().source());
    assertEquals(3, p1.functions().get(0).pos().line());
  }
}
