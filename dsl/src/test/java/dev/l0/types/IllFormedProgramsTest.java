package dev.l0.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of ill-formed programs: syntax errors, type errors, shape mismatches, unknown names,
 * arity mismatches and violations of the uniqueness rules (thesis ch. 2, ch. 3). Each must be
 * rejected with exactly an {@link L0CompileError} at the given line and column, whose message
 * contains the given fragment.
 */
class IllFormedProgramsTest {

  /** One ill-formed program and where and how it must be rejected. */
  record Case(String name, String program, int line, int column, String fragment) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        // ---- syntax ----
        new Case(
            "operator without right operand",
            """
            fun int f(int x) = x +
            """,
            2,
            1,
            "end of input"),
        new Case(
            "== is not L0",
            """
            fun bool f(int x) = x == 1
            """,
            1,
            23,
            "'='"),
        new Case(
            "let without in",
            """
            fun int f() =
              let x = 1 x
            """,
            2,
            13,
            "'in'"),
        new Case(
            "if without else",
            """
            fun int f(bool c) = if c then 1
            """,
            2,
            1,
            "else"),
        new Case(
            "char is not supported",
            """
            fun char f() = 1
            """,
            1,
            5,
            "char"),
        new Case(
            "uniqueness inside an array type",
            """
            fun [*[int]] f() = [[1]]
            """,
            1,
            6,
            "outermost"),

        // ---- names and arity ----
        new Case(
            "unknown variable",
            """
            fun int f(int x) =
              x + y
            """,
            2,
            7,
            "unknown variable 'y'"),
        new Case(
            "unknown function",
            """
            fun int f(int x) =
              g(x)
            """,
            2,
            3,
            "unknown function 'g'"),
        new Case(
            "too few arguments",
            """
            fun int g(int a, int b) = a + b
            fun int f(int x) = g(x)
            """,
            2,
            20,
            "function 'g' expects 2 arguments, got 1"),
        new Case(
            "built-in with too many arguments",
            """
            fun real f(real x) = exp(x, x)
            """,
            1,
            22,
            "function 'exp' expects 1 argument, got 2"),
        new Case(
            "parameter declared twice",
            """
            fun int f(int x, real x) = x
            """,
            1,
            18,
            "parameter 'x' is declared twice"),
        new Case(
            "function defined twice",
            """
            fun int f(int x) = x
            fun int f(int y) = y
            """,
            2,
            1,
            "function 'f' is defined twice (first at 1:1)"),
        new Case(
            "name bound twice in a pattern",
            """
            fun int f() =
              let {a, a} = {1, 2} in a
            """,
            2,
            11,
            "name 'a' is bound twice"),
        new Case(
            "unknown function given to map",
            """
            fun [int] f([int] xs) = map(g, xs)
            """,
            1,
            29,
            "unknown function 'g'"),
        new Case(
            "function given to map with all its arguments",
            """
            fun int g(int a, int b) = a + b
            fun [int] f([int] xs) = map(g(1, 2), xs)
            """,
            2,
            29,
            "takes 2 arguments; given 2 in advance, it has none left"),

