package dev.l0.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.Dim;
import dev.l0.ir.Expr;
import dev.l0.ir.FunArg;
import dev.l0.ir.FunDef;
import dev.l0.ir.Pattern;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.Type;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Well-typed programs of every construct check and get the types (with sizes and uniqueness) the
 * rules of thesis ch. 2 and ch. 3 give them. Sub-expressions are named by let-binding them.
 */
class TypeCheckerTest {
  private static final Type I32 = ScalarType.I32;
  private static final Type I64 = ScalarType.I64;
  private static final Type F64 = ScalarType.F64;
  private static final Type BOOL = ScalarType.BOOL;

  // ---------------------------------------------------------------- scalars and control flow

  @Test
  void literalsOperatorsAndConversionsHaveTheirTypes() {
    TypedProgram p =
        check(
            """
        fun bool f(int i, real x, i64 n) =
          let a = 1 in
          let b = 2.5 in
          let c = 3i64 in
          let d = i + 2 * i in
          let e = x / 2.0 pow 3.0 in
          let g = (i & 3) << 1 in
          let h = i < 2 && not (x = 1.0) in
          let k = -n in
          let m = f32(i) in
          let q = exp(x) + sqrt(x) in
          let r = max(n, c) in
          true
        """);
    assertEquals(I32, bound(p, "f", "a"));
    assertEquals(F64, bound(p, "f", "b"));
    assertEquals(I64, bound(p, "f", "c"));
    assertEquals(I32, bound(p, "f", "d"));
    assertEquals(F64, bound(p, "f", "e"));
    assertEquals(I32, bound(p, "f", "g"));
    assertEquals(BOOL, bound(p, "f", "h"));
    assertEquals(I64, bound(p, "f", "k"));
    assertEquals(ScalarType.F32, bound(p, "f", "m"));
    assertEquals(F64, bound(p, "f", "q"));
    assertEquals(I64, bound(p, "f", "r"));
  }

  @Test
  void aProgramFunctionHidesTheBuiltInOfItsName() {
    TypedProgram p =
        check(
            """
        fun bool abs(real x) = x < 0.0
        fun bool f(real y) = let a = abs(y) in a
        """);
    assertEquals(BOOL, bound(p, "f", "a"));
  }

  @Test
  void ifTuplePatternsAndShadowing() {
    TypedProgram p =
        check(
            """
        fun real f(bool c, {int, {real, bool}} t) =
          let {i, {x, b}} = t in
          let y = if c then x else 2.0 in
          let x = i in
          let z = x in
          y
        """);
    assertEquals(I32, bound(p, "f", "i"));
    assertEquals(F64, bound(p, "f", "y"));
    assertEquals(I32, bound(p, "f", "z"), "the second x shadows the first");
    FunDef f = p.function("f");
    assertEquals(F64, p.typeOf(f.body()));
  }

  @Test
  void callsHaveTheDeclaredReturnType() {
    TypedProgram p =
        check(
            """
        fun {int, [real]} g(int n) = {n, replicate(n, 1.0)}
        fun int f() = let r = g(3) in let {a, b} = r in a
        """);
    assertEquals(Type.tuple(I32, Type.array(F64)), bound(p, "f", "r"));
    assertEquals(Type.array(F64), bound(p, "f", "b"));
  }

  @Test
  void loopCounterTakesTheBoundsType() {
    TypedProgram p =
        check(
            """
        fun i64 f(i64 n) =
          loop ({acc, k} = {0i64, 0}) = for i < n do
            let j = i in {acc + j, k + 1}
          in acc
        """);
    assertEquals(I64, bound(p, "f", "j"));
    Expr.Loop loop = first(p.function("f").body(), Expr.Loop.class);
    assertEquals(Type.tuple(I64, I32), p.typeOf(loop.init()));
    assertEquals(I64, p.typeOf(loop));
  }

  // ---------------------------------------------------------------- arrays and shapes

