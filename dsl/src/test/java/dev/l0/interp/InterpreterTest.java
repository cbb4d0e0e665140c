package dev.l0.interp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.ir.Expr;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.math.L0Math;
import dev.l0.semantics.ArrayOperations;
import dev.l0.syntax.L0Parser;
import dev.l0.values.ValueWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Every construct of thesis ch. 2 and every run-time error, on programs written in L0. */
class InterpreterTest {
  /**
   * A program within the nesting limit runs whatever the caller's stack, as it does on the command
   * line: 2,500 chained lets (no recursion) called from a thread of 256 KiB said 'recursion too
   * deep for the interpreter's stack'.
   */
  @Test
  void aDeepButNotRecursiveProgramRunsOnASmallCallersStack() throws InterruptedException {
    StringBuilder source = new StringBuilder("fun int main(int x0) =\n");
    int lets = 2500;
    for (int i = 1; i <= lets; i++) {
      source.append("  let x").append(i).append(" = x").append(i - 1).append(" + 1 in\n");
    }
    source.append("  x").append(lets).append('\n');
    Program program = L0Parser.parse(source.toString(), "lets.l0");
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread small =
        new Thread(
            null,
            () -> {
              try {
                outcome.set(new Interpreter(program).call("main", List.of(ScalarValue.i32(7))));
              } catch (RuntimeException | Error e) {
                outcome.set(e);
              }
            },
            "small stack",
            256 * 1024);
    small.start();
    small.join();
    assertEquals(ScalarValue.i32(7 + lets), outcome.get());
  }

  private static Value run(String program, String function, Value... args) {
    return new Interpreter(L0Parser.parse(program, "test.l0")).call(function, List.of(args));
  }

  /**
   * The value of {@code expression} (in a function with no parameters), as the data format writes
   * it.
   */
  private static String eval(String expression) {
    return ValueWriter.write(run("fun i32 main() = " + expression, "main"));
  }

  /** The run-time error of a program whose {@code main} fails. */
  private static L0RuntimeError failure(String program) {
    return assertThrows(L0RuntimeError.class, () -> run(program, "main"));
  }

  private static void assertFailure(
      String operation, int line, int column, String detail, String program) {
    L0RuntimeError e = failure(program);
    assertEquals(operation, e.operation());
    assertEquals(new SourcePos("test.l0", line, column), e.pos());
    assertEquals(
        "test.l0:" + line + ":" + column + ": " + operation + ": " + detail, e.getMessage());
  }

  // --- scalars -------------------------------------------------------------------------------

  @Test
  void integerArithmeticWrapsAtTheTypesWidth() {
    assertEquals("-2147483648", eval("2147483647 + 1"));
    assertEquals("-2147483648", eval("-(-2147483648)"));
    assertEquals("-9223372036854775808i64", eval("9223372036854775807i64 + 1i64"));
    assertEquals("2147483648i64", eval("2147483647i64 + 1i64"));
    assertEquals("-727379968", eval("1000000 * 1000000"));
  }

  @Test
  void integerDivisionTruncatesTowardZero() {
    assertEquals("{-3, -1, -3, 1, 3}", eval("{-7 / 2, -7 % 2, 7 / -2, 7 % -2, -7 / -2}"));
    assertEquals("-2147483648", eval("-2147483648 / -1"));
  }

  @Test
  void integerDivisionByZeroFails() {
    assertFailure("/", 1, 20, "integer division by zero", "fun i32 main() = 1 / (1 - 1)");
    assertFailure("%", 1, 20, "integer division by zero", "fun i32 main() = 1 % 0");
  }

  @Test
  void integerPowerMultipliesWithWrapAround() {
    assertEquals("1024", eval("2 pow 10"));
    assertEquals("1", eval("5 pow 0"));
    int wrapped = 1;
    for (int i = 0; i < 40; i++) {
      wrapped *= 3;
    }
    assertEquals(Integer.toString(wrapped), eval("3 pow 40"));
    assertFailure(
        "pow", 1, 20, "negative exponent -1 for an integer power", "fun i32 main() = 2 pow -1");
  }

  @Test
  void shiftsMaskTheirCountAsJavaDoes() {
    assertEquals(
        "{2, 8589934592i64, -4, 6, 7, 1}",
        eval("{1 << 33, 1i64 << 33i64, -8 >> 1, 3 ^ 5, 3 | 5, 3 & 5}"));
  }

