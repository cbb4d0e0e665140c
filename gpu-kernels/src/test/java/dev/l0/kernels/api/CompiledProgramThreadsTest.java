package dev.l0.kernels.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * One compiled program shared by several threads, as a Spark executor's tasks share it: every call,
 * whatever runs beside it, gives the interpreter's result bit for bit and its own measurements;
 * arrays pass in and out without copies where the API says so.
 */
class CompiledProgramThreadsTest {
  private static final int THREADS = 4;
  private static final int CALLS_PER_THREAD = 12;

  /** A map and a filter whose results meet in a zip, so the host checks sizes between kernels. */
  private static final String TWO_KERNELS =
      """
      fun {[f64], [f64]} main([f64] xs, [f64] ys) =
        let doubled = map(fn f64 (f64 x) => x * 2.0, xs) in
        let positive = filter(fn bool (f64 y) => 0.0 < y, ys) in
        {map(op +, zip(doubled, positive)), positive}
      """;

  private static Value.Array f64Value(double[] values) {
    return new FlatArray(ScalarType.F64, values, new int[] {values.length}).toValue();
  }

  private static double[] f64Array(Value value) {
    return (double[]) FlatArray.of((Value.Array) value, ScalarType.F64, 1).data();
  }

  /**
   * {@code rows} Black-Scholes options drawn from {@code random}: the columns of P0's parameter.
   */
  static Object[] options(Random random, int rows) {
    boolean[] call = new boolean[rows];
    double[][] numbers = new double[5][rows];
    for (int i = 0; i < rows; i++) {
      call[i] = random.nextBoolean();
      numbers[0][i] = 10 + 90 * random.nextDouble();
      numbers[1][i] = 10 + 90 * random.nextDouble();
      numbers[2][i] = 0.1 + 2 * random.nextDouble();
      numbers[3][i] = 0.01 + 0.1 * random.nextDouble();
      numbers[4][i] = 0.1 + 0.5 * random.nextDouble();
    }
    return new Object[] {call, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]};
  }

  private static Value.Array optionsValue(Object[] columns) {
    boolean[] call = (boolean[]) columns[0];
    List<Value> options = new ArrayList<>();
    for (int i = 0; i < call.length; i++) {
      List<Value> fields = new ArrayList<>(List.of(ScalarValue.bool(call[i])));
      for (int k = 1; k < columns.length; k++) {
        fields.add(ScalarValue.f64(((double[]) columns[k])[i]));
      }
      options.add(new Value.Tuple(fields));
    }
    return new Value.Array(TestPrograms.P0_OPTION, options);
  }

  /**
   * {@code ys} of {@code rows} positive values among as many non-positive ones, shuffled by {@code
   * random}.
   */
  private static double[] halfPositive(Random random, int rows) {
    double[] ys = new double[2 * rows];
    for (int i = 0; i < rows; i++) {
      ys[2 * i] = 1 + random.nextDouble();
      ys[2 * i + 1] = -random.nextDouble();
    }
    for (int i = ys.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      double swap = ys[i];
      ys[i] = ys[j];
      ys[j] = swap;
    }
    return ys;
  }

  /** What one thread checked: how many calls matched the interpreter. */
  private static int callsFromOneThread(
      CompiledProgram p0, CompiledProgram twoKernels, int thread) {
    Random random = new Random(1000 + thread);
    Program p0Program = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    Program twoProgram = L0Parser.parse(TWO_KERNELS, "two.l0");
    int checked = 0;
    for (int call = 0; call < CALLS_PER_THREAD; call++) {
      int rows = random.nextInt(3000);
      Object[] columns = options(random, rows);
      MeasuredRun priced = p0.runMeasured((Object) columns);
      Value expectedPrices =
          new Interpreter(p0Program).call("blackscholes", List.of(optionsValue(columns)));
      assertArrayEquals(
          f64Array(expectedPrices),
          (double[]) priced.result(),
          "thread " + thread + ", call " + call);
      assertEquals(0, priced.measurements().transferBytes());

      double[] xs = random.doubles(rows).toArray();
      double[] ys = halfPositive(random, rows);
      Object[] sums = (Object[]) twoKernels.run(xs, ys);
      Value.Tuple expected =
          (Value.Tuple)
              new Interpreter(twoProgram).call("main", List.of(f64Value(xs), f64Value(ys)));
      assertArrayEquals(
          f64Array(expected.elements().get(0)),
          (double[]) sums[0],
          "thread " + thread + ", call " + call);
      assertArrayEquals(
          f64Array(expected.elements().get(1)),
          (double[]) sums[1],
          "thread " + thread + ", call " + call);
      checked++;
    }
    return checked;
  }

  @Test
  void oneProgramRunsOnFourThreadsAtOnceWithTheInterpretersResults() throws Exception {
    CompiledProgram p0 =
        L0Runtime.compile(
            TestPrograms.text(TestPrograms.P0_BLACKSCHOLES),
            "p0.l0",
            "blackscholes",
            DeviceKind.JVM);
    CompiledProgram twoKernels = L0Runtime.compile(TWO_KERNELS, "two.l0", "main", DeviceKind.JVM);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Callable<Integer>> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        threads.add(() -> callsFromOneThread(p0, twoKernels, thread));
      }
      int checked = 0;
      for (Future<Integer> done : pool.invokeAll(threads)) {
        checked += done.get();
      }
      assertEquals(THREADS * CALLS_PER_THREAD, checked);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void eachCallIsMeasuredAndTheCompilationToo() {
    CompiledProgram twoKernels = L0Runtime.compile(TWO_KERNELS, "two.l0", "main", DeviceKind.JVM);
    assertTrue(twoKernels.compileNanos() > 0);
    assertEquals(0, twoKernels.kernelCacheHits());
    double[] xs = new Random(7).doubles(100_000).toArray();
    double[] ys = halfPositive(new Random(8), xs.length);
    MeasuredRun measured = twoKernels.runMeasured(xs, ys);
    assertTrue(measured.measurements().kernelNanos() > 0, measured.measurements()::toString);
    assertEquals(
        new RunMeasurements(measured.measurements().kernelNanos(), 0, 0), measured.measurements());
    Object[] again = (Object[]) twoKernels.run(xs, ys);
    assertArrayEquals((double[]) ((Object[]) measured.result())[0], (double[]) again[0]);
  }

  @Test
  void arraysPassThroughWithoutCopiesWhereTheApiSaysSo() {
    CompiledProgram identity =
        L0Runtime.compile("fun [f64] main([f64] xs) = xs\n", "id.l0", "main", DeviceKind.JVM);
    double[] xs = {1.5, -2.0, 3.25};
    assertSame(xs, identity.run(xs));
    double[] backing = {4.0, 5.0};
    assertSame(backing, identity.run(DoubleBuffer.wrap(backing)));
    DoubleBuffer window = DoubleBuffer.wrap(new double[] {1.0, 2.0, 3.0}).position(1);
    assertArrayEquals(new double[] {2.0, 3.0}, (double[]) identity.run(window));
    DoubleBuffer direct =
        ByteBuffer.allocateDirect(2 * Double.BYTES)
            .order(ByteOrder.nativeOrder())
            .asDoubleBuffer()
            .put(backing)
            .flip();
    double[] copied = (double[]) identity.run(direct);
    assertArrayEquals(backing, copied);
    assertNotSame(backing, copied);

    CompiledProgram matrix =
        L0Runtime.compile("fun [[i32]] main([[i32]] m) = m\n", "m.l0", "main", DeviceKind.JVM);
    FlatArray m = new FlatArray(ScalarType.I32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {3, 2});
    assertSame(m, matrix.run(m));
  }
}