  @Test
  void iotaReplicateAndLiteralsKnowTheirSizes() {
    TypedProgram p =
        check(
            """
        fun int f(int n) =
          let a = iota(5) in
          let b = iota(n) in
          let c = replicate(3, 1.0) in
          let d = replicate(n, a) in
          let e = [[1, 2, 3], [4, 5, 6]] in
          let g = iota(4i64) in
          0
        """);
    assertEquals(new Type.Array(I32, new Dim.Const(5), true), bound(p, "f", "a"));
    assertEquals(new Type.Array(I32, new Dim.Named("n"), true), bound(p, "f", "b"));
    assertEquals(new Type.Array(F64, new Dim.Const(3), true), bound(p, "f", "c"));
    assertEquals(
        new Type.Array(new Type.Array(I32, new Dim.Const(5), false), new Dim.Named("n"), true),
        bound(p, "f", "d"),
        "the element of a replicate is not unique: uniqueness is for the outer array");
    assertEquals(
        new Type.Array(new Type.Array(I32, new Dim.Const(3), false), new Dim.Const(2), false),
        bound(p, "f", "e"),
        "a literal array is not unique (thesis §3.2)");
    assertEquals(new Type.Array(I64, new Dim.Const(4), true), bound(p, "f", "g"));
  }

  @Test
  void anArrayLiteralOfComputedRowsOfDifferentSizesChecks() {
    // Thesis §2.1: "[iota(1), iota(2)] // A run-time error if reached.", unlike [[1, 2], [3]].
    TypedProgram p =
        check(
            """
        fun [[int]] f(bool c) =
          let a = if c then [iota(1), iota(2)] else [[7]] in
          let b = [[iota(1)], [iota(2)]] in
          a
        """);
    assertEquals(
        List.of(new Dim.Const(2), new Dim.Const(1), Dim.UNKNOWN),
        sizes(bound(p, "f", "b")),
        "the rows' sizes that the literals' elements compute are unknown");
  }

  @Test
  void aSizeNamedByAShadowedVariableBecomesUnknown() {
    TypedProgram p =
        check(
            """
        fun [int] f(int n) =
          let a = iota(n) in
          let n = 3 in
          a
        """);
    assertEquals(new Dim.Named("n"), ((Type.Array) bound(p, "f", "a")).size());
    Expr.Var last = lastVar(p.function("f").body());
    assertEquals(Dim.UNKNOWN, ((Type.Array) p.typeOf(last)).size());
  }

  @Test
  void aLoopKeepsTheSizesThatEveryIterationKeeps() {
    TypedProgram p =
        check(
            """
        fun [[real]] f(int n, int k, [real] xs) =
          loop ({acc, rows} = {replicate(n, 0.0), replicate(n, replicate(3, 1.0))}) = for i < k do
            {map(op +, zip(acc, xs)), map(fn [real] ([real] r) => concat(r, r), rows)}
          in
          let sums = acc in
          let grown = rows in
          grown
        """);
    assertEquals(new Dim.Named("n"), ((Type.Array) bound(p, "f", "sums")).size());
    Type.Array grown = (Type.Array) bound(p, "f", "grown");
    assertEquals(new Dim.Named("n"), grown.size(), "a map over the rows keeps their number");
    assertEquals(Dim.UNKNOWN, ((Type.Array) grown.element()).size(), "each row doubles");
  }

  @Test
  void aLoopForgetsTheSizesThatAnIterationMayChange() {
    TypedProgram p =
        check(
            """
        fun [int] f(int n, int k) =
          loop ({a, b, c} = {iota(n), iota(n), iota(n)}) = for i < k do
            {b, concat(b, b), filter(fn bool (int x) => x > i, c)}
          in
          let second = a in
          let third = c in
          second
        """);
    assertEquals(
        Dim.UNKNOWN,
        ((Type.Array) bound(p, "f", "second")).size(),
        "a takes b's size of the iteration before, which the second iteration doubles");
    assertEquals(Dim.UNKNOWN, ((Type.Array) bound(p, "f", "third")).size());
  }

  @Test
  void aLoopBodyThatOnlyFailsUnderTheInitialSizesIsNoError() {
    TypedProgram p =
        check(
            """
        fun int f(int k) =
          loop (a = iota(3)) = for i < k do
            if i = 0 then concat(a, [7]) else map(op +, zip(a, iota(4)))
          in
          let last = a in
          reduce(op +, 0, last)
        """);
    assertEquals(Dim.UNKNOWN, ((Type.Array) bound(p, "f", "last")).size());
  }

