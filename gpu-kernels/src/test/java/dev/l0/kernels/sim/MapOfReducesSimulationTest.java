package dev.l0.kernels.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.lower.LoweredPrograms;
import dev.l0.syntax.L0Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reduce of rows whose operator adds them element by element, on the simulator (blocks of 1 and
 * 32 threads) and the JVM backend, over row counts around the chunking of the reduction order: on
 * the simulator, wide rows run as a map of reduces and narrow constant rows as per-thread array
 * accumulators, which the JVM backend always uses; every form gives, bit for bit, the documented
 * reduction order of the rows (each chunk folded from the neutral row, then the pairwise tree),
 * computed here in Java with whole rows as accumulators.
 */
public class MapOfReducesSimulationTest {
  private static final List<KernelExecutor> BACKENDS =
      List.of(new SimulatorExecutor(1), new SimulatorExecutor(32), new JvmKernelExecutor(2));

  public static final String SUM_OF_ROWS =
      """
      fun [f64] main([[f64]] xss) =
        reduce(fn [f64] ([f64] a, [f64] b) => map(fn f64 (f64 x, f64 y) => x + y, zip(a, b)),
               replicate(size(1, xss), 0.0), xss)
      """;

  /**
   * The rows of {@code xs} reshaped to a constant width, summed (a map of reduces from 32 columns
   * on).
   */
  public static String sumOfConstantRows(int width) {
    return """
        fun [f64] main([f64] xs) =
          reduce(fn [f64] ([f64] a, [f64] b) => map(fn f64 (f64 x, f64 y) => x + y, zip(a, b)),
                 replicate(%d, 0.0), reshape((size(0, xs) / %d, %d), xs))
        """
        .formatted(width, width, width);
  }

  @Test
  void wideRowsGiveTheDocumentedOrderOnEveryBackend() {
    Random random = new Random(13);
    for (int width : List.of(0, 1, 5, 40)) {
      for (int n : List.of(0, 1, 15, 17, 16 * 33 + 3)) {
        double[][] rows = new double[n][width];
        List<Value> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          List<Value> row = new ArrayList<>();
          for (int j = 0; j < width; j++) {
            rows[i][j] = random.nextDouble() * 200 - 100;
            row.add(ScalarValue.f64(rows[i][j]));
          }
          values.add(new Value.Array(ScalarType.F64, row));
        }
        Value xss = new Value.Array(Type.array(ScalarType.F64), values);
        // Over no rows, size(1, xss) is 0.
        double[] expected =
            ReductionOrder.reduce(
                n,
                new double[n == 0 ? 0 : width],
                (acc, i) -> add(acc, rows[(int) i]),
                MapOfReducesSimulationTest::add);
        assertEveryBackendGives(
            SUM_OF_ROWS,
            List.of(xss),
            Value.Array.ofF64(expected),
            "width " + width + ", " + n + " rows");
      }
    }
  }

  @Test
  void constantRowsAroundTheThresholdGiveTheDocumentedOrderOnEveryBackend() {
    Random random = new Random(31);
    for (int width : List.of(31, 32, 33)) {
      int n = 16 * 5 + 7;
      double[][] rows = new double[n][width];
      List<Value> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < width; j++) {
          rows[i][j] = random.nextDouble() * 10;
          values.add(ScalarValue.f64(rows[i][j]));
        }
      }
      double[] expected =
          ReductionOrder.reduce(
              n,
              new double[width],
              (acc, i) -> add(acc, rows[(int) i]),
              MapOfReducesSimulationTest::add);
      assertEveryBackendGives(
          sumOfConstantRows(width),
          List.of(new Value.Array(ScalarType.F64, values)),
          Value.Array.ofF64(expected),
          "width " + width);
    }
  }

  @Test
  void aFailingElementFailsAsInTheInterpreter() {
    assertEveryBackendFailsAsTheInterpreter(
        """
        fun [i32] main([[i32]] xss) =
          reduce(fn [i32] ([i32] a, [i32] b) => map(fn i32 (i32 x, i32 y) => x / y + 1, zip(a, b)),
                 replicate(size(1, xss), 1), xss)
        """);
  }

  @Test
  void aNeutralRowOfAnotherWidthFailsAsInTheInterpreter() {
    assertEveryBackendFailsAsTheInterpreter(
        """
        fun [i32] main([[i32]] xss) =
          reduce(fn [i32] ([i32] a, [i32] b) => map(fn i32 (i32 x, i32 y) => x + y, zip(a, b)),
                 replicate(size(1, xss) + 1, 1), xss)
        """);
  }

  /**
   * 40 rows of 3 elements, one of them 0, reduced by {@code source} as a map of reduces: a failure,
   * the interpreter's on every backend.
   */
  private static void assertEveryBackendFailsAsTheInterpreter(String source) {
    assertTrue(
        LoweredPrograms.of(source).groups().stream()
            .flatMap(g -> g.kernels().stream())
            .anyMatch(k -> k.name().contains("_column_partials")),
        source);
    List<Value> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      int r = i;
      List<Value> row = new ArrayList<>();
      for (int j = 0; j < 3; j++) {
        row.add(ScalarValue.i32(r == 23 && j == 1 ? 0 : r + j + 1));
      }
      rows.add(new Value.Array(ScalarType.I32, row));
    }
    Program program = L0Parser.parse(source, "test.l0");
    List<Value> args = List.of(new Value.Array(Type.array(ScalarType.I32), rows));
    String interpreted =
        RandomProgramSimulationTest.outcome(() -> new Interpreter(program).call("main", args));
    assertTrue(interpreted.startsWith("failure"), interpreted);
    for (KernelExecutor backend : BACKENDS) {
      HostRunner runner = HostRunner.compile(program, backend);
      assertEquals(
          interpreted,
          RandomProgramSimulationTest.outcome(() -> runner.call("main", args)),
          backend.name());
    }
  }

  private static void assertEveryBackendGives(
      String source, List<Value> args, Value expected, String what) {
    Program program = L0Parser.parse(source, "test.l0");
    for (KernelExecutor backend : BACKENDS) {
      assertEquals(
          expected,
          HostRunner.compile(program, backend).call("main", args),
          backend.name() + ", " + what);
    }
  }

  private static double[] add(double[] a, double[] b) {
    double[] sum = new double[a.length];
    for (int j = 0; j < a.length; j++) {
      sum[j] = a[j] + b[j];
    }
    return sum;
  }
}
