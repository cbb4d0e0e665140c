package dev.l0.kernels.api;

import static dev.l0.dsl.L0.map;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.L0;
import dev.l0.interp.Interpreter;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.runtime.DeviceSelection;
import dev.l0.kernels.runtime.JvmFallback;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.ReferenceData;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The runtime API: a program compiled once runs many times on Java arrays, flat n-D arrays and
 * off-heap buffers with the interpreter's results bit for bit; results come back as primitive
 * arrays, flat arrays and columns; bad arguments name the parameter; the device is reported.
 */
class L0RuntimeTest {
  /**
   * The 40 PARSEC options as the columns of P0's {@code [{bool,real,real,real,real,real}]}, and
   * DerivaGem's prices.
   */
  private record Options(
      boolean[] call,
      double[] price,
      double[] strike,
      double[] years,
      double[] rate,
      double[] volatility,
      double[] reference) {
    static Options parsec() {
      List<String[]> rows = new ArrayList<>();
      for (String line : ReferenceData.read("blackscholes/parsec_derivagem_ref.txt").split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          rows.add(line.trim().split("\\s+"));
        }
      }
      int n = rows.size();
      Options o =
          new Options(
              new boolean[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n]);
      for (int i = 0; i < n; i++) {
        String[] f = rows.get(i);
        o.call[i] = f[6].equals("C");
        o.price[i] = Double.parseDouble(f[0]);
        o.strike[i] = Double.parseDouble(f[1]);
        o.rate[i] = Double.parseDouble(f[2]);
        o.volatility[i] = Double.parseDouble(f[4]);
        o.years[i] = Double.parseDouble(f[5]);
        o.reference[i] = Double.parseDouble(f[8]);
      }
      return o;
    }

    int size() {
      return call.length;
    }

    Object[] columns() {
      return new Object[] {call, price, strike, years, rate, volatility};
    }