  @Test
  void indexingRemovesDimensions() {
    TypedProgram p =
        check(
            """
        fun int f([[real]] m, *[[int]] u) =
          let row = m[0] in
          let x = m[1, 2i64] in
          let urow = u[0] in
          0
        """);
    assertEquals(Type.array(F64), bound(p, "f", "row"));
    assertEquals(F64, bound(p, "f", "x"));
    assertEquals(
        new Type.Array(I32, Dim.UNKNOWN, true),
        bound(p, "f", "urow"),
        "a slice of a unique array is unique");
  }

  @Test
  void arrayOperations() {
    TypedProgram p =
        check(
            """
        fun int f([real] xs, [int] ys) =
          let z = zip(xs, ys, iota(3)) in
          let u = unzip(z) in
          let s = size(0, xs) in
          let r = reshape((2, 3), iota(6)) in
          let m = replicate(2, iota(3)) in
          let t = transpose(m) in
          let cube = reshape((2, 3, 4), iota(24)) in
          let t02 = transpose(0, 2, cube) in
          let t1m1 = transpose(1, -1, cube) in
          let sp = split(2, iota(5)) in
          let cc = concat(iota(2), iota(3)) in
          let cp = copy(xs) in
          s
        """);
    assertEquals(
        new Type.Array(Type.tuple(F64, I32, I32), new Dim.Const(3), false),
        bound(p, "f", "z"),
        "zip takes the first known size");
    assertEquals(
        Type.tuple(
            new Type.Array(F64, new Dim.Const(3), false),
            new Type.Array(I32, new Dim.Const(3), false),
            new Type.Array(I32, new Dim.Const(3), false)),
        bound(p, "f", "u"));
    assertEquals(I32, bound(p, "f", "s"));
    assertEquals(dims(I32, true, 2, 3), bound(p, "f", "r"));
    assertEquals(dims(I32, true, 3, 2), bound(p, "f", "t"));
    assertEquals(
        dims(I32, true, 3, 4, 2),
        bound(p, "f", "t02"),
        "transpose(0, 2) moves dimension 0 to position 2");
    assertEquals(
        dims(I32, true, 3, 2, 4),
        bound(p, "f", "t1m1"),
        "transpose(1, -1) moves dimension 1 to position 0");
    assertEquals(Type.tuple(dims(I32, true, 2), dims(I32, true, 3)), bound(p, "f", "sp"));
    assertEquals(dims(I32, true, 5), bound(p, "f", "cc"));
    assertEquals(new Type.Array(F64, Dim.UNKNOWN, true), bound(p, "f", "cp"), "copy is unique");
  }

  @Test
  void inPlaceUpdatesBindTheSourcesType() {
    TypedProgram p =
        check(
            """
        fun *[[int]] f(int n) =
          let a = replicate(3, iota(4)) in
          let b = a with [1] <- iota(4) in
          let c = b with [0, 2] <- 7 in
          let d = c in
          d
        """);
    assertEquals(dims(I32, true, 3, 4), bound(p, "f", "d"));
  }

  // ---------------------------------------------------------------- SOACs

  @Test
  void soacsWithEveryKindOfFunctionArgument() {
    TypedProgram p =
        check(
            """
        fun real half(real scale, int x) = f64(x) / scale
        fun [real] f([int] xs, [real] ys, real k) =
          let a = map(fn real (int x) => f64(x) * k, iota(4)) in
          let b = map(op +(1), xs) in
          let c = map(half(2.0), xs) in
          let d = map(sqrt, ys) in
          let e = map(op *, zip(ys, ys)) in
          let g = filter(fn bool (real y) => y < k, ys) in
          let h = reduce(op +, 0, xs) in
          let s = scan(op +, 0.0, a) in
          let pair = reduce(fn {int, real} (int i, real x, int j, real y) => {i + j, x + y}, {0, 0.0}, zip(xs, ys)) in
          let rows = map(fn [int] (int i) => iota(3), iota(2)) in
          let mx = reduce(max, 0, xs) in
          s
        """);
    assertEquals(
        new Type.Array(F64, new Dim.Const(4), true),
        bound(p, "f", "a"),
        "map keeps the outer size");
    assertEquals(new Type.Array(I32, Dim.UNKNOWN, true), bound(p, "f", "b"));
    assertEquals(new Type.Array(F64, Dim.UNKNOWN, true), bound(p, "f", "c"));
    assertEquals(new Type.Array(F64, Dim.UNKNOWN, true), bound(p, "f", "d"));
    assertEquals(
        new Type.Array(F64, Dim.UNKNOWN, true),
        bound(p, "f", "e"),
        "op * is shimmed over the pairs");
    assertEquals(new Type.Array(F64, Dim.UNKNOWN, true), bound(p, "f", "g"));
    assertEquals(I32, bound(p, "f", "h"));
    assertEquals(
        new Type.Array(F64, new Dim.Const(4), true),
        bound(p, "f", "s"),
        "scan keeps the outer size");
    assertEquals(
        Type.tuple(I32, F64),
        bound(p, "f", "pair"),
        "reduce shims two tuples into four parameters");
    assertEquals(dims(I32, true, 2, 3), bound(p, "f", "rows"));
    assertEquals(I32, bound(p, "f", "mx"));
  }