        // ---- scalar types ----
        new Case(
            "int plus real",
            """
            fun real f(int x, real y) =
              x + y
            """,
            2,
            7,
            "operator '+' needs operands of one type, got i32 and f64"),
        new Case(
            "i64 plus an int literal: the hint writes the literal as an i64",
            """
            fun i64 f(i64 cents) =
              cents + 1
            """,
            2,
            11,
            "operator '+' needs operands of one type, got i64 and i32 (write the literal as 1i64"
                + " to make it an i64)"),
        new Case(
            "an int literal times a real: the hint writes the literal as a real",
            """
            fun real f(real x) =
              2 * x
            """,
            2,
            7,
            "operator '*' needs operands of one type, got i32 and f64 (write the literal as 2.0"
                + " to make it an f64)"),
        new Case(
            "f32 divided by a real literal: the hint writes the literal as an f32",
            """
            fun f32 f(i32 days) =
              f32(days) / 365.25
            """,
            2,
            15,
            "operator '/' needs operands of one type, got f32 and f64 (write the literal as"
                + " 365.25f32 to make it an f32)"),
        new Case(
            "ordering booleans",
            """
            fun bool f(bool a, bool b) = a < b
            """,
            1,
            30,
            "needs a numeric operand, got bool"),
        new Case(
            "bitwise and on reals",
            """
            fun real f(real a) = a & a
            """,
            1,
            22,
            "needs an integer operand"),
        new Case(
            "logical and on ints",
            """
            fun bool f(int a) = a && true
            """,
            1,
            21,
            "needs a bool operand, got i32"),
        new Case(
            "not of an int",
            """
            fun bool f(int a) = not a
            """,
            1,
            25,
            "operator 'not' needs a bool operand"),
        new Case(
            "negating a bool",
            """
            fun bool f() = -true
            """,
            1,
            17,
            "operator '-' needs a numeric operand, got bool"),
        new Case(
            "exp of an int",
            """
            fun int f(int a) = exp(a)
            """,
            1,
            24,
            "function 'exp' needs an f32 or f64 argument, got i32"),
        new Case(
            "min of int and real",
            """
            fun int f(int a) = min(a, 2.0)
            """,
            1,
            27,
            "function 'min' needs arguments of one type, got i32 and f64"),
        new Case(
            "converting a bool",
            """
            fun real f(bool b) = f64(b)
            """,
            1,
            26,
            "needs a numeric argument, got bool"),
        new Case(
            "if condition not bool",
            """
            fun int f(int x) =
              if x then 1 else 2
            """,
            2,
            6,
            "the condition of 'if' must be bool, got i32"),
        new Case(
            "if branches of different types",
            """
            fun int f(bool c) =
              if c then 1 else 2.0
            """,
            2,
            20,
            "the branches of 'if' must have one type: i32 and f64"),
        new Case(
            "body does not match the return type",
            """
            fun int f(real x) =
              x * 2.0
            """,
            2,
            5,
            "function 'f' must return i32, but its body has type f64"),
        new Case(
            "argument of the wrong type",
            """
            fun int g([int] a) = a[0]
            fun int f(int x) = g(x)
            """,
            2,
            22,
            "argument 1 of function 'g' must have type [i32] (parameter 'a'), got i32"),

        // ---- patterns, indexing, in-place updates, loops ----
        new Case(
            "tuple pattern of the wrong arity",
            """
            fun int f() =
              let {a, b} = {1, 2, 3} in a
            """,
            2,
            7,
            "the pattern {a, b} does not match a value of type {i32, i32, i32}"),
        new Case(
            "tuple pattern on a scalar",
            """
            fun int f(int x) =
              let {a, b} = x in a
            """,
            2,
            7,
            "does not match a value of type i32"),
        new Case(
            "indexing a scalar",
            """
            fun int f(int x) = x[0]
            """,
            1,
            20,
            "index needs an array, got i32"),
        new Case(
            "too many indices",
            """
            fun int f([[int]] m) = m[0, 1, 2]
            """,
            1,
            32,
            "too many indices: 3 for an array of rank 2"),
        new Case(
            "real index",
            """
            fun int f([int] a) = a[1.0]
            """,
            1,
            24,
            "an index must be i32 or i64, got f64"),
        new Case(
            "in-place update of a scalar",
            """
            fun int f(int x) =
              let x[0] = 1 in x
            """,
            2,
            3,
            "in-place update of 'x' needs an array, got i32"),
        new Case(
            "in-place update with a value of the wrong type",
            """
            fun *[int] f(*[int] a) =
              let a[0] = 1.5 in a
            """,
            2,
            14,
            "the value written into 'a' must have type i32, got f64"),
        new Case(
            "in-place update with too many indices",
            """
            fun *[int] f(*[int] a) =
              let a[0, 1] = 1 in a
            """,
            2,
            12,
            "too many indices: 2 for an array of rank 1"),
        new Case(
            "loop bound of type real",
            """
            fun int f(real n) =
              loop (x = 0) = for i < n do x + 1 in x
            """,
            2,
            26,
            "a loop bound must be i32 or i64, got f64"),
        new Case(
            "loop body of the wrong type",
            """
            fun int f(int n) =
              loop (x = 0) = for i < n do 1.0 in x
            """,
            2,
            31,
            "the loop body must have the type of the loop variables, i32, got f64"),