    /** The first {@code n} options as the interpreter's argument. */
    Value.Array value(int n) {
      List<Value> options = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        options.add(
            new Value.Tuple(
                List.of(
                    ScalarValue.bool(call[i]),
                    ScalarValue.f64(price[i]),
                    ScalarValue.f64(strike[i]),
                    ScalarValue.f64(years[i]),
                    ScalarValue.f64(rate[i]),
                    ScalarValue.f64(volatility[i]))));
      }
      return new Value.Array(TestPrograms.P0_OPTION, options);
    }

    Options first(int n) {
      return new Options(
          Arrays.copyOf(call, n),
          Arrays.copyOf(price, n),
          Arrays.copyOf(strike, n),
          Arrays.copyOf(years, n),
          Arrays.copyOf(rate, n),
          Arrays.copyOf(volatility, n),
          Arrays.copyOf(reference, n));
    }
  }

  private static final String SHAPES =
      """
      fun {[f64], [[f64]], [{i64, bool}], f32} main([[f64]] m, i64 k, {f32, bool} t, [{i64, bool}] ps) =
        let {x, b} = t in
        {map(fn f64 ([f64] row) => reduce(op +, 0.0, row), m),
         map(fn [f64] ([f64] row) => map(fn f64 (f64 v) => v * 2.0, row), m),
         map(fn {i64, bool} ({i64, bool} p) => let {a, c} = p in {a + k, if c then false else true}, ps),
         if b then x else -x}
      """;

  private static CompiledProgram blackScholes() {
    return L0Runtime.compile(
        TestPrograms.text(TestPrograms.P0_BLACKSCHOLES), "p0.l0", "blackscholes", DeviceKind.JVM);
  }

  private static CompiledProgram shapes() {
    return L0Runtime.compile(SHAPES, "shapes.l0", "main", DeviceKind.JVM);
  }

  private static DoubleBuffer offHeap(double[] values) {
    DoubleBuffer buffer =
        ByteBuffer.allocateDirect(values.length * Double.BYTES)
            .order(ByteOrder.nativeOrder())
            .asDoubleBuffer();
    buffer.put(values).flip();
    return buffer;
  }

  private static ByteBuffer offHeapFlags(boolean[] values) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(values.length);
    for (boolean v : values) {
      buffer.put((byte) (v ? 1 : 0));
    }
    return buffer.flip();
  }

  private static void assertSameBits(Value expected, double[] actual) {
    Value.Array array = (Value.Array) expected;
    assertEquals(array.length(), actual.length);
    for (int i = 0; i < actual.length; i++) {
      assertEquals(
          Double.doubleToRawLongBits(((ScalarValue.Float) array.get(i)).value()),
          Double.doubleToRawLongBits(actual[i]),
          "element " + i);
    }
  }

  @Test
  void aNullArgumentIsNamed() {
    String text = "fun f64 main([f64] q) = reduce(op +, 0.0, q)";
    Program program = dev.l0.syntax.L0Parser.parse(text, "inline.l0");
    assertEquals(
        "l0Text",
        assertThrows(
                NullPointerException.class,
                () -> L0Runtime.compile((String) null, "inline.l0", "main", DeviceKind.JVM))
            .getMessage());
    assertEquals(
        "sourceName",
        assertThrows(
                NullPointerException.class,
                () -> L0Runtime.compile(text, null, "main", DeviceKind.JVM))
            .getMessage());
    assertEquals(
        "entry",
        assertThrows(
                NullPointerException.class, () -> L0Runtime.compile(program, null, DeviceKind.JVM))
            .getMessage());
    assertEquals(
        "device (AUTO, CUDA or JVM)",
        assertThrows(NullPointerException.class, () -> L0Runtime.compile(program, "main", null))
            .getMessage());
    assertEquals(
        "program",
        assertThrows(
                NullPointerException.class,
                () -> L0Runtime.compileWithExactFloatSums(null, "main", DeviceKind.JVM, 0, 1))
            .getMessage());
  }

  @Test
  void jvmLaunchesCanBeCappedToOneThreadWithTheSameResults() {
    Options parsec = Options.parsec();
    Program p0 = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    try (CompiledProgram oneThread = L0Runtime.compile(p0, "blackscholes", DeviceKind.JVM, 0, 1)) {
      assertEquals("jvm", oneThread.executorName());
      assertArrayEquals(
          (double[]) blackScholes().run((Object) parsec.columns()),
          (double[]) oneThread.run((Object) parsec.columns()));
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> L0Runtime.compile(p0, "blackscholes", DeviceKind.JVM, 0, 0));
  }

  @Test
  void blackScholesCompiledOnceRunsManyTimesBitIdenticalToTheInterpreter() {
    Options parsec = Options.parsec();
    assertEquals(40, parsec.size());
    CompiledProgram p0 = blackScholes();
    Program program = TestPrograms.load(TestPrograms.P0_BLACKSCHOLES);
    for (int n : new int[] {40, 0, 1, 7, 40}) {
      Options options = parsec.first(n);
      double[] prices = (double[]) p0.run((Object) options.columns());
      assertSameBits(
          new Interpreter(program).call("blackscholes", List.of(parsec.value(n))), prices);
      for (int i = 0; i < n; i++) {
        assertTrue(
            Math.abs(prices[i] - options.reference[i]) < 1e-4,
            "option " + i + ": " + prices[i] + " vs " + options.reference[i]);
      }
    }
  }

  @Test
  void directBuffersGiveTheResultsOfJavaArraysAndAreNotMoved() {
    Options parsec = Options.parsec();
    CompiledProgram p0 = blackScholes();
    double[] fromArrays = (double[]) p0.run((Object) parsec.columns());
    DoubleBuffer price = offHeap(parsec.price);
    ByteBuffer call = offHeapFlags(parsec.call);
    ByteBuffer strike =
        ByteBuffer.allocateDirect(parsec.size() * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    strike.asDoubleBuffer().put(parsec.strike);
    Object[] columns = {
      call, price, strike, offHeap(parsec.years), offHeap(parsec.rate), offHeap(parsec.volatility)
    };
    double[] fromBuffers = (double[]) p0.run((Object) columns);
    assertArrayEquals(fromArrays, fromBuffers);
    assertEquals(0, price.position());
    assertEquals(0, strike.position());
  }

  @Test
  void aBufferIsReadFromItsPositionToItsLimit() {
    Options parsec = Options.parsec();
    CompiledProgram p0 = blackScholes();
    Object[] columns = new Object[6];
    double[][] numbers = {
      parsec.price, parsec.strike, parsec.years, parsec.rate, parsec.volatility
    };
    ByteBuffer call = offHeapFlags(parsec.call);
    call.position(3).limit(10);
    columns[0] = call;
    for (int k = 0; k < numbers.length; k++) {
      DoubleBuffer column = offHeap(numbers[k]);
      column.position(3).limit(10);
      columns[k + 1] = column;
    }
    double[] window = (double[]) p0.run((Object) columns);
    double[] all = (double[]) p0.run((Object) parsec.columns());
    assertArrayEquals(Arrays.copyOfRange(all, 3, 10), window);
    assertEquals(3, call.position());
  }

  @Test
  void scalarsTuplesNestedAndFlatArraysAndColumnsGoInAndComeOut() {
    CompiledProgram program = shapes();
    assertEquals(
        "[m: [[f64]], k: i64, t: {f32, bool}, ps: [{i64, bool}]]", program.parameters().toString());
    Object[] columns = {new long[] {1, 2}, new boolean[] {true, false}};
    Object[] nested =
        (Object[])
            program.run(
                new double[][] {{1, 2, 3}, {4, 5, 6}}, 10L, new Object[] {1.5f, false}, columns);
    Object[] flat =
        (Object[])
            program.run(
                new FlatArray(ScalarType.F64, new double[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3}),
                10L,
                new Object[] {1.5f, false},
                columns);
    for (Object[] result : List.of(nested, flat)) {
      assertArrayEquals(new double[] {6, 15}, (double[]) result[0]);
      FlatArray doubled = (FlatArray) result[1];
      assertArrayEquals(new int[] {2, 3}, doubled.shape());
      assertArrayEquals(new double[] {2, 4, 6, 8, 10, 12}, (double[]) doubled.data());
      Object[] pairs = (Object[]) result[2];
      assertArrayEquals(new long[] {11, 12}, (long[]) pairs[0]);
      assertArrayEquals(new boolean[] {false, true}, (boolean[]) pairs[1]);
      assertEquals(-1.5f, result[3]);
    }
  }

  @Test
  void transposingAnEmptyFlatArrayKeepsItsInnerSize() {
    CompiledProgram transpose =
        L0Runtime.compile(
            "fun [[i32]] main([[i32]] m) = transpose(m)\n", "t.l0", "main", DeviceKind.JVM);
    FlatArray columns =
        (FlatArray) transpose.run(new FlatArray(ScalarType.I32, new int[0], new int[] {0, 3}));
    assertArrayEquals(new int[] {3, 0}, columns.shape());
    FlatArray rows =
        (FlatArray) transpose.run(new FlatArray(ScalarType.I32, new int[0], new int[] {3, 0}));
    assertArrayEquals(new int[] {0, 3}, rows.shape());
  }

  @Test
  void emptyArraysKeepTheirShape() {
    Object[] result =
        (Object[])
            shapes()
                .run(
                    new FlatArray(ScalarType.F64, new double[0], new int[] {0, 3}),
                    0L,
                    new Object[] {2f, true},
                    new Object[] {new long[0], new boolean[0]});
    assertArrayEquals(new double[0], (double[]) result[0]);
    assertArrayEquals(new int[] {0, 3}, ((FlatArray) result[1]).shape());
    assertArrayEquals(new long[0], (long[]) ((Object[]) result[2])[0]);
    assertEquals(2f, result[3]);
  }

  /**
   * A fused producer and consumer that may both fail: the call reruns the failure-order plan on the
   * same arrays and reports the interpreter's error (the producer's row 1), not the fused kernel's
   * (the consumer's row 0), and leaves the caller's arrays as they were.
   */
  @Test
  void aFailingFusedRunReportsTheInterpretersErrorAndKeepsTheInputs() {
    String source =
        """
        fun [int] main([int] xs, [int] a) =
          let ys = map(fn int (int x) => a[x], xs) in
          map(fn int (int y) => 10 / y, ys)
        """;
    Program program = L0Parser.parse(source, "vertical.l0");
    L0RuntimeError interpreted =
        assertThrows(
            L0RuntimeError.class,
            () ->
                new Interpreter(program)
                    .call(
                        "main",
                        ValueReader.read(
                            "[0, 5] [0, 1]",
                            List.of(Type.array(ScalarType.I32), Type.array(ScalarType.I32)),
                            "input")));
    try (CompiledProgram vertical =
        L0Runtime.compile(source, "vertical.l0", "main", DeviceKind.JVM)) {
      int[] xs = {0, 5};
      int[] a = {0, 1};
      for (int call = 0; call < 2; call++) {
        L0RuntimeError failure = assertThrows(L0RuntimeError.class, () -> vertical.run(xs, a));
        assertEquals(
            interpreted.operation() + " at " + interpreted.pos(),
            failure.operation() + " at " + failure.pos());
      }
      assertArrayEquals(new int[] {0, 5}, xs);
      assertArrayEquals(new int[] {0, 1}, a);
      assertArrayEquals(new int[] {5, 2}, (int[]) vertical.run(new int[] {1, 0}, new int[] {5, 2}));
    }
  }

  @Test
  void flatRowsBelowAnEmptyDimensionKeepTheirInnerSizes() {
    CompiledProgram innerSize =
        L0Runtime.compile(
            "fun i32 main([[[i32]]] a) = size(2, a)\n", "inner.l0", "main", DeviceKind.JVM);
    FlatArray emptyOfThrees = new FlatArray(ScalarType.I32, new int[0], new int[] {0, 3});
    assertEquals(3, innerSize.run((Object) new Object[] {emptyOfThrees, emptyOfThrees}));
    IllegalArgumentException ragged =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                innerSize.run(
                    (Object)
                        new Object[] {
                          emptyOfThrees, new FlatArray(ScalarType.I32, new int[0], new int[] {0, 2})
                        }));
    assertEquals(
        "parameter a: ragged array: row 1 has shape [0, 2] but row 0 has shape [0, 3]",
        ragged.getMessage());
  }

  @Test
  void aProgramStagedWithTheJavaDslCompilesLikeItsText() {
    Program staged =
        L0.program(
            prog -> prog.fun("scale", Arr.of(F64.TYPE), xs -> map(xs, x -> x.mul(2.0).add(1.0))));
    CompiledProgram scale = L0Runtime.compile(staged, "scale", DeviceKind.JVM);
    assertEquals("[p_0: [f64]]", scale.parameters().toString());
    assertArrayEquals(
        new double[] {1.0, 3.0, -2.0}, (double[]) scale.run(new double[] {0.0, 1.0, -1.5}));
  }

  @Test
  void aClosedProgramRefusesToRun() {
    CompiledProgram scale =
        L0Runtime.compile(
            L0Parser.parse(
                "fun [f64] scale([f64] xs) = map(fn f64 (f64 x) => x * 2.0, xs)", "scale.l0"),
            "scale",
            DeviceKind.JVM);
    assertArrayEquals(new double[] {2.0}, (double[]) scale.run(new double[] {1.0}));
    scale.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> scale.run(new double[] {1.0}));
    assertEquals("scale was closed; compile the program again to run it", e.getMessage());
    assertThrows(IllegalStateException.class, () -> scale.runMeasured(new double[] {1.0}));
  }

  @Test
  void theArgumentCountIsChecked() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> blackScholes().run(Options.parsec().columns()));
    assertEquals(
        "blackscholes takes 1 argument(s) (xs: [{bool, f64, f64, f64, f64, f64}]), got 6; "
            + "pass a lone Object[] argument as (Object) array",
        e.getMessage());
  }

  @Test
  void aWrongJavaTypeNamesTheParameterAndBothTypes() {
    CompiledProgram program = shapes();
    Object[] columns = {new long[] {1}, new boolean[] {true}};
    IllegalArgumentException wrongArray =
        assertThrows(
            IllegalArgumentException.class,
            () -> program.run(new int[][] {{1}}, 1L, new Object[] {1f, true}, columns));
    assertEquals(
        "parameter m[0] of type [f64] takes a double[], a DoubleBuffer or ByteBuffer, or a FlatArray of f64; got int[]",
        wrongArray.getMessage());
    IllegalArgumentException wrongScalar =
        assertThrows(
            IllegalArgumentException.class,
            () -> program.run(new double[][] {{1}}, 1, new Object[] {1f, true}, columns));
    assertEquals("parameter k of type i64 takes a Long; got Integer", wrongScalar.getMessage());
    IllegalArgumentException wrongColumns =
        assertThrows(
            IllegalArgumentException.class,
            () -> program.run(new double[][] {{1}}, 1L, new Object[] {1f, true}, new long[] {1}));
    assertEquals(
        "parameter ps of type [{i64, bool}] takes an Object[] of its 2 columns; got long[]",
        wrongColumns.getMessage());
    IllegalArgumentException wrongBuffer =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                program.run(
                    new double[][] {{1}},
                    1L,
                    new Object[] {1f, true},
                    new Object[] {offHeap(new double[] {1}), new boolean[] {true}}));
    assertTrue(
        wrongBuffer
            .getMessage()
            .startsWith("parameter ps of type [i64] takes a long[], a LongBuffer or ByteBuffer"),
        wrongBuffer.getMessage());
  }

  @Test
  void raggedAndMisshapenArraysAreRefusedWithTheParameterName() {
    CompiledProgram program = shapes();
    Object[] columns = {new long[] {1}, new boolean[] {true}};
    Object[] tuple = {1f, true};
    IllegalArgumentException ragged =
        assertThrows(
            IllegalArgumentException.class,
            () -> program.run(new double[][] {{1, 2}, {3}}, 1L, tuple, columns));
    assertEquals(
        "parameter m: ragged array: row 1 has shape [1] but row 0 has shape [2]",
        ragged.getMessage());
    IllegalArgumentException nullRow =
        assertThrows(
            IllegalArgumentException.class,
            () -> program.run(new double[][] {{1, 2}, null}, 1L, tuple, columns));
    assertEquals(
        "parameter m[1] of type [f64] takes a double[], a DoubleBuffer or ByteBuffer, or a FlatArray of f64; got null",
        nullRow.getMessage());
    IllegalArgumentException unequalColumns =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                program.run(
                    new double[][] {{1}},
                    1L,
                    tuple,
                    new Object[] {new long[] {1, 2}, new boolean[] {true}}));
    assertEquals(
        "parameter ps: column 1 has shape [1] but column 0 has shape [2]; the columns of [{i64, bool}] must have one shape",
        unequalColumns.getMessage());
    IllegalArgumentException partialElement =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                program.run(
                    new double[][] {{1}},
                    1L,
                    tuple,
                    new Object[] {ByteBuffer.allocate(12), new boolean[] {true}}));
    assertEquals(
        "parameter ps of type [i64]: a ByteBuffer of 12 bytes does not hold whole i64 elements of 8 bytes",
        partialElement.getMessage());
  }

  @Test
  void programFailuresAndBadProgramsKeepTheirErrors() {
    CompiledProgram index =
        L0Runtime.compile(
            "fun f64 main([f64] a, i32 i) = a[i]\n", "index.l0", "main", DeviceKind.JVM);
    assertEquals(2.0, index.run(new double[] {1, 2}, 1));
    assertThrows(L0RuntimeError.class, () -> index.run(new double[] {1, 2}, 2));
    L0CompileError bad =
        assertThrows(
            L0CompileError.class,
            () ->
                L0Runtime.compile(
                    "fun f64 main([f64] a) = a + 1.0\n", "bad.l0", "main", DeviceKind.JVM));
    assertTrue(bad.getMessage().startsWith("bad.l0:1:"), bad.getMessage());
    IllegalArgumentException noEntry =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                L0Runtime.compile(
                    L0Parser.parse("fun i32 f(i32 x) = x\n", "f.l0"), "main", DeviceKind.JVM));
    assertEquals("no function 'main'; the program defines f", noEntry.getMessage());
  }

  @Test
  void theDeviceAndWhyAreReported() {
    assertEquals("jvm: requested", blackScholes().device().report());
    CompiledProgram auto =
        L0Runtime.compile(
            TestPrograms.text(TestPrograms.P0_BLACKSCHOLES),
            "p0.l0",
            "blackscholes",
            DeviceKind.AUTO);
    assertEquals(DeviceKind.JVM, auto.device().chosen());
    assertTrue(auto.device().report().startsWith("jvm: no CUDA driver ("), auto.device().report());
    CudaUnavailableException cuda =
        assertThrows(
            CudaUnavailableException.class,
            () ->
                L0Runtime.compile(
                    TestPrograms.text(TestPrograms.P0_BLACKSCHOLES),
                    "p0.l0",
                    "blackscholes",
                    DeviceKind.CUDA));
    assertTrue(
        cuda.getMessage()
            .startsWith("device cuda was requested, but CUDA cannot be used here: no CUDA driver"),
        cuda.getMessage());
  }

  /** Log lines of the JVM fallback, collected while a test runs. */
  private static final class FallbackLog extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger(JvmFallback.class.getName());
    private final List<String> lines = new ArrayList<>();

    FallbackLog() {
      logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord record) {
      lines.add(record.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  @Test
  void aCudaSelectionRunsOnTheCudaExecutorWhichFallsBackToTheJvmWithOneLoggedLineWithoutADriver() {
    Options parsec = Options.parsec();
    TypedProgram p0 = TypeChecker.check(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES));
    DeviceSelection gpu = new DeviceSelection(DeviceKind.CUDA, "a GPU the selector saw", 0);
    try (FallbackLog log = new FallbackLog();
        CompiledProgram onCuda = L0Runtime.compile(p0, "blackscholes", gpu, 2, System.nanoTime())) {
      assertEquals("cuda", onCuda.executorName());
      assertEquals("cuda: a GPU the selector saw", onCuda.device().report());
      double[] prices = (double[]) onCuda.run((Object) parsec.columns());
      assertArrayEquals((double[]) blackScholes().run((Object) parsec.columns()), prices);
      assertEquals(1, log.lines.size(), log.lines::toString);
      assertTrue(log.lines.get(0).contains("no CUDA"), log.lines.get(0));
    }
    assertEquals("jvm", blackScholes().executorName());
  }
}
