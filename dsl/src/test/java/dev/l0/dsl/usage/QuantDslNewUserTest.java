package dev.l0.dsl.usage;

import static dev.l0.dsl.L0.f64;
import static dev.l0.dsl.L0.filter;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.program;
import static dev.l0.dsl.L0.reduce;
import static dev.l0.dsl.L0.zip;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.usage.QuantPrograms.Case;
import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A new user's risk programs in the DSL ({@link QuantPrograms}) are well typed and compute what the
 * same programs written as L0 text compute, bit for bit, as does the DSL program's printed text;
 * where plain Java computes the same thing in the same order, they agree with it too. Their runs
 * optimised and on every backend are in {@code gpu-kernels}' {@code
 * QuantDslProgramsOnEveryBackendTest}.
 */
class QuantDslNewUserTest {
  @TestFactory
  Stream<DynamicTest> eachProgramComputesWhatItsTextComputes() {
    return QuantPrograms.all().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      Program text = L0Parser.parse(c.text(), c.name() + ".l0");
                      Program printed =
                          L0Parser.parse(L0Printer.print(c.staged()), c.name() + " printed.l0");
                      Value expected = run(text, c);
                      assertEquals(
                          ValueWriter.write(expected), ValueWriter.write(run(c.staged(), c)));
                      assertEquals(expected, run(c.staged(), c));
                      assertEquals(expected, run(printed, c));
                    }));
  }

  @Test
  void presentValueIsTheJavaSumOfDiscountedFlows() {
    double[] amounts = {100.0, 100.0, 100.0, 1100.0, -50.0};
    double[] years = {0.5, 1.0, 1.5, 2.0, 0.25};
    double sum = 0.0;
    for (int i = 0; i < amounts.length; i++) {
      sum += amounts[i] * StrictMath.exp(-0.035 * years[i]);
    }
    assertEquals(ScalarValue.f64(sum), run(QuantPrograms.presentValue()));
  }

  @Test
  void maxDrawdownIsJavasRunningPeakMinusCumulativePnl() {
    double[] pnl = {1.0, 2.5, -4.0, 0.5, -1.5, 3.0, 2.0, -6.0, 1.0};
    double cumulative = 0.0;
    double peak = -Double.MAX_VALUE;
    double drawdown = 0.0;
    for (double x : pnl) {
      cumulative += x;
      peak = Math.max(peak, cumulative);
      drawdown = Math.max(drawdown, peak - cumulative);
    }
    assertEquals(ScalarValue.f64(drawdown), run(QuantPrograms.maxDrawdown()));
  }

  @Test
  void histogramCountsAsJavaDoes() {
    double[] returns = {-0.031, 0.004, 0.012, -0.007, 0.027, 0.049, -0.052, 0.0, 0.018, -0.013};
    int[] counts = new int[5];
    for (double r : returns) {
      counts[Math.min(Math.max((int) ((r - -0.04) / 0.02), 0), 4)]++;
    }
    assertEquals(
        new Value.Array(
            ScalarType.I32, Arrays.stream(counts).<Value>mapToObj(ScalarValue::i32).toList()),
        run(QuantPrograms.histogram()));
  }

  /** The generator's i32 arithmetic wraps around as Java's int does. */
  @Test
  void monteCarloIsJavasWithWrappingInts() {
    double total = 0.0;
    for (int path = 0; path < 200; path++) {
      double s = 100.0;
      int seed = path * 1103515245 + 12345;
      for (int step = 0; step < 12; step++) {
        seed = seed * 1664525 + 1013904223;
        double u = ((seed >> 8) & 0xFFFFFF) / 16777216.0;
        s = s * StrictMath.exp(0.08 * (u - 0.5));
      }
      total += Math.max(s - 100.0, 0.0);
    }
    assertEquals(
        ScalarValue.f64(total / 200), run(QuantPrograms.monteCarloWithAnIntegerGenerator()));
  }

  @Test
  void tridiagonalSolveIsJavasThomasAlgorithm() {
    double[] a = {0.0, -1.0, -1.0, -1.0, -1.0};
    double[] b = {4.0, 4.0, 4.0, 4.0, 4.0};
    double[] c = {-1.0, -1.0, -1.0, -1.0, 0.0};
    double[] d = {5.0, 5.0, 10.0, 23.0, 37.0};
    int n = b.length;
    double[] cp = c.clone();
    double[] dp = d.clone();
    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for (int i = 1; i < n; i++) {
      double m = b[i] - a[i] * cp[i - 1];
      dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
      cp[i] = c[i] / m;
    }
    double[] x = dp.clone();
    for (int i = n - 2; i >= 0; i--) {
      x[i] = dp[i] - cp[i] * x[i + 1];
    }
    assertEquals(Value.Array.ofF64(x), run(QuantPrograms.tridiagonalSolve()));
  }

  /** Cents in i64 wrap around past the largest i64, as Java's long does. */
  @Test
  void cashLadderWrapsAsJavasLong() {
    assertEquals(
        ScalarValue.i64(9223372036854775000L + 1000L + 77L),
        run(QuantPrograms.cashLadderInCents()));
  }

  /** The README's first DSL pipeline prints the program it shows and computes 100.0. */
  @Test
  void theReadmesFirstPipelinePrintsAndRunsAsShown() {
    Program portfolio =
        program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (quantities, prices) -> {
                      Arr<F64> values = map(zip(quantities, prices), (q, p) -> q.mul(p));
                      Arr<F64> longs = filter(values, v -> f64(0.0).lt(v));
                      return reduce(longs, f64(0.0), (a, b) -> a.add(b));
                    }));
    TypeChecker.check(portfolio);
    assertEquals(
        """
        fun f64 main([f64] p_0, [f64] p_1) =
          reduce(fn f64 (f64 x_10, f64 x_11) => x_10 + x_11, 0.0, filter(fn bool (f64 x_7) => 0.0 < x_7, map(fn f64 (f64 x_3, f64 x_4) => x_3 * x_4, zip(p_0, p_1))))
        """,
        L0Printer.print(portfolio));
    Type column = Type.array(ScalarType.F64);
    List<Value> inputs =
        ValueReader.read("[1.0, -2.0, 3.0] [10.0, 20.0, 30.0]", List.of(column, column), "inputs");
    assertEquals("100.0", ValueWriter.write(new Interpreter(portfolio).call("main", inputs)));
  }

  /**
   * The README's present values (its Spark example's program) are the bits of {@code 100.0 *
   * StrictMath.exp(-0.05)} and {@code 200.0 * StrictMath.exp(-0.1)}, printed as it shows.
   */
  @Test
  void theReadmesPresentValuesAreStrictMathsBits() {
    Program presentValues =
        program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE),
                    Arr.of(F64.TYPE),
                    (amounts, years) ->
                        map(zip(amounts, years), (amount, t) -> amount.mul(t.mul(-0.05).exp()))));
    Type column = Type.array(ScalarType.F64);
    Value pv =
        new Interpreter(TypeChecker.check(presentValues).program())
            .call(
                "main",
                ValueReader.read("[100.0, 200.0] [1.0, 2.0]", List.of(column, column), "in"));
    assertEquals(
        Value.Array.ofF64(100.0 * StrictMath.exp(-0.05), 200.0 * StrictMath.exp(-0.1)), pv);
    assertEquals("[95.1229424500714, 180.9674836071919]", ValueWriter.write(pv));
  }

  /**
   * A DSL program nested as deep as the checker allows (2,900 levels: a Java loop adding to one
   * handle 2,900 times, which the DSL writes as one nested expression) prints, and its text reads
   * back as the same program; printing it overflowed the stack.
   */
  @Test
  void aProgramAsDeepAsTheLimitPrints() {
    Program deep =
        program(
            prog ->
                prog.fun(
                    "main",
                    F64.TYPE,
                    x -> {
                      F64 sum = x;
                      for (int i = 0; i < 2_900; i++) {
                        sum = sum.add(1.0);
                      }
                      return sum;
                    }));
    TypeChecker.check(deep);
    String text = L0Printer.print(deep);
    assertEquals(
        ScalarValue.f64(2_900.0),
        new Interpreter(L0Parser.parse(text, "deep.l0"))
            .call("main", List.of(ScalarValue.f64(0.0))));
  }

  private static Value run(Case c) {
    return run(c.staged(), c);
  }

  private static Value run(Program program, Case c) {
    Program checked = TypeChecker.check(program).program();
    List<Value> args =
        ValueReader.read(
            c.input(),
            checked.function("main").orElseThrow().params().stream().map(p -> p.type()).toList(),
            c.name());
    return new Interpreter(checked).call("main", args);
  }
}