        // ---- array operations and shapes ----
        new Case(
            "zip of a scalar",
            """
            fun [{int, int}] f([int] a) = zip(a, 1)
            """,
            1,
            38,
            "zip needs an array, got i32"),
        new Case(
            "zip of arrays of known different sizes",
            """
            fun [{int, int}] f() = zip([1, 2, 3], [1, 2, 3, 4])
            """,
            1,
            39,
            "zip of arrays of sizes 3 and 4"),
        new Case(
            "unzip of an array of scalars",
            """
            fun {[int]} f([int] a) = unzip(a)
            """,
            1,
            32,
            "unzip needs an array of tuples, got [i32]"),
        new Case(
            "iota of a real",
            """
            fun [int] f() = iota(2.5)
            """,
            1,
            22,
            "iota needs an i32 or i64 size, got f64"),
        new Case(
            "size of a dimension beyond the rank",
            """
            fun int f([[int]] m) = size(2, m)
            """,
            1,
            24,
            "size(2, ...) needs an array of rank at least 3, got [[i32]]"),
        new Case(
            "transpose of a vector",
            """
            fun [int] f([int] a) = transpose(a)
            """,
            1,
            24,
            "transpose needs an array of rank at least 2, but the array has rank 1"),
        new Case(
            "generalised transpose beyond the rank",
            """
            fun [[int]] f([[int]] m) = transpose(0, 2, m)
            """,
            1,
            28,
            "transpose(0, 2, ...) needs 0 <= k < rank and 0 <= k + n < rank"),
        new Case(
            "reshape with a real size",
            """
            fun [[int]] f([int] a) = reshape((2, 1.5), a)
            """,
            1,
            38,
            "reshape needs an i32 or i64 size, got f64"),
        new Case(
            "reshape to a different number of elements",
            """
            fun [[int]] f() = reshape((2, 4), iota(6))
            """,
            1,
            19,
            "reshape of an array of 6 elements into a shape of 8 elements"),
        new Case(
            "concat of arrays of different types",
            """
            fun [int] f([int] a, [real] b) = concat(a, b)
            """,
            1,
            44,
            "concat needs arrays of one type, got [i32] and [f64]"),
        new Case(
            "concat of arrays whose rows differ",
            """
            fun [[int]] f() = concat([[1, 2]], [[1, 2, 3]])
            """,
            1,
            36,
            "concat of arrays whose rows differ: sizes 2 and 3 in dimension 1"),
        new Case(
            "irregular array literal",
            """
            fun [[int]] f() = [[1, 2], [3]]
            """,
            1,
            28,
            "irregular array literal"),
        new Case(
            "irregular array literal one level down",
            """
            fun [[[int]]] f() = [[[1]], [[1, 2]]]
            """,
            1,
            29,
            "irregular array literal: elements 1 and 2 have sizes 1 and 2 in dimension 1"),
        new Case(
            "array literal of mixed types",
            """
            fun [int] f() = [1, 2.0]
            """,
            1,
            21,
            "array literal elements must have one type"),

        // ---- SOACs ----
        new Case(
            "map over a scalar",
            """
            fun [int] f(int x) = map(fn int (int y) => y, x)
            """,
            1,
            47,
            "map needs an array, got i32"),
        new Case(
            "lambda parameter of the wrong type",
            """
            fun [int] f([real] xs) = map(fn int (int y) => y, xs)
            """,
            1,
            38,
            "parameter 1 has type i32, but map passes f64"),
        new Case(
            "lambda body of the wrong type",
            """
            fun [int] f([int] xs) = map(fn int (int y) => 1.0, xs)
            """,
            1,
            47,
            "the anonymous function must return i32, but its body has type f64"),
        new Case(
            "filter with a non-bool predicate",
            """
            fun [int] f([int] xs) = filter(fn int (int y) => y, xs)
            """,
            1,
            32,
            "the function of filter must return bool, got i32"),
        new Case(
            "reduce with a neutral element of the wrong type",
            """
            fun int f([int] xs) = reduce(op +, 0.0, xs)
            """,
            1,
            36,
            "the neutral element of reduce has type f64, but the array's elements have type i32"),
        new Case(
            "reduce with a function of the wrong result",
            """
            fun int f([int] xs) = reduce(fn bool (int a, int b) => a < b, 0, xs)
            """,
            1,
            30,
            "the function of reduce must return i32, got bool"),
        new Case(
            "binary operator mapped over scalars",
            """
            fun [int] f([int] xs) = map(op +, xs)
            """,
            1,
            29,
            "operator section 'op +' takes 2 arguments, but map passes (i32)"),