  @Test
  void expressionsInsideAnonymousFunctionsAreTyped() {
    TypedProgram p =
        check(
            """
        fun [real] f([int] xs) = map(fn real (int x) => let y = f64(x) in y * 2.0, xs)
        """);
    FunArg.Lambda lambda = (FunArg.Lambda) ((Expr.Map) p.function("f").body()).function();
    assertEquals(F64, p.typeOf(lambda.body()));
    assertEquals(F64, bound(p, "f", "y"));
  }

  @Test
  void everyExpressionOfTheProgramHasAType() {
    TypedProgram p =
        check(
            """
        fun [int] f([[int]] m, int n) =
          let t = transpose(m) in
          loop (acc = copy(t[0])) = for i < n do
            let acc[0] = reduce(op +, 0, map(fn int (int x) => x + i, acc)) in acc
          in filter(fn bool (int x) => x > 0, acc)
        """);
    List<Expr> all = new ArrayList<>();
    collect(p.function("f").body(), all);
    assertTrue(all.size() > 20);
    for (Expr e : all) {
      p.typeOf(e);
    }
  }

  // ---------------------------------------------------------------- uniqueness (thesis ch. 3)

  @Test
  void theThesisUniquenessExamplesAreAccepted() {
    TypedProgram p =
        check(
            """
        fun *[int] modify(*[int] a, int i, int x) =
          let b = a with [i] <- a[i] + x in
          b
        fun *[int] replace(*[int] arr, int i, int x) =
          let arr[i] = x in arr
        fun *[int] twice(*[int] a) = replace(replace(a, 0, 1), 1, 2)
        fun [int] fibs(int i, int x) =
          let a = copy([1, 1, 2, 3, 5, 8, 13]) in
          let a[i] = x in a
        fun [int] fib(int n) =
          let arr = replicate(n, 1) in
          loop (arr) = for i < n-2 do
            let arr[i+2] = arr[i] + arr[i+1] in arr
          in arr
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
        """);
    assertTrue(p.typeOf(p.function("matmultImp").body()).isUnique());
    assertEquals(new Type.Array(I32, new Dim.Const(7), true), p.typeOf(p.function("fibs").body()));
  }

  @Test
  void consumingOneBranchAndObservingInTheOtherIsAllowed() {
    check(
        """
        fun int f(*[int] a) = a[0]
        fun int g(*[int] a, bool c) = if c then f(a) else a[0]
        fun int h(*[int] a, int i) = let x = a[i] in let a[i] = x + 1 in a[0]
        """);
  }

  @Test
  void aMapMayUpdateTheRowsOfAUniqueArrayInPlace() {
    TypedProgram p =
        check(
            """
        fun [[int]] f(*[[int]] m) = map(fn [int] (*[int] row) => let row[0] = 1 in row, m)
        """);
    assertEquals(
        new Type.Array(Type.array(I32), Dim.UNKNOWN, true), p.typeOf(p.function("f").body()));
  }

  @Test
  void aUniqueArgumentMayBePassedAsANonUniqueOne() {
    check(
        """
        fun int sum([int] a) = reduce(op +, 0, a)
        fun int f(*[int] a) = let s = sum(a) in let a[0] = s in a[0]
        """);
  }

  @Test
  void aSliceOfAConsumedArrayIsConsumedWithIt() {
    Rejections.assertRejected(
        """
        fun [int] f(*[[int]] m) =
          let row = m[0] in
          let m[1, 0] = 5 in
          row
        """,
        4,
        3,
        "variable 'row' used at 4:3 after it was consumed at 3:7");
  }

