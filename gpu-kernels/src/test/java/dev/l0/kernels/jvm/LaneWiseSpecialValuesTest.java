package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.syntax.L0Parser;
import dev.l0.values.ValueReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * The JVM backend's special paths give the interpreter's results bit for bit on special values and
 * at the edges of their runs: lane-wise calls of inner loops ({@link InnerLoopStages}) and branchy
 * regions whose conditions meet NaN (calls under nested {@code if}s too; a call whose condition
 * reads the array the loop writes stays in the loop), over runs just short of, at and just past a
 * chunk, the shortest staged run and the shortest region run (and none); horizontally fused min,
 * max and sum of -0.0, 0.0 and NaN; rows run two at a time ({@code InterleavedRows}) over no, one
 * and an odd number of rows, sweeps of no step, sweeps with lane-wise calls, and rows that fail
 * among pairs (the interpreter's operation and position); and forms specialised to their launches'
 * integer scalars ({@link LaunchSpecialisations}, at most {@link LaunchSpecialisations#MAX_FORMS}
 * of them) with zero and negative trip counts, a divisor that is the constant 0 in code no row
 * runs, and shifts by negative and large constants. Float results compare as {@link Value} does:
 * -0.0 differs from 0.0, NaNs are equal whatever their payload (README, "--device").
 */
class LaneWiseSpecialValuesTest {
  private static final String[] SPECIAL = {
    "nan",
    "inf",
    "-inf",
    "0.0",
    "-0.0",
    "4.9e-324",
    "-4.9e-324",
    "2.2250738585072014e-308",
    "1e-310",
    "1e300",
    "-1e300",
    "1.7976931348623157e308",
    "1.0",
    "-1.0",
    "709.9",
    "-746.0",
    "710.0",
    "-745.2",
    "1e-20",
    "0.5",
    "2.0",
    "3.0",
    "-2.0",
    "-0.5",
    "0.425",
    "0.575",
    "1e-16",
    "6.0",
    "1e9",
    "3.141592653589793",
    "1e22"
  };

  /** Run lengths at the edges of the lane-wise paths: none, short, a chunk's and a region's. */
  private static final int[] CALL_RUNS = {0, 1, 31, 32, 33, 255, 256, 257};

  private static final int[] REGION_RUNS = {31, 32, 4095, 4096, 4097};

  /** exp, log, sin, cos, erf and pow of special values, every pair of them for pow. */
  private static final String CALLS =
      """
      fun [[f64]] main([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) =>
              map(fn f64 (f64 y) =>
                    exp(y * x) + log(y) * sin(y) - cos(x + y) + erf(y - x) + (y pow x) + (x pow y),
                  ys),
            xs)
      """;

  /**
   * A branchy region whose conditions are NaN for NaN arguments: an inequality, a negated compare,
   * and min and max of signed zeros in its branches.
   */
  private static final String REGION =
      """
      fun f64 poly(f64 r) =
        ((((r * 0.5 + 1.5) * r + 2.5) * r + 3.5) * r + 4.5)
        / ((((r * 0.25 + 1.25) * r + 2.25) * r + 3.25) * r + 1.0)
      fun f64 step(f64 x0, f64 y0) =
        let y = y0 * 2.0 in
        let x = x0 * 0.5 in
        let a = if y != x then let t = poly(y) in t * x else let t = poly(x - y) in t - y in
        let b = if not (y >= a) then let t = poly(a) in min(t, -0.0) + a
                else let t = poly(y) in max(-t, 0.0) in
        a + b
      fun [[f64]] main([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) => map(fn f64 (f64 y) => step(x, y), ys), xs)
      """;

  /**
   * Calls under nested {@code if}s whose conditions are NaN for NaN arguments (each call's cursor
   * advances only where its branch runs), and a call under a condition that reads the array the
   * loop writes (which stays in the loop, the call beside it lane-wise).
   */
  private static final String NESTED_IFS =
      """
      fun [[f64]] main([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) =>
              map(fn f64 (f64 g) =>
                    let f = g * x in
                    let a = if f < g
                            then (if f != f then exp(g) else (if g > 0.0 then log(g) * exp(f) else sin(f) - cos(g)))
                            else (if not (g <= 1.0) then erf(f) + (g pow f) else log(f - g)) in
                    if a = a then a else exp(a),
                  ys),
            xs)
      """;

  private static final String CONDITION_ON_THE_CARRIED_ARRAY =
      """
      fun [[f64]] main([f64] xs, [f64] ys) =
        map(fn [f64] (f64 x) =>
              let zs0 = copy(ys) in
              loop (zs = zs0) = for j < size(0, ys) - 1 do
                let y = ys[j] in
                let a = if zs[j] > 0.0 then exp(y) else log(y) in
                let zs[j + 1] = zs[j + 1] * -0.5 + a * cos(y + x) in zs
              in zs,
            xs)
      """;

  /** Rows run two at a time whose sweeps call exp of what the sweep does not carry, lane-wise. */
  private static final String SWEEPS_WITH_CALLS =
      """
      fun [[f64]] main ([f64] xs, [f64] ys, i32 rows) =
        map(fn [f64] (f64 x) =>
              let n = size(0, ys) in
              let solved = map(fn [f64] (i32 r) =>
                                 loop (b = map(fn f64 (f64 y) => y + x * f64(r), ys)) = for s < n - 1 do
                                   let i = s + 1 in
                                   let e = exp(ys[i] * x + f64(r)) in
                                   let b[i] = b[i] - e / b[i - 1] in b
                                 in b,
                               iota(rows)) in
              map(fn f64 (i32 r) => solved[rows - 1 - r, 0] + solved[r, n - 1], iota(rows)),
            xs)
      """;

  /** Min, max and sum of one array and of a map of it, fused into one redomap. */
  private static final String MIN_MAX_SUM =
      """
      fun {f64, f64, f64, f64, f64} main([f64] a) =
        let b = map(fn f64 (f64 x) => x * -1.0 + 0.0 * x, a) in
        {reduce(fn f64 (f64 p, f64 q) => min(p, q), 1.0 / 0.0, b),
         reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0 / 0.0, b),
         reduce(op +, 0.0, b),
         reduce(fn f64 (f64 p, f64 q) => min(p, q), 1.0 / 0.0, a),
         reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0 / 0.0, a)}
      """;

  /** Rows of sweeps (two at a time on the JVM) that index {@code idx}, which may fail. */
  private static final String SWEEPS =
      """
      fun [[f64]] main ([f64] xs, [f64] ys, i32 rows, [i32] idx) =
        map(fn [f64] (f64 x) =>
              let n = size(0, ys) in
              let solved = map(fn [f64] (i32 r) =>
                                 loop (b = map(fn f64 (f64 y) => y + x * f64(r), ys)) = for s < n - 1 do
                                   let i = s + 1 in
                                   let k = idx[(r * 7 + s) % size(0, idx)] in
                                   let b[i] = b[i] - x / b[i - 1] + ys[k] * 0.0 in b
                                 in b,
                               iota(rows)) in
              map(fn f64 (i32 r) => solved[rows - 1 - r, 0] + solved[r, n - 1], iota(rows)),
            xs)
      """;

  /** Rows of sweeps of which row {@code odd} is one longer, and which may index out of bounds. */
  private static final String IRREGULAR_ROWS =
      """
      fun [[[f64]]] main ([f64] xs, [f64] ys, i32 rows, [i32] idx, i32 odd) =
        map(fn [[f64]] (f64 x) =>
              let n = size(0, ys) in
              map(fn [f64] (i32 r) =>
                    let b1 = loop (b = map(fn f64 (f64 y) => y + x * f64(r), ys)) = for s < n - 1 do
                               let i = s + 1 in
                               let k = idx[r] in
                               let b[i] = b[i] - x / b[i - 1] + ys[k] * 0.0 in b
                             in b in
                    if r = odd then concat(b1, [x]) else b1,
                  iota(rows)),
            xs)
      """;

  /**
   * A loop whose trip count {@code m} a form fixes, with a division and a remainder by {@code k}
   * and an integer power to {@code k} in a branch no row runs (so {@code k} may be 0 or negative),
   * and shifts by {@code s}.
   */
  private static final String SCALARS =
      """
      fun [f64] main([f64] xs, i32 m, i32 k, i32 s, bool flag) =
        map(fn f64 (f64 x) =>
              loop (acc = x) = for i < m do
                let j = if x > 1e300 then (i / k) + (i % k) + (i pow k) else i in
                let sh = (j << s) >> (s % 64) in
                if flag then acc * 1.0000001 + f64(sh) else acc - f64(j * m)
              in acc,
            xs)
      """;

  @Test
  void lanewiseCallsOfSpecialValuesGiveTheInterpretersBitsInRunsOfEveryLength() {
    assertTrue(describe(CALLS).contains("inner loops lane-wise: 1"), describe(CALLS));
    for (int run : CALL_RUNS) {
      assertSameAsInterpreter(CALLS, specials(SPECIAL.length, 1, 0) + " " + specials(run, run, 3));
    }
  }

  @Test
  void aRegionWhoseConditionsMeetNaNGivesTheInterpretersBits() {
    assertTrue(describe(REGION).contains("VectorMath per iteration: region;"), describe(REGION));
    for (int run : REGION_RUNS) {
      assertSameAsInterpreter(REGION, specials(6, run + 1, 2) + " " + specials(run, run, 0));
    }
  }

  @Test
  void callsUnderIfsRunLaneWiseOnlyWhereTheirConditionsDoNotReadTheCarriedArray() {
    assertTrue(describe(NESTED_IFS).contains("inner loops lane-wise: 1"), describe(NESTED_IFS));
    String carried = describe(CONDITION_ON_THE_CARRIED_ARRAY);
    assertTrue(carried.contains("(VectorMath per iteration: cos;"), carried);
    for (int run : CALL_RUNS) {
      assertSameAsInterpreter(NESTED_IFS, "[1.0, -1.0, nan, -0.0, 0.5] " + specials(run, run, 4));
      assertSameAsInterpreter(
          CONDITION_ON_THE_CARRIED_ARRAY, "[1.0, -1.0, nan, -0.0, 0.5] " + specials(run, run, 6));
    }
  }

  @Test
  void fusedMinMaxAndSumKeepSignedZerosAndNaNs() {
    assertTrue(describe(MIN_MAX_SUM).contains("map part staged"), describe(MIN_MAX_SUM));
    Random random = new Random(1);
    String[] kinds = {"0.0", "-0.0", "nan", "inf", "-inf", "4.9e-324", "-4.9e-324"};
    for (int n : new int[] {0, 1, 2, 1023, 1024, 1025}) {
      for (int bound : new int[] {2, 3, kinds.length}) {
        StringJoiner values = new StringJoiner(", ", "[", "]");
        for (int k = 0; k < n; k++) {
          values.add(kinds[random.nextInt(bound)]);
        }
        assertSameAsInterpreter(MIN_MAX_SUM, values.toString());
      }
    }
  }

  @Test
  void rowsRunTwoAtATimeWithLaneWiseCallsGiveTheInterpretersBits() {
    assertTrue(runsRowsInPairs(SWEEPS_WITH_CALLS));
    assertTrue(describe(SWEEPS_WITH_CALLS).contains("VectorMath per iteration: exp"));
    for (int rows : new int[] {0, 1, 2, 3, 7}) {
      for (int n : new int[] {1, 2, 33, 34, 258}) {
        assertSameAsInterpreter(
            SWEEPS_WITH_CALLS, specials(6, rows, 2) + " " + specials(n, n, 0) + " " + rows);
      }
    }
  }

  @Test
  void rowsRunTwoAtATimeGiveTheInterpretersResultsAndFirstFailure() {
    assertTrue(runsRowsInPairs(SWEEPS));
    Random random = new Random(2);
    for (int rows : new int[] {0, 1, 2, 3, 5}) {
      for (int n : new int[] {1, 2, 33}) {
        String arrays = specials(8, rows + n, 1) + " " + specials(n, n, 5) + " " + rows;
        List<Integer> indices = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
          indices.add(random.nextInt(n));
        }
        assertSameAsInterpreter(SWEEPS, arrays + " " + indices);
        for (int failing : new int[] {0, 1, 4}) {
          List<Integer> bad = new ArrayList<>(indices);
          bad.set(failing, n + failing);
          assertSameAsInterpreter(SWEEPS, arrays + " " + bad);
        }
        assertSameAsInterpreter(SWEEPS, arrays + " [-1, 0]");
      }
    }
  }

  /**
   * A map inside a kernel thread whose rows differ in size (row {@code odd} one longer) fails as in
   * the interpreter, at that inner map, {@code irregular array: element 1 has shape [3] but element
   * 0 has shape [4]}; where another row fails later (an index out of bounds in row 2 after the
   * irregular row 1), with that row's error, since the rows' shapes are checked once all ran.
   */
  @Test
  void anIrregularMapInsideAThreadFailsAsInTheInterpreter() {
    assertSameAsInterpreter(IRREGULAR_ROWS, "[1.0, 2.0] [1.0, 2.0, 3.0] 5 [0, 0, 0, 0, 0] 0", true);
    // rows run two at a time report an index without its values (README, "Errors")
    assertSameAsInterpreter(IRREGULAR_ROWS, "[1.0, 2.0] [1.0, 2.0, 3.0] 4 [0, 0, 9, 0] 1", false);
  }

  @Test
  void formsSpecialisedToZeroNegativeAndLargeScalarsGiveTheInterpretersBits() {
    Program program = L0Parser.parse(SCALARS, "scalars.l0");
    JvmKernelExecutor specialising =
        new JvmKernelExecutor(
            2, LaunchSpecialisations.on(JaninoKernels::compile, Runnable::run, 1));
    HostRunner runner = HostRunner.compile(program, specialising);
    // no row reaches the branch that divides by k: none is above 1e300
    String xs = "[nan, -inf, 0.0, -0.0, 4.9e-324, -1.0, 0.5, 1e300, 7.25, -3.5]";
    String[] scalars = {
      "3 0 0 true", "0 0 -1 false", "-5 3 33 true", "16 -1 31 true", "1 -2147483648 -40 false"
    };
    long before = 0;
    for (String values : scalars) {
      List<Value> args = arguments(program, xs + " " + values);
      Value expected = new Interpreter(program).call("main", args);
      // the first launch with these values runs the general form, the second their form
      assertEquals(expected, runner.call("main", args), values + ", general form");
      assertEquals(expected, runner.call("main", args), values + ", specialised form");
      long after = specialising.specialisedLaunches();
      // a negative trip count fixes no short loop: no form
      assertEquals(
          values.startsWith("-") ? before : before + 1, after, values + ": launches of a form");
      before = after;
    }
  }

  /** {@code main} of {@code source} on {@code input}: the interpreter's value, or its failure. */
  private static void assertSameAsInterpreter(String source, String input) {
    assertSameAsInterpreter(source, input, false);
  }

  /**
   * {@code main} of {@code source} on {@code input} gives the interpreter's value, or fails in its
   * operation at its position, and with its message where {@code sameMessage}.
   */
  private static void assertSameAsInterpreter(String source, String input, boolean sameMessage) {
    Program program = L0Parser.parse(source, "special.l0");
    List<Value> args = arguments(program, input);
    HostRunner runner = HostRunner.compile(program, new JvmKernelExecutor(2));
    Value expected;
    try {
      expected = new Interpreter(program).call("main", args);
    } catch (L0RuntimeError interpreted) {
      L0RuntimeError failure =
          assertThrows(L0RuntimeError.class, () -> runner.call("main", args), input);
      assertEquals(
          interpreted.operation() + " at " + interpreted.pos(),
          failure.operation() + " at " + failure.pos(),
          failure.getMessage());
      if (sameMessage) {
        assertEquals(interpreted.getMessage(), failure.getMessage());
      }
      return;
    }
    assertEquals(expected, runner.call("main", args), input);
  }

  private static List<Value> arguments(Program program, String input) {
    return ValueReader.read(
        input,
        program.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
        "input");
  }

  /**
   * An array of {@code n} values: the special ones first (from the {@code rotation}th on), then
   * random ones of every magnitude and sign.
   */
  private static String specials(int n, long seed, int rotation) {
    Random random = new Random(seed);
    StringJoiner values = new StringJoiner(", ", "[", "]");
    for (int k = 0; k < n; k++) {
      values.add(
          k < SPECIAL.length
              ? SPECIAL[(k + rotation) % SPECIAL.length]
              : switch (k % 3) {
                case 0 -> Double.toString(random.nextDouble() * 3 - 1);
                case 1 -> Double.toString((random.nextDouble() - 0.3) * 1500);
                default -> Double.toString(random.nextDouble() * 1e-300);
              });
    }
    return values.toString();
  }

  /** How the JVM backend runs the only kernel of {@code source}'s one SOAC. */
  private static String describe(String source) {
    return JvmKernelForm.describe(onlyKernel(source));
  }

  /** Whether the Java of {@code source}'s one SOAC runs rows of a map two at a time. */
  private static boolean runsRowsInPairs(String source) {
    return JvmGroupRunner.javaSource(onlyKernel(source)).contains(" += 0x2L)");
  }

  /** The first kernel of the group of {@code source}'s one SOAC, lowered for the JVM. */
  private static Kernel onlyKernel(String source) {
    return LoweredPrograms.jvmKernelsOfOnlyPlanKernel(L0Parser.parse(source, "special.l0")).get(0);
  }
}
