package dev.l0.interp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.testing.ReferenceData;
import dev.l0.testing.TestPrograms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The thesis's appendix programs P0, P1 and P2 on the interpreter, against plain Java versions of
 * what they compute and, for P0, against the PARSEC/DerivaGem reference prices.
 */
class AppendixProgramsTest {
  private static final Interpreter P0 =
      new Interpreter(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES));
  private static final Interpreter P1 = new Interpreter(TestPrograms.load(TestPrograms.P1_MATMUL));
  private static final Interpreter P2 =
      new Interpreter(TestPrograms.load(TestPrograms.P2_SHORTEST_PATHS));

  // --- P0: Black-Scholes -----------------------------------------------------------------------

  private record Option(
      boolean call,
      double price,
      double strike,
      double years,
      double rate,
      double volatility,
      double reference) {}

  /**
   * The options of the PARSEC reference data (columns: spot strike rate divq vol T type divs
   * DGrefval).
   */
  private static List<Option> parsecOptions() {
    List<Option> options = new ArrayList<>();
    for (String line : ReferenceData.read("blackscholes/parsec_derivagem_ref.txt").split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      options.add(
          new Option(
              f[6].equals("C"),
              Double.parseDouble(f[0]),
              Double.parseDouble(f[1]),
              Double.parseDouble(f[5]),
              Double.parseDouble(f[2]),
              Double.parseDouble(f[4]),
              Double.parseDouble(f[8])));
    }
    return options;
  }

  /** P0's formula, operation for operation in the program's order, with StrictMath. */
  private static double blackScholesInJava(Option o) {
    double vSqrtT = o.volatility() * StrictMath.sqrt(o.years());
    double d1 =
        (StrictMath.log(o.price() / o.strike())
                + (o.rate() + 0.5 * o.volatility() * o.volatility()) * o.years())
            / vSqrtT;
    double d2 = d1 - vSqrtT;
    double cndD1 = cnd(d1);
    double cndD2 = cnd(d2);
    double xExpRT = o.strike() * StrictMath.exp(-o.rate() * o.years());
    return o.call()
        ? o.price() * cndD1 - xExpRT * cndD2
        : xExpRT * (1.0 - cndD2) - o.price() * (1.0 - cndD1);
  }

  private static double cnd(double d) {
    double k = 1.0 / (1.0 + 0.2316419 * (d < 0.0 ? -d : d));
    double p =
        k
            * (0.31938153
                + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    double c = 0.39894228040143267793994605993438 * StrictMath.exp(-0.5 * d * d) * p;
    return 0.0 < d ? 1.0 - c : c;
  }

  @Test
  void blackScholesPricesTheParsecOptionsWithinTheirTolerance() {
    List<Option> options = parsecOptions();
    assertEquals(40, options.size()); // the file holds 40 options (its README says 39)
    Type optionType = TestPrograms.P0_OPTION;
    List<Value> input = new ArrayList<>();
    for (Option o : options) {
      input.add(
          new Value.Tuple(
              List.of(
                  ScalarValue.bool(o.call()),
                  ScalarValue.f64(o.price()),
                  ScalarValue.f64(o.strike()),
                  ScalarValue.f64(o.years()),
                  ScalarValue.f64(o.rate()),
                  ScalarValue.f64(o.volatility()))));
    }
    Value.Array prices =
        (Value.Array) P0.call("blackscholes", List.of(new Value.Array(optionType, input)));
    assertEquals(options.size(), prices.length());
    for (int i = 0; i < options.size(); i++) {
      Option o = options.get(i);
      double price = ((ScalarValue.Float) prices.get(i)).value();
      assertTrue(
          Math.abs(price - o.reference()) < 1e-4,
          "option " + i + ": " + price + " vs DerivaGem " + o.reference());
      assertEquals(
          blackScholesInJava(o),
          price,
          0.0,
          "option " + i + " differs from the same formula in Java");
    }
  }

  // --- P1: matrix multiplication ---------------------------------------------------------------

  private static int[][] randomMatrix(Random random, int rows, int columns, int bound) {
    int[][] m = new int[rows][columns];
    for (int[] row : m) {
      for (int j = 0; j < columns; j++) {
        row[j] = bound == 0 ? random.nextInt() : random.nextInt(bound);
      }
    }
    return m;
  }

  private static Value toValue(int[][] matrix) {
    List<Value> rows = new ArrayList<>();
    for (int[] row : matrix) {
      List<Value> elements = new ArrayList<>();
      for (int x : row) {
        elements.add(ScalarValue.i32(x));
      }
      rows.add(new Value.Array(ScalarType.I32, elements));
    }
    return new Value.Array(Type.array(ScalarType.I32), rows);
  }

  private static int[][] multiply(int[][] a, int[][] b) {
    int[][] c = new int[a.length][b[0].length];
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b[0].length; j++) {
        int sum = 0;
        for (int k = 0; k < b.length; k++) {
          sum += a[i][k] * b[k][j];
        }
        c[i][j] = sum;
      }
    }
    return c;
  }

  /**
   * P1 multiplies an n x m matrix by an m x n one (matmultFun replicates transpose(b) size(0, a)
   * times and zips).
   */
  @Test
  void matrixMultiplicationAgreesWithATripleLoop() {
    Random random = new Random(1);
    int[][] shapes = {{1, 1}, {2, 2}, {7, 7}, {16, 16}, {2, 3}, {3, 1}, {1, 4}, {5, 2}};
    for (int[] shape : shapes) {
      for (int bound :
          new int[] {100, 0}) { // small entries, and the full int range (products wrap)
        int[][] x = randomMatrix(random, shape[0], shape[1], bound);
        int[][] y = randomMatrix(random, shape[1], shape[0], bound);
        assertEquals(
            toValue(multiply(x, y)),
            P1.call("main", List.of(toValue(x), toValue(y))),
            shape[0] + "x" + shape[1] + " times " + shape[1] + "x" + shape[0]);
      }
    }
  }

  /**
   * A guard against super-linear blow-ups (copying arrays per element, say), not a benchmark: a
   * warm 64 x 64 product takes about 0.15 s on one idle core; the bound leaves room for a busy
   * build machine.
   */
  @Test
  void matrixMultiplicationOf64By64IsFast() {
    Random random = new Random(2);
    int[][] x = randomMatrix(random, 64, 64, 1000);
    int[][] y = randomMatrix(random, 64, 64, 1000);
    P1.call("main", List.of(toValue(x), toValue(y))); // warm-up
    Value product =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5), () -> P1.call("main", List.of(toValue(x), toValue(y))));
    assertEquals(toValue(multiply(x, y)), product);
  }

  @Test
  void matrixMultiplicationOfMismatchedShapesFailsInAZip() {
    Random random = new Random(3);
    L0RuntimeError e =
        assertThrows(
            L0RuntimeError.class,
            () ->
                P1.call(
                    "main",
                    List.of(
                        toValue(randomMatrix(random, 2, 3, 10)),
                        toValue(randomMatrix(random, 2, 3, 10)))));
    assertEquals("zip", e.operation());
  }

  // --- P2: shortest paths ----------------------------------------------------------------------

  /** One step of floydSbsFun: min(D[i][j], fold of MIN from 1200 over k of D[k][j] + D[i][k]). */
  private static int[][] shortestStepInJava(int[][] d) {
    int n = d.length;
    int[][] result = new int[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int partial = 1200;
        for (int k = 0; k < n; k++) {
          int through = d[k][j] + d[i][k];
          partial = partial < through ? partial : through;
        }
        result[i][j] = partial < d[i][j] ? partial : d[i][j];
      }
    }
    return result;
  }

  @Test
  void shortestPathsAgreeWithTheMinPlusStepInJava() {
    Random random = new Random(4);
    for (int n : new int[] {1, 2, 3, 8, 20}) {
      int[][] d = randomMatrix(random, n, n, 1500); // entries above the neutral 1200 too
      assertEquals(
          toValue(shortestStepInJava(d)), P2.call("shortest", List.of(toValue(d))), n + "x" + n);
    }
  }

  @Test
  void shortestPathsMainOnItsBuiltInMatrix() {
    int[][] arr = {{2, 4, 5}, {1, 1000, 3}, {3, 7, 1}};
    assertEquals(toValue(shortestStepInJava(arr)), P2.call("main", List.of()));
  }
}