  @Test
  void floatArithmeticIsIeee() {
    assertEquals("{inf, -inf, nan}", eval("{1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0}"));
    assertEquals(Double.toString(StrictMath.pow(2.0, 0.5)).replace('E', 'e'), eval("2.0 pow 0.5"));
    assertEquals("1.5", eval("7.5 % 2.0"));
  }

  @Test
  void singlePrecisionArithmeticIsDoneInFloat() {
    // in double, 1 + 1e-8 - 1 would be about 1e-8; in float 1 + 1e-8 is 1
    assertEquals("0.0f32", eval("1.0f32 + 1.0e-8f32 - 1.0f32"));
    assertEquals(
        Float.toString((float) StrictMath.pow(1.1f, 2.5f)) + "f32", eval("1.1f32 pow 2.5f32"));
  }

  @Test
  void comparisonsFollowIeeeForNaN() {
    assertEquals(
        "{false, true, false, false}",
        eval("let n = 0.0 / 0.0 in {n = n, n != n, n < 1.0, n >= 1.0}"));
    assertEquals(
        "{true, true, false, true, true, false}",
        eval("{1 < 2, 2 <= 2, 3 > 4, 4 >= 4, 1 != 2, 1 = 2}"));
    assertEquals("{true, false}", eval("{false < true, true = false}"));
    assertEquals("true", eval("-0.0 = 0.0"));
  }

  @Test
  void logicalOperatorsEvaluateBothOperands() {
    assertEquals("{false, true, true}", eval("{true && false, false || true, not false}"));
    assertFailure("/", 1, 31, "integer division by zero", "fun bool main() = false && (1 / 0 = 0)");
    assertFailure("/", 1, 30, "integer division by zero", "fun bool main() = true || (1 / 0 = 0)");
  }

  @Test
  void conversionsTruncateAndSaturate() {
    assertEquals(
        "{3, -3, 0, 2147483647, -2147483648}",
        eval("{i32(3.7), i32(-3.7), i32(0.0 / 0.0), i32(1.0e10), i32(-1.0e10)}"));
    assertEquals(
        "{-9223372036854775808i64, 1, 3.0, 1.6777216e7f32, 2.0, 2}",
        eval("{i64(-1.0e30), i32(4294967297i64), f64(3), f32(16777217), toReal(2), trunc(2.5)}"));
  }

  @Test
  void mathBuiltinsAreL0Math() {
    assertEquals(
        List.of(
            ScalarValue.f64(L0Math.exp(0.3)),
            ScalarValue.f64(L0Math.log(0.3)),
            ScalarValue.f64(L0Math.sqrt(0.3)),
            ScalarValue.f64(L0Math.sin(0.3)),
            ScalarValue.f64(L0Math.cos(0.3)),
            ScalarValue.f64(L0Math.erf(0.3)),
            ScalarValue.f64(-1.0)),
        ((Value.Tuple)
                run(
                    "fun i32 main() = {exp(0.3), log(0.3), sqrt(0.3), sin(0.3), cos(0.3), erf(0.3), floor(-0.3)}",
                    "main"))
            .elements());
    assertEquals(
        List.of(ScalarValue.f32(L0Math.expf(0.3f)), ScalarValue.f32(L0Math.erff(0.3f))),
        ((Value.Tuple) run("fun i32 main() = {exp(0.3f32), erf(0.3f32)}", "main")).elements());
  }

  @Test
  void numericBuiltins() {
    assertEquals(
        "{5, -2147483648, 2.5, 0.0, 1, 9i64, -1.0, nan}",
        eval(
            "{abs(-5), abs(-2147483648), abs(-2.5), abs(-0.0), min(1, 2), max(9i64, 3i64), min(-0.0, 0.0) - 1.0, max(1.0, 0.0 / 0.0)}"));
  }

  @Test
  void theProgramsOwnFunctionHidesTheBuiltin() {
    assertEquals(
        ScalarValue.f64(42.0),
        run("fun real abs(real x) = 42.0\nfun real main() = abs(-1.0)", "main"));
  }

  // --- binding, control, functions -------------------------------------------------------------

  @Test
  void letBindsPatternsAndShadows() {
    assertEquals("{3, 2, 2}", eval("let {a, {b, c}} = {1, {2, 3}} in let a = c in {a, b, c - 1}"));
  }

