package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.opt.KernelKind;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.testing.ProgramCase;
import dev.l0.testing.RandomPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reduction and a map of one array joined into one screma ({@code FUSE-HORIZONTAL-MAP}): on the
 * simulator (blocks of 1 and 32 threads) and the JVM backend the one kernel gives the reference
 * interpreter's accumulators and mapped arrays bit for bit, over no rows, a few, and more than one
 * block of chunks holds; where the map may fail, every backend fails as the interpreter does, in
 * that one kernel. Reductions and maps of different arrays of one outer size ({@code
 * FUSE-HORIZONTAL} and {@code FUSE-HORIZONTAL-MAP} over arrays whose sizes their types name as one,
 * or a zip's assertion shows equal) run the same way: one kernel reading the rows of both arrays.
 */
public class ReductionsAndMapsOnEveryBackendTest {
  /** The sum and the doubled rows of one array. */
  public static final String SUM_AND_DOUBLED =
      """
      fun {f64, [f64]} main([f64] xs) =
        let s = reduce(op +, 0.0, xs) in
        let ys = map(fn f64 (f64 x) => x * 2.0, xs) in
        {s, ys}
      """;

  /** A map producer whose rows a reduction and a map read. */
  public static final String OF_ONE_PRODUCER =
      """
      fun {f64, [f64]} main([f64] xs) =
        let zs = map(fn f64 (f64 x) => x * x + 1.0, xs) in
        {reduce(op +, 0.0, zs), map(fn f64 (f64 z) => z / 3.0, zs)}
      """;

  /** The min, the max and the sum of one array, and a map of it. */
  public static final String MIN_MAX_SUM_AND_SHIFTED =
      """
      fun {f64, [f64], f64, f64} main([f64] a) =
        {reduce(fn f64 (f64 x, f64 y) => if x < y then x else y, 1e308, a),
         map(fn f64 (f64 x) => x - 0.5, a),
         reduce(fn f64 (f64 x, f64 y) => if x < y then y else x, -1e308, a),
         reduce(op +, 0.0, a)}
      """;

  /** A sum beside a map that divides by each row. */
  public static final String SUM_AND_QUOTIENTS =
      """
      fun {int, [int]} main([int] a) = {reduce(op +, 0, a), map(fn int (int x) => 12 / x, a)}
      """;

  /**
   * A product beside a map of two results of other types, one of them the row itself, and a
   * constant.
   */
  public static final String PRODUCT_AND_ROWS_OF_OTHER_TYPES =
      """
      fun {int, [{int, bool, f64}]} main([int] a) =
        {reduce(op *, 1, a), map(fn {int, bool, f64} (int x) => {x, x > 2, 0.5}, a)}
      """;

  /** The sum of one array and its rows scaled by a second array: rows of that array's size. */
  public static final String SUM_AND_SCALED_ROWS =
      """
      fun {f64, [[f64]]} main([f64] xs, [f64] ws) =
        let s = reduce(op +, 0.0, xs) in
        let ys = map(fn [f64] (f64 x) => map(fn f64 (f64 w) => x * w, ws), xs) in
        {s, ys}
      """;

  /** The maximum of one array beside rows that are matrices: the outer product of ws, scaled. */
  public static final String MAX_AND_SCALED_MATRICES =
      """
      fun {f64, [[[f64]]]} main([f64] xs, [f64] ws) =
        {reduce(fn f64 (f64 a, f64 b) => if a < b then b else a, -1e308, xs),
         map(fn [[f64]] (f64 x) =>
               map(fn [f64] (f64 v) => map(fn f64 (f64 w) => x * v * w, ws), ws), xs)}
      """;

  /** A sum beside a map whose rows divide a second array by each row. */
  public static final String SUM_AND_QUOTIENT_ROWS =
      """
      fun {int, [[int]]} main([int] xs, [int] ws) =
        {reduce(op +, 0, xs), map(fn [int] (int x) => map(fn int (int w) => w / x, ws), xs)}
      """;

  /**
   * The maximum of a scan's prefixes and the sum of the scan's input, two arrays whose types name
   * one size (of integers: a parallel scan of floats may round its prefixes otherwise than the
   * interpreter's sequential one).
   */
  public static final String MAX_OF_PREFIXES_AND_SUM =
      """
      fun {int, int} main([int] xs) =
        let ps = scan(op +, 0, xs) in
        {reduce(fn int (int a, int b) => if a < b then b else a, -1000000000, ps), reduce(op +, 0, xs)}
      """;

  /** The sum of one array and the halved rows of another, whose sizes a zip's assertion checks. */
  public static final String SUM_AND_HALVED_OF_ZIPPED =
      """
      fun {f64, [f64], f64} main([f64] xs, [f64] ys) =
        let z = zip(xs, ys) in
        let {x, y} = z[0] in
        {reduce(op +, 0.0, xs), map(fn f64 (f64 v) => v * 0.5, ys), x - y}
      """;

  /** The product of one array and the quotients of another's rows, of sizes a zip checks. */
  public static final String PRODUCT_AND_QUOTIENTS_OF_ZIPPED =
      """
      fun {int, [int], int} main([int] a, [int] b) =
        let z = zip(a, b) in
        let {x, y} = z[0] in
        {reduce(op *, 1, a), map(fn int (int v) => 12 / v, b), x + y}
      """;

  /**
   * Maps of two arrays whose sizes a zip's assertion checks, of their prefixes and of their input.
   */
  public static final String MAPS_OF_ZIPPED_AND_OF_PREFIXES =
      """
      fun {[f64], [f64], [f64], f64} main([f64] xs, [f64] ys) =
        let z = zip(xs, ys) in
        let {x, y} = z[0] in
        let ps = scan(op +, 0, map(fn int (f64 v) => if v < 0.0 then 1 else 2, xs)) in
        {map(fn f64 (f64 v) => v * 2.0, xs), map(fn f64 (f64 v) => v + 1.0, ys),
         map(fn f64 (int p) => f64(p) * 0.5, ps), x + y}
      """;

  /** {@code n} integers of mixed signs, as L0 text. */
  private static String ints(int n) {
    Random random = new Random(n);
    List<String> elements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      elements.add(Integer.toString(random.nextInt(2001) - 800));
    }
    return "[" + String.join(", ", elements) + "]";
  }

  /** {@code n} doubles of mixed signs and magnitudes, as L0 text. */
  private static String reals(int n) {
    Random random = new Random(n);
    List<String> elements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      elements.add(
          Double.toString((random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(12) - 6)));
    }
    return "[" + String.join(", ", elements) + "]";
  }

  @Test
  void aSumAndAMapOfOneArrayRunAsOneKernel() {
    for (int n : List.of(0, 1, 7, 300)) {
      EveryBackend.assertRunsAs(List.of("screma"), SUM_AND_DOUBLED, "screma.l0", reals(n));
    }
  }

  @Test
  void aReductionAndAMapOfOneProducerRunAsOneKernel() {
    for (int n : List.of(0, 5, 300)) {
      EveryBackend.assertRunsAs(List.of("screma"), OF_ONE_PRODUCER, "screma.l0", reals(n));
    }
  }

  @Test
  void minMaxSumAndAMapRunAsOneKernel() {
    for (int n : List.of(0, 3, 300)) {
      EveryBackend.assertRunsAs(List.of("screma"), MIN_MAX_SUM_AND_SHIFTED, "screma.l0", reals(n));
    }
  }

  @Test
  void mapOutputsOfOtherTypesThanTheAccumulatorsAreWritten() {
    for (String a : List.of("[]", "[3]", "[7, 2, -3, 1, 5, 2, 9, 4, 1, 1, 2]")) {
      EveryBackend.assertRunsAs(List.of("screma"), PRODUCT_AND_ROWS_OF_OTHER_TYPES, "screma.l0", a);
    }
  }

  @Test
  void reductionsOfAScanAndOfItsInputRunAsOneKernelAfterTheScan() {
    for (int n : List.of(0, 1, 7, 300)) {
      EveryBackend.assertRunsAs(
          List.of("scan", "redomap"), MAX_OF_PREFIXES_AND_SUM, "prefixes.l0", ints(n));
    }
  }

  @Test
  void aSumAndAMapOfTwoArraysOfOneSizeRunAsOneKernel() {
    for (int n : List.of(1, 7, 300)) {
      EveryBackend.assertRunsAs(
          List.of("screma"),
          SUM_AND_HALVED_OF_ZIPPED,
          "zipped.l0",
          reals(n) + " " + reals(n).replace("-", ""));
    }
  }

  /**
   * Two maps of arrays whose sizes a zip checks and a map of a scan's prefixes over one of them:
   * one map kernel after the scan.
   */
  @Test
  void mapsOfArraysOfOneSizeRunAsOneKernel() {
    for (int n : List.of(1, 7, 300)) {
      EveryBackend.assertRunsAs(
          List.of("scanomap", "map"),
          MAPS_OF_ZIPPED_AND_OF_PREFIXES,
          "maps.l0",
          reals(n) + " " + reals(n).replace("-", ""));
    }
  }

  /**
   * Where the map over the second array may fail, the one kernel fails as the interpreter does;
   * where the zip's sizes differ, its check fails before any kernel runs.
   */
  @Test
  void aMapOfAnotherArrayOfOneSizeThatMayFailFailsAsTheInterpreterDoes() {
    String zipped = "zipped.l0";
    EveryBackend.assertRunsAs(
        List.of("screma"), PRODUCT_AND_QUOTIENTS_OF_ZIPPED, zipped, "[7, 2, -3] [1, 4, 6]");
    EveryBackend.assertFailsAs(
        List.of("screma"), PRODUCT_AND_QUOTIENTS_OF_ZIPPED, zipped, "[7, 2, -3] [1, 0, 6]");
    EveryBackend.assertFailsAs(
        List.of(), PRODUCT_AND_QUOTIENTS_OF_ZIPPED, zipped, "[7, 2, -3] [1, 6]");
  }

  @Test
  void aMapThatMayFailFailsAsTheInterpreterDoesInTheOneKernel() {
    EveryBackend.assertRunsAs(List.of("screma"), SUM_AND_QUOTIENTS, "screma.l0", "[7, 2, -3, 1]");
    EveryBackend.assertFailsAs(
        List.of("screma"), SUM_AND_QUOTIENTS, "screma.l0", "[7, 2, 0, 1, 0]");
  }

  @Test
  void mapRowsThatAreArraysOfAKnownSizeAreWrittenInPlace() {
    for (int n : List.of(0, 1, 7, 300)) {
      for (String ws : List.of("[]", "[2.0]", "[2.0, -0.5, 3.25]")) {
        EveryBackend.assertRunsAs(
            List.of("screma"), SUM_AND_SCALED_ROWS, "screma.l0", reals(n) + " " + ws);
      }
    }
  }

  @Test
  void mapRowsThatAreMatricesAreWrittenInPlace() {
    for (int n : List.of(0, 5, 300)) {
      for (String ws : List.of("[]", "[2.0, -0.5, 3.25]")) {
        EveryBackend.assertRunsAs(
            List.of("screma"), MAX_AND_SCALED_MATRICES, "screma.l0", reals(n) + " " + ws);
      }
    }
  }

  @Test
  void aMapOfArrayRowsThatMayFailFailsAsTheInterpreterDoesInTheOneKernel() {
    EveryBackend.assertRunsAs(
        List.of("screma"), SUM_AND_QUOTIENT_ROWS, "screma.l0", "[7, 2, -3, 1] [5, 6]");
    EveryBackend.assertRunsAs(
        List.of("screma"), SUM_AND_QUOTIENT_ROWS, "screma.l0", "[7, 0, -3, 1] []");
    EveryBackend.assertFailsAs(
        List.of("screma"), SUM_AND_QUOTIENT_ROWS, "screma.l0", "[7, 2, 0, 1, 0] [5, 6]");
  }

  /**
   * The random programs of the first 300 seeds (of both generators) whose kernel plan holds a
   * screma: there are some, and each runs on the simulator and the JVM backend as the interpreter
   * runs it (or, with a float reduction, as the other backends do).
   */
  @Test
  void randomProgramsWithAScremaRunOnEveryBackend() {
    List<String> problems = new ArrayList<>();
    int scremas = 0;
    for (int seed = 0; seed < 300; seed++) {
      for (ProgramCase c :
          List.of(RandomPrograms.program(seed), RandomPrograms.kernelArrayProgram(seed))) {
        OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(c.program()));
        if (optimized.kernelPlan().kernels().stream()
            .anyMatch(k -> k.kind() == KernelKind.SCREMA)) {
          scremas++;
          problems.addAll(
              KernelArrayProgramsOnEveryBackendTest.problemsOnEveryBackend(
                  "seed " + seed, c, optimized));
        }
      }
    }
    assertTrue(scremas > 0, "no random program makes a screma");
    assertEquals(List.of(), problems.stream().limit(3).toList(), problems.size() + " problems");
  }
}