        // ---- uniqueness (thesis ch. 3) ----
        new Case(
            "use after a let-with consumed the source (Fig. 5)",
            """
            fun [int] f([int] x, [int] y) = x
            fun [int] g(*[int] a, int i) =
              let b = a with [i] <- 2 in
              f(b, a)
            """,
            4,
            8,
            "variable 'a' used at 4:8 after it was consumed at 3:11"),
        new Case(
            "consuming a non-unique parameter",
            """
            fun [int] g([int] a, int i) =
              let a[i] = 1 in a
            """,
            2,
            7,
            "'a' is consumed at 2:7 but parameter 'a' (declared at 1:13) is not unique; declare it *[...] or copy it"),
        new Case(
            "passing a non-unique parameter for a unique one",
            """
            fun int f(*[int] a) = 1
            fun int g([int] b) = f(b)
            """,
            2,
            24,
            "'b' is consumed at 2:24 but parameter 'b' (declared at 2:11) is not unique"),
        new Case(
            "unique result aliasing a non-unique parameter (Fig. 6)",
            """
            fun *[int] broken([[int]] a, int i) =
              a[i]
            """,
            2,
            3,
            "returns a unique array, but its result aliases parameter 'a' (declared at 1:19)"),
        new Case(
            "unique result that is a literal",
            """
            fun *[int] f() = [1, 2, 3]
            """,
            1,
            18,
            "returns a unique array, but its result is not unique"),
        new Case(
            "use of an alias after consumption (Fig. 8)",
            """
            fun [int] g(*[int] a, int i, int x) =
              let b = a in
              let c = a with [i] <- x in
              b
            """,
            4,
            3,
            "variable 'b' used at 4:3 after it was consumed at 3:11"),
        new Case(
            "in-place update of a literal array",
            """
            fun [int] fibs(int i, int x) =
              let a = [1, 1, 2, 3, 5, 8, 13] in
              let a[i] = x in a
            """,
            3,
            7,
            "'a' is consumed at 3:7 but is not a unique array"),
        new Case(
            "a non-unique call result passed for a unique parameter (thesis §3.2, replace2)",
            """
            fun [int] replace2(*[int] arr, int i, int x) =
              let arr[i] = x in arr
            fun [int] main(*[int] a) = replace2(replace2(a, 0, 5), 1, 6)
            """,
            3,
            37,
            "the result of 'replace2' is consumed at 3:37 but is not a unique array"),
        new Case(
            "a literal array passed for a unique parameter",
            """
            fun *[int] f(*[int] a) = a
            fun [int] main() = f([1, 2])
            """,
            2,
            22,
            "the array literal is consumed at 2:22 but is not a unique array"),
        new Case(
            "consumption then observation in one expression",
            """
            fun int f(*[int] a) = 1
            fun int g(*[int] a, int i) = f(a) + a[i]
            """,
            2,
            37,
            "variable 'a' used at 2:37 after it was consumed at 2:32"),
        new Case(
            "observation then consumption in one sequence",
            """
            fun int f(*[int] a) = 1
            fun int g(*[int] a, int i) = a[i] + f(a)
            """,
            2,
            39,
            "variable 'a' is consumed at 2:39 but 'a' is used at 2:30 in the same sequence"),
        new Case(
            "one array passed twice, consumed the second time",
            """
            fun int f([int] a, *[int] b) = 1
            fun int g(*[int] a) = f(a, a)
            """,
            2,
            28,
            "variable 'a' is consumed at 2:28 but 'a' is used at 2:25 in the same sequence"),
        new Case(
            "consuming a free variable in a loop body",
            """
            fun [int] g(*[int] a, int n) =
              loop (x = 0) = for i < n do
                let b = a with [i] <- 1 in x
              in a
            """,
            3,
            13,
            "variable 'a' (bound at 1:13) is consumed at 3:13 inside a loop or anonymous function"),
        new Case(
            "consuming a free variable in an anonymous function",
            """
            fun [int] g(*[int] a, [int] b) =
              map(fn int (int x) => let c = a with [0] <- x in x, b)
            """,
            2,
            33,
            "variable 'a' (bound at 1:13) is consumed at 2:33 inside a loop or anonymous function"),
        new Case(
            "currying a consumed argument (thesis §3.2)",
            """
            fun int f(*[int] a, int x) = x
            fun [int] g(*[int] a, [int] b) = map(f(a), b)
            """,
            2,
            40,
            "function 'f' consumes its parameter 'a', which cannot be given in advance"),
        new Case(
            "let-with value aliasing the source",
            """
            fun *[[int]] g(*[[int]] a) =
              let a[0] = a[1] in a
            """,
            2,
            14,
            "the value written into 'a' aliases 'a'"),
        new Case(
            "loop body reading the initial value it consumes",
            """
            fun [int] g(*[int] a, int n) =
              loop (x = a) = for i < n do
                let x[i] = a[0] in x
              in x
            """,
            3,
            16,
            "variable 'a' used at 3:16 after it was consumed at 2:13"),
        new Case(
            "use after a loop consumed it",
            """
            fun int g(*[int] a, int n) =
              let r = loop (x = a) = for i < n do
                let x[i] = 1 in x
              in x in a[0]
            """,
            4,
            11,
            "variable 'a' used at 4:11 after it was consumed at 2:21"),
        new Case(
            "loop that consumes its variable but returns an outer array",
            """
            fun [int] g(*[int] a, *[int] b, int n) =
              loop (x = a) = for i < n do
                let x[i] = 1 in b
              in x
            """,
            3,
            5,
            "the loop consumes 'x', but its body returns a value aliasing 'b'"),
        new Case(
            "loop that consumes its variable but returns a non-unique array",
            """
            fun [int] g([int] a, int n) =
              loop (x = copy(a)) = for i < n do
                let x[i] = 1 in a
              in x
            """,
            3,
            5,
            "the loop consumes 'x', so its body must return a unique array for it"),
        new Case(
            "consuming through an alias of a non-unique parameter",
            """
            fun [int] g([int] a) =
              let b = a in
              let b[0] = 1 in b
            """,
            3,
            7,
            "'b' is consumed at 3:7 but parameter 'a' (declared at 1:13) is not unique"),
        new Case(
            "non-unique source reported before the value aliasing it",
            """
            fun [[int]] g([[int]] a) =
              let a[0] = a[1] in a
            """,
            2,
            7,
            "parameter 'a' (declared at 1:15) is not unique"),
        new Case(
            "observation and consumption in one tuple",
            """
            fun int f(*[int] a) = 1
            fun int g(*[int] a) =
              let {b, c} = {a[0], f(a)} in b
            """,
            3,
            25,
            "variable 'a' is consumed at 3:25 but 'a' is used at 3:17 in the same sequence"),
        new Case(
            "anonymous function with a unique result aliasing its parameter",
            """
            fun [[int]] g([[int]] m) =
              map(fn *[int] ([int] r) => r, m)
            """,
            2,
            30,
            "the anonymous function returns a unique array, but its result aliases parameter 'r'"),
        new Case(
            "use of an array whose rows a map consumed",
            """
            fun int g(*[[int]] m) =
              let r = map(fn [int] (*[int] row) => let row[0] = 1 in row, m) in
              m[0, 0]
            """,
            3,
            3,
            "variable 'm' used at 3:3 after it was consumed at 2:63"),
        new Case(
            "map consuming the rows of a non-unique array",
            """
            fun [[int]] g([[int]] m) =
              map(fn [int] (*[int] row) => let row[0] = 1 in row, m)
            """,
            2,
            55,
            "'m' is consumed at 2:55 but parameter 'm' (declared at 1:15) is not unique"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isRejectedAtItsPosition(Case c) {
    Rejections.assertRejected(c.program(), c.line(), c.column(), c.fragment());
  }

  @Test
  void theTableIsLargeAndEveryCaseIsDistinct() {
    assertTrue(cases().size() >= 45, "at least 45 ill-formed programs");
    assertEquals(cases().size(), cases().stream().map(Case::program).distinct().count());
  }
}