  // ---------------------------------------------------------------- the appendix programs

  @ParameterizedTest
  @ValueSource(
      strings = {
        TestPrograms.P0_BLACKSCHOLES,
        TestPrograms.P1_MATMUL,
        TestPrograms.P2_SHORTEST_PATHS
      })
  void theAppendixProgramsCheck(String name) {
    Program program = TestPrograms.load(name);
    TypedProgram typed = TypeChecker.check(program);
    assertSame(program, typed.program());
    for (FunDef f : program.functions()) {
      assertTrue(typed.typeOf(f.body()).sameShapeAs(f.returnType()), f.name());
    }
  }

  @Test
  void blackScholesMapsOptionsToPrices() {
    TypedProgram p = TypeChecker.check(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES));
    assertEquals(
        new Type.Array(F64, Dim.UNKNOWN, true), p.typeOf(p.function("blackscholes").body()));
  }

  @Test
  void matmulKeepsTheReplicatedSize() {
    TypedProgram p = TypeChecker.check(TestPrograms.load(TestPrograms.P1_MATMUL));
    Type replin = p.typeOf(p.function("replin").body());
    assertEquals(new Dim.Named("N"), ((Type.Array) replin).size());
  }

  // ---------------------------------------------------------------- the result object

  @Test
  void typedProgramRejectsForeignExpressionsAndUnknownFunctions() {
    TypedProgram p = check("fun int f() = 1\n");
    assertEquals("f", p.function("f").name());
    assertThrows(IllegalArgumentException.class, () -> p.function("g"));
    assertThrows(
        IllegalArgumentException.class, () -> p.typeOf(L0Parser.parseExpression("1", "other")));
    assertFalse(p.expressionTypes().isEmpty());
  }

  // ---------------------------------------------------------------- helpers

  /** The sizes of an array type's dimensions, outermost first. */
  private static List<Dim> sizes(Type type) {
    List<Dim> sizes = new ArrayList<>();
    for (Type t = type; t instanceof Type.Array a; t = a.element()) {
      sizes.add(a.size());
    }
    return sizes;
  }

  private static TypedProgram check(String text) {
    return TypeChecker.check(L0Parser.parse(text, "test.l0"));
  }

  /**
   * The type {@code name} gets from the {@code let} that binds it (by a name or a tuple pattern) in
   * {@code function}.
   */
  private static Type bound(TypedProgram p, String function, String name) {
    List<Expr> all = new ArrayList<>();
    collect(p.function(function).body(), all);
    for (Expr e : all) {
      if (e instanceof Expr.Let let) {
        Type t = typeOfName(let.pattern(), p.typeOf(let.value()), name);
        if (t != null) {
          return t;
        }
      }
    }
    throw new AssertionError("no let binds " + name);
  }

  private static Type typeOfName(Pattern pattern, Type type, String name) {
    if (pattern instanceof Pattern.Tuple tuple) {
      for (int i = 0; i < tuple.elements().size(); i++) {
        Type t = typeOfName(tuple.elements().get(i), ((Type.Tuple) type).elements().get(i), name);
        if (t != null) {
          return t;
        }
      }
      return null;
    }
    return ((Pattern.Name) pattern).name().equals(name) ? type : null;
  }

  private static Type dims(Type base, boolean unique, long... sizes) {
    Type t = base;
    for (int i = sizes.length - 1; i >= 0; i--) {
      t = new Type.Array(t, new Dim.Const(sizes[i]), i == 0 && unique);
    }
    return t;
  }

  private static <T extends Expr> T first(Expr root, Class<T> kind) {
    List<Expr> all = new ArrayList<>();
    collect(root, all);
    return all.stream().filter(kind::isInstance).map(kind::cast).findFirst().orElseThrow();
  }

  private static Expr.Var lastVar(Expr root) {
    List<Expr> all = new ArrayList<>();
    collect(root, all);
    List<Expr> vars = all.stream().filter(e -> e instanceof Expr.Var).toList();
    return (Expr.Var) vars.get(vars.size() - 1);
  }

  private static void collect(Expr e, List<Expr> into) {
    into.add(e);
    e.children().forEach(c -> collect(c, into));
  }
}