  @Test
  void ifChoosesABranchAndEvaluatesOnlyThatOne() {
    assertEquals("1", eval("if 1 < 2 then 1 else 1 / 0"));
  }

  @Test
  void recursiveFunctions() {
    assertEquals(
        ScalarValue.i32(3628800),
        run(
            "fun int fact(int n) = if n = 0 then 1 else n * fact(n - 1)\nfun int main() = fact(10)",
            "main"));
  }

  @Test
  void recursionDeeperThanTheStackIsALimitAtTheEntryFunction() {
    L0ResourceError e =
        assertThrows(
            L0ResourceError.class,
            () ->
                run(
                    "fun int down(int n) = if n = 0 then 0 else 1 + down(n - 1)\n"
                        + "fun int main() = down(100000000)",
                    "main"));
    assertEquals(new SourcePos("test.l0", 2, 1), e.pos());
    assertEquals(
        "test.l0:2:1: call: recursion too deep for the interpreter's stack", e.getMessage());
    assertFalse(e.moreHeapHelps());
  }

  /**
   * The limit {@code main(args)} reaches, which it must reach at once: a result too large to hold
   * is refused before it is made (it was built for minutes until the heap ran out).
   */
  private static L0ResourceError tooLarge(String program, int... args) {
    Value[] values = Arrays.stream(args).mapToObj(ScalarValue::i32).toArray(Value[]::new);
    return assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> assertThrows(L0ResourceError.class, () -> run(program, "main", values)));
  }

  /** The message of a {@link #tooLarge} array at 2:3 that the maximum heap could not hold. */
  private static String beyondTheHeap(String operation, long elements, long mib) {
    return "test.l0:2:3: "
        + operation
        + ": "
        + elements
        + " elements need about "
        + mib
        + " MiB, more than the JVM's maximum heap of "
        + (Runtime.getRuntime().maxMemory() >> 20)
        + " MiB";
  }

  private static final String MAP_OF_MAPS =
      "fun [[i32]] main(i32 m, i32 n) =\n"
          + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j * x, iota(n)), iota(m))\n";

  /**
   * A map whose rows are each small but whose result is too large to hold is refused at the map, as
   * soon as its first row is made, with its size: past one flat array as the backends refuse it (a
   * limit that more heap does not lift), or past the heap at 28 bytes a boxed scalar.
   */
  @Test
  void aMapResultTooLargeToHoldIsRefusedAtTheMapOnceItsFirstRowIsMade() {
    L0ResourceError flat = tooLarge(MAP_OF_MAPS, 50000, 50000);
    assertEquals(new SourcePos("test.l0", 2, 3), flat.pos());
    assertEquals(
        "test.l0:2:3: map: 2500000000 elements, more than one flat array holds (2147483639,"
            + " Java's array limit)",
        flat.getMessage());
    assertFalse(flat.moreHeapHelps());
    L0ResourceError heap = tooLarge(MAP_OF_MAPS, 40000, 40000);
    assertEquals(beyondTheHeap("map", 1600000000L, 42724), heap.getMessage());
    assertTrue(heap.moreHeapHelps());
    L0ResourceError computed =
        tooLarge(
            "fun [[i32]] main(i32 m, i32 n) =\n"
                + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j + x, iota(n * 2 + x - x)),"
                + " iota(m))\n",
            50000,
            25000);
    assertEquals(
        "test.l0:2:3: map: 2500000000 elements, more than one flat array holds (2147483639,"
            + " Java's array limit)",
        computed.getMessage());
    assertEquals(
        "[[0, 0], [0, 1], [0, 2]]",
        ValueWriter.write(run(MAP_OF_MAPS, "main", ScalarValue.i32(3), ScalarValue.i32(2))));
  }

  /** A scan whose prefixes are rows is refused as a map is, once its first prefix is made. */
  @Test
  void aScanOfRowsTooLargeToHoldIsRefusedAtTheScan() {
    String scan =
        "fun [[i32]] main(i32 m, i32 n) =\n"
            + "  scan(fn [i32] ([i32] a, [i32] b) => map(op +, zip(a, b)), replicate(n, 0),"
            + " replicate(m, iota(n)))\n";
    assertEquals(
        "test.l0:2:3: scan: 2500000000 elements, more than one flat array holds (2147483639,"
            + " Java's array limit)",
        tooLarge(scan, 50000, 50000).getMessage());
    assertEquals(
        "[[0, 1], [0, 2], [0, 3]]",
        ValueWriter.write(run(scan, "main", ScalarValue.i32(3), ScalarValue.i32(2))));
  }

  /**
   * A reshape or transpose of an array whose rows share one row (a replicate's) makes a reference
   * per element; past one flat array they are refused at once, not built for minutes.
   */
  @Test
  void aReshapeOrTransposeOfMoreElementsThanOneArrayHoldsIsRefusedAtOnce() {
    for (String operation : List.of("reshape((n, m), ", "transpose(")) {
      String program =
          "fun [[i32]] main(i32 m, i32 n) =\n  " + operation + "replicate(m, replicate(n, 1)))\n";
      String name = operation.substring(0, operation.indexOf('('));
      assertEquals(
          "test.l0:2:3: "
              + name
              + ": 2500000000 elements, more than one flat array holds (2147483639, Java's array"
              + " limit)",
          tooLarge(program, 50000, 50000).getMessage());
      assertEquals(
          "[[1, 1], [1, 1], [1, 1]]",
          ValueWriter.write(run(program, "main", ScalarValue.i32(2), ScalarValue.i32(3))));
    }
  }

  /**
   * A replicate holds a reference per element, made twice while the array is made ({@code
   * Value.Array} copies the list of copies): one whose references the maximum heap could hold only
   * once is refused at the replicate, as an iota is, not filled for minutes until a Java heap error
   * without a position.
   */
  @Test
  void aReplicateLargerThanTheHeapCouldHoldIsRefusedAtTheReplicate() {
    long references = Runtime.getRuntime().maxMemory() / 6;
    assumeTrue(references <= ArrayOperations.MAX_LENGTH, "a heap of more than 12 GiB");
    L0ResourceError e = tooLarge("fun [i32] main(i32 n) =\n  replicate(n, 1)\n", (int) references);
    assertEquals(beyondTheHeap("replicate", references, references * 8 >> 20), e.getMessage());
    assertTrue(e.moreHeapHelps());
  }

  @Test
  void loopRebindsItsPatternBoundTimes() {
    assertEquals("10", eval("loop (x = 0) = for i < 5 do x + i in x"));
    assertEquals("7", eval("loop (x = 7) = for i < -3 do x + 1 in x"));
    assertEquals("{55, 89}", eval("loop ({a, b} = {0, 1}) = for i < 10 do {b, a + b} in {a, b}"));
    assertEquals("4i64", eval("loop (x = 0i64) = for i < 4i64 do i + 1i64 in x"));
  }

  @Test
  void theThesisImperativeMatrixMultiplication() {
    String program =
        "fun *[[int]] matmultImp(int N, [[int]] a, [[int]] b) =\n"
            + "  let res = replicate(N, iota(N)) in\n"
            + "  loop (res) = for i < N do\n"
            + "    loop (res) = for j < N do\n"
            + "      let partsum =\n"
            + "        let res = 0 in\n"
            + "        loop (res) = for k < N do\n"
            + "          let res = res + a[i,k] * b[k,j]\n"
            + "          in res\n"
            + "        in res\n"
            + "      in let res[i,j] = partsum in res\n"
            + "    in res\n"
            + "  in res\n"
            + "fun [[int]] main() = matmultImp(2, [[1, 2], [3, 4]], [[5, 6], [7, 8]])";
    assertEquals("[[19, 22], [43, 50]]", ValueWriter.write(run(program, "main")));
  }

  // --- arrays --------------------------------------------------------------------------------

  @Test
  void indexingGivesElementsAndSlices() {
    assertEquals(
        "{6, [4, 5, 6], 1}", eval("let a = [[1, 2, 3], [4, 5, 6]] in {a[1, 2], a[1], (a[0])[0]}"));
  }

  @Test
  void indexingOutOfBoundsFails() {
    assertFailure(
        "index",
        2,
        3,
        "index 7 out of bounds for dimension 0 of size 5",
        "fun int main() = let a = iota(5) in\n  a[7]");
    assertFailure(
        "index",
        1,
        41,
        "index 3 out of bounds for dimension 1 of size 3",
        "fun int main() = let a = [[1, 2, 3]] in a[0, 3]");
    assertFailure(
        "index",
        1,
        37,
        "index -1 out of bounds for dimension 0 of size 5",
        "fun int main() = let a = iota(5) in a[-1]");
  }

  @Test
  void letWithReplacesAnElementOrARow() {
    assertEquals(
        "[[1, 9], [3, 4]]", eval("let a = [[1, 2], [3, 4]] in let b = a with [0, 1] <- 9 in b"));
    assertEquals("[[1, 2], [7, 8]]", eval("let a = [[1, 2], [3, 4]] in let a[1] = [7, 8] in a"));
  }

  @Test
  void letWithChecksBoundsAndShape() {
    assertFailure(
        "update",
        1,
        37,
        "index 5 out of bounds for dimension 0 of size 3",
        "fun int main() = let a = iota(3) in let b = a with [5] <- 1 in b");
    assertFailure(
        "update",
        1,
        46,
        "the new value has shape [3] but the updated part has shape [2]",
        "fun int main() = let a = [[1, 2], [3, 4]] in let b = a with [0] <- [1, 2, 3] in b");
  }

  @Test
  void iotaCountsFromZero() {
    assertEquals("{[0, 1, 2], [], [0i64, 1i64]}", eval("{iota(3), iota(0), iota(2i64)}"));
    assertFailure("iota", 1, 18, "negative size -1", "fun int main() = iota(0 - 1)");
  }

  @Test
  void replicateCopiesAValue() {
    assertEquals("[[1, 2], [1, 2]]", eval("replicate(2, [1, 2])"));
    assertEquals("empty([0][1]f64)", eval("replicate(0, [1.0])"));
    assertFailure("replicate", 1, 18, "negative size -2", "fun int main() = replicate(-2, 0)");
  }

  @Test
  void sizeOfADimension() {
    assertEquals(
        "{2, 3, 2}", eval("let a = [[1, 2, 3], [4, 5, 6]] in {size(a), size(1, a), size(0, a)}"));
  }

  @Test
  void reshapeRegroupsInRowMajorOrder() {
    assertEquals("[[0, 1, 2], [3, 4, 5]]", eval("reshape((2, 3), iota(6))"));
    assertEquals("[0, 1, 2, 3, 4, 5]", eval("reshape((6), [[0, 1], [2, 3], [4, 5]])"));
    assertEquals("[[[0], [1]], [[2], [3]]]", eval("reshape((2, 2, 1), [[0, 1], [2, 3]])"));
    assertEquals("empty([0][4]i32)", eval("reshape((0, 4), iota(0))"));
    assertEquals("[[], [], []]", eval("reshape((3, 0), iota(0))"));
  }

  @Test
  void reshapeToADifferentElementCountFails() {
    assertFailure(
        "reshape",
        1,
        18,
        "cannot reshape an array of shape [2][3] (6 elements) into shape (4, 2) (8 elements)",
        "fun int main() = reshape((4, 2), [[1, 2, 3], [4, 5, 6]])");
    assertFailure(
        "reshape",
        1,
        18,
        "negative size -1 in the new shape",
        "fun int main() = reshape((-1, -6), iota(6))");
  }

  @Test
  void transposeSwapsTheTwoOuterDimensions() {
    assertEquals("[[1, 4], [2, 5], [3, 6]]", eval("transpose([[1, 2, 3], [4, 5, 6]])"));
    assertEquals("[[1, 4], [2, 5], [3, 6]]", eval("transpose(0, 1, [[1, 2, 3], [4, 5, 6]])"));
  }

  @Test
  void generalisedTransposeMovesDimensionKByN() {
    String a = "reshape((2, 3, 4), iota(24))";
    // a[i0, i1, i2] = 12 i0 + 4 i1 + i2
    Value.Array moved = (Value.Array) run("fun int main() = transpose(0, 2, " + a + ")", "main");
    Value.Array inner = (Value.Array) run("fun int main() = transpose(1, 1, " + a + ")", "main");
    for (int i0 = 0; i0 < 2; i0++) {
      for (int i1 = 0; i1 < 3; i1++) {
        for (int i2 = 0; i2 < 4; i2++) {
          ScalarValue expected = ScalarValue.i32(12 * i0 + 4 * i1 + i2);
          assertEquals(expected, element(moved, i1, i2, i0)); // dimension 0 moved to position 2
          assertEquals(expected, element(inner, i0, i2, i1)); // dimensions 1 and 2 swapped
        }
      }
    }
  }

  private static Value element(Value.Array a, int... index) {
    Value current = a;
    for (int i : index) {
      current = ((Value.Array) current).get(i);
    }
    return current;
  }

  @Test
  void splitGivesTheFirstNElementsAndTheRest() {
    assertEquals("{[0, 1], [2, 3, 4]}", eval("split(2, iota(5))"));
    assertEquals("{[], [0, 1]}", eval("split(0, iota(2))"));
    assertEquals("{[0, 1], []}", eval("split(2, iota(2))"));
    assertFailure(
        "split",
        1,
        18,
        "split point 3 outside 0..2 (the outer size of the array)",
        "fun int main() = split(3, iota(2))");
  }

  @Test
  void concatJoinsRowsOfOneShape() {
    assertEquals("[[1], [2], [3]]", eval("concat([[1]], [[2], [3]])"));
    assertFailure(
        "concat",
        1,
        18,
        "the rows of the first array have shape [1] but those of the second have shape [2]",
        "fun int main() = concat([[1]], [[2, 3]])");
  }

  @Test
  void copyIsTheIdentity() {
    assertEquals("[0, 1]", eval("copy(iota(2))"));
  }

  @Test
  void zipAndUnzip() {
    assertEquals(
        "[{0, 1.0, true}, {1, 2.0, false}]", eval("zip(iota(2), [1.0, 2.0], [true, false])"));
    assertEquals("{[0, 1], [1.0, 2.0]}", eval("unzip(zip(iota(2), [1.0, 2.0]))"));
    assertFailure(
        "zip",
        1,
        18,
        "argument 2 has outer size 2 but argument 1 has outer size 3",
        "fun int main() = zip(iota(3), iota(2))");
  }

  @Test
  void irregularArrayLiteralsFailAtRunTime() {
    assertFailure(
        "array literal",
        1,
        18,
        "irregular array: element 1 has shape [2] but element 0 has shape [1]",
        "fun int main() = [iota(1), iota(2)]");
    // regularity reaches through tuples (thesis §2.3.2)
    assertFailure(
        "array literal",
        1,
        18,
        "irregular array: element 1 has shape {[2], scalar} but element 0 has shape {[1], scalar}",
        "fun int main() = [{iota(1), 1.0}, {iota(2), 2.0}]");
  }

  // --- SOACs ---------------------------------------------------------------------------------

  @Test
  void mapAppliesAnAnonymousFunctionThatSeesItsScope() {
    assertEquals("[10, 12, 14]", eval("let k = 10 in map(fn int (int x) => k + 2 * x, iota(3))"));
  }

  @Test
  void mapAppliesNamedFunctionsCurriedFunctionsAndOperatorSections() {
    String program =
        "fun int add(int a, int b) = a + 10 * b\n"
            + "fun int main() = {map(add(1), iota(3)), map(op +(10), iota(3)), map(op -(10), iota(3)), map(sqrt, [4.0, 9.0])}";
    assertEquals(
        "{[1, 11, 21], [10, 11, 12], [10, 9, 8], [2.0, 3.0]}",
        ValueWriter.write(run(program, "main")));
  }

  @Test
  void tupleShimmingSpreadsTuplesOverParameters() {
    assertEquals("[3, 5]", eval("map(op +, zip([1, 2], [2, 3]))"));
    assertEquals("[2, 6]", eval("map(fn int (int x, int y) => x * y, zip([1, 2], [2, 3]))"));
    assertEquals("[{1, 2}]", eval("map(fn {int, int} ({int, int} p) => p, zip([1], [2]))"));
    assertEquals(
        "{6, 24}",
        eval(
            "reduce(fn {int, int} (int a, int b, int c, int d) => {a + c, b * d}, {0, 1}, zip([1, 2, 3], [2, 3, 4]))"));
  }

  @Test
  void mapOverAnEmptyArrayHasTheFunctionsResultType() {
    assertEquals(
        new Value.Array(ScalarType.F64, List.of()),
        run("fun [real] main() = map(fn real (int x) => f64(x), iota(0))", "main"));
    assertEquals(
        new Value.Array(ScalarType.BOOL, List.of()),
        run("fun [bool] main() = map(op <(1), iota(0))", "main"));
    assertEquals(
        new Value.Array(ScalarType.I64, List.of()),
        run("fun [i64] main() = map(op *, zip(iota(0i64), iota(0i64)))", "main"));
    assertEquals(
        new Value.Array(ScalarType.F32, List.of()),
        run("fun [f32] main() = map(f32, iota(0))", "main"));
  }

  @Test
  void mapOverAnEmptyArrayHasTheInnerSizesOfItsFunctionOnAZeroElement() {
    String program = "fun i32 main([i32] a) = size(1, map(fn [i32] (i32 x) => [x, x], a))";
    assertEquals(
        ScalarValue.i32(2), run(program, "main", new Value.Array(ScalarType.I32, List.of())));
    String named = "fun [[i32]] main(i32 n, [i32] a) = map(fn [i32] (i32 x) => replicate(n, x), a)";
    assertEquals(
        "empty([0][5]i32)",
        ValueWriter.write(
            run(named, "main", ScalarValue.i32(5), new Value.Array(ScalarType.I32, List.of()))));
    String dependent = "fun [[i32]] main([i32] a) = map(fn [i32] (i32 x) => iota(x), a)";
    assertEquals(
        "[]",
        ValueWriter.write(run(dependent, "main", new Value.Array(ScalarType.I32, List.of()))));
    String call = "fun [i32] pair(i32 x) = iota(2)\nfun [[i32]] main([i32] a) = map(pair, a)";
    assertEquals(
        "empty([0][2]i32)",
        ValueWriter.write(run(call, "main", new Value.Array(ScalarType.I32, List.of()))));
    String failsOnZero = "fun [[i32]] main([i32] a) = map(fn [i32] (i32 x) => [10 / x, 1], a)";
    assertEquals(
        "empty([0][2]i32)",
        ValueWriter.write(run(failsOnZero, "main", new Value.Array(ScalarType.I32, List.of()))));
    String rows = "fun [[i32]] main([[i32]] m) = map(fn [i32] ([i32] r) => map(op +(1), r), m)";
    assertEquals(
        "empty([0][3]i32)",
        ValueWriter.write(
            run(
                rows,
                "main",
                Value.Array.empty(
                    Type.array(ScalarType.I32),
                    new dev.l0.ir.Shape.Array(3, dev.l0.ir.Shape.SCALAR)))));
  }

  @Test
  void transposingAnEmptyArrayKeepsItsInnerSize() {
    String program =
        "fun {[[i32]], i32} main(i32 n) = let t = transpose(reshape((0, n), iota(0))) in {t, size(0, t)}";
    assertEquals("{[[], [], []], 3}", ValueWriter.write(run(program, "main", ScalarValue.i32(3))));
  }

  @Test
  void emptyArraysKeepTheirShapeThroughArrayOperations() {
    assertEquals("{empty([0][2]i32), [[1, 2]]}", eval("split(0, [[1, 2]])"));
    assertEquals("empty([0]{[2]i32, i32})", eval("zip(replicate(0, [1, 2]), iota(0))"));
    assertEquals("{empty([0][2]i32), []}", eval("unzip(zip(replicate(0, [1, 2]), iota(0)))"));
    assertEquals("empty([0][2]i32)", eval("filter(fn bool ([i32] r) => false, [[1, 2]])"));
    assertEquals("[[1, 2]]", eval("concat(replicate(0, [5, 6]), [[1, 2]])"));
    assertEquals("[[1, 2]]", eval("concat(replicate(0, [5, 6, 7]), [[1, 2]])"));
    assertEquals("empty([0][3]i32)", eval("concat(replicate(0, [5, 6, 7]), replicate(0, [1, 2]))"));
    assertFailure(
        "concat",
        1,
        18,
        "the rows of the first array have shape [3] but those of the second have shape [2]",
        "fun i32 main() = concat([[5, 6, 7]], [[1, 2]])");
    assertEquals("{1, 2}", eval("let a = replicate(0, [[1, 2]]) in {size(1, a), size(2, a)}"));
  }

  @Test
  void mapProducingIrregularRowsFails() {
    assertFailure(
        "map",
        1,
        18,
        "irregular array: element 1 has shape [1] but element 0 has shape [0]",
        "fun int main() = map(fn [int] (int n) => iota(n), iota(3))");
  }

  @Test
  void filterKeepsMatchingElementsInOrder() {
    assertEquals("[0, 2, 4]", eval("filter(fn bool (int x) => x % 2 = 0, iota(6))"));
    assertEquals("[{3, 1}]", eval("filter(fn bool (int a, int b) => a > b, zip([1, 3], [2, 1]))"));
    assertEquals("[{1, 2}]", eval("filter(op <, zip([1, 3], [2, 1]))"));
    assertEquals("[]", eval("filter(fn bool (int x) => false, iota(3))"));
  }

  @Test
  void reduceIsALeftFoldFromTheNeutralElement() {
    assertEquals("-6", eval("reduce(op -, 0, [1, 2, 3])"));
    assertEquals("0.0", eval("reduce(op +, 0.0, [1.0e16, 1.0, -1.0e16])"));
    assertEquals("5", eval("reduce(op +, 5, iota(0))"));
  }

  @Test
  void scanIsInclusive() {
    assertEquals("[1, 3, 6]", eval("scan(op +, 0, [1, 2, 3])"));
    assertEquals("[-1, -3, -6]", eval("scan(op -, 0, [1, 2, 3])"));
    assertEquals("[]", eval("scan(op +, 0, iota(0))"));
  }

  @Test
  void reduceWhoseOperatorChangesTheAccumulatorsShapeFails() {
    assertFailure(
        "reduce",
        1,
        18,
        "the operator returned a value of shape [2] for an accumulator of shape [1];"
            + " it must keep the accumulator's shape",
        "fun int main() = reduce(fn [int] ([int] a, [int] b) => iota(a[0] + b[0] + 1), [0], [[1], [1]])");
  }

  @Test
  void scanWhoseOperatorChangesTheAccumulatorsShapeFails() {
    assertFailure(
        "scan",
        1,
        18,
        "the operator returned a value of shape [1] for an accumulator of shape [0];"
            + " it must keep the accumulator's shape",
        "fun int main() = scan(fn [int] ([int] a, [int] b) => concat(a, b), iota(0), [iota(1), iota(1)])");
  }

  @Test
  void programsBuiltWithoutTheParserCannotCrashTheInterpreter() {
    Program emptyLiteral =
        new Program(
            List.of(
                new FunDef(
                    "main",
                    Type.array(ScalarType.I32),
                    List.of(),
                    new Expr.ArrayLit(List.of(), SourcePos.NONE),
                    SourcePos.NONE)));
    assertThrows(L0CompileError.class, () -> new Interpreter(emptyLiteral).call("main", List.of()));
    Program emptyZip =
        new Program(
            List.of(
                new FunDef(
                    "main",
                    Type.array(ScalarType.I32),
                    List.of(),
                    new Expr.Zip(List.of(), SourcePos.NONE),
                    SourcePos.NONE)));
    assertThrows(L0CompileError.class, () -> new Interpreter(emptyZip).call("main", List.of()));
    L0CompileError illTyped =
        assertThrows(L0CompileError.class, () -> run("fun int main() = 1 + true", "main"));
    assertEquals(
        "test.l0:1:20: ill-typed program: expected an integer, found a value of type bool",
        illTyped.getMessage());
    assertThrows(
        L0CompileError.class, () -> run("fun int main() = let {a, b} = {1, 2, 3} in a", "main"));
    assertThrows(L0CompileError.class, () -> run("fun int main() = nosuch(1)", "main"));
    assertThrows(L0CompileError.class, () -> run("fun int main() = (iota(2))[0, 0]", "main"));
  }

  // --- the entry point -------------------------------------------------------------------------

  @Test
  void callChecksTheEntryFunctionAndItsArguments() {
    Interpreter interpreter =
        new Interpreter(L0Parser.parse("fun int f([int] a) = a[0]", "test.l0"));
    assertEquals(
        ScalarValue.i32(4),
        interpreter.call(
            "f", List.of(new Value.Array(ScalarType.I32, List.of(ScalarValue.i32(4))))));
    assertThrows(IllegalArgumentException.class, () -> interpreter.call("g", List.of()));
    assertThrows(IllegalArgumentException.class, () -> interpreter.call("f", List.of()));
    assertThrows(
        IllegalArgumentException.class, () -> interpreter.call("f", List.of(ScalarValue.i32(1))));
  }
}
