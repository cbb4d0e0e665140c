package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.BinaryOperator;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.vector.VectorMath;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The staged form of map kernels ({@link StagedMap}, {@link StagedMapPrinter}) on P0
 * (Black-Scholes): which kernels are staged, where the code runs, and that the staged code (with
 * the Vector API, and as plain loops) gives the per-row code's prices and a hand-written StrictMath
 * loop's, bit for bit, on random options mixed with special values (the lane-wise code up to the
 * sign and payload of NaNs, see {@link #assertBitsEqual}).
 */
class StagedMapTest {
  /** Not a multiple of the chunk or of any vector length, so every tail runs. */
  private static final int ROWS = 3 * StagedMapPrinter.CHUNK + 77;

  private static final double[] SPECIAL = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    0x1p-1060,
    1e300,
    -1e300,
    Double.MAX_VALUE,
    1.0,
    -1.0,
    708.5,
    -745.5,
    1e-20
  };

  private final OptimizedProgram p0 =
      Optimizer.optimize(TypeChecker.check(TestPrograms.load(TestPrograms.P0_BLACKSCHOLES)));
  private final KernelPlan.Kernel map = p0.kernelPlan().kernels().get(0);
  private final KernelGroup group =
      KernelLowering.lower(p0.kernelPlan(), map, LaunchConfiguration.THREAD_PER_ROW);
  private final Kernel kernel = group.kernels().get(0);

  @Test
  void blackScholesIsStagedWithVectorMathCallsForItsFunctions() {
    JavaKernelIrPrinter.KernelSource source = JavaKernelIrPrinter.print(kernel);
    assertTrue(source.staged(), source::source);
    assertEquals(
        VectorMath.lanewise(),
        source.source().contains("jdk.incubator.vector.DoubleVector"),
        source::source);
    for (String call : List.of("VectorMath.sqrt(", "VectorMath.log(", "VectorMath.exp(")) {
      assertTrue(source.source().contains(call), call);
    }
    // the per-row code stays, for launches that are not one thread per row
    assertTrue(
        source.source().contains("private int " + StagedMapPrinter.SCALAR_RUN + "("),
        source::source);
    JavaKernelIrPrinter.KernelSource loops = JavaKernelIrPrinter.print(kernel, false);
    assertTrue(loops.staged());
    assertFalse(loops.source().contains("jdk.incubator.vector"), loops::source);
  }

  @Test
  void blackScholesRunsItsMathCallsInTwoLevelsBetweenThreeArithmeticStages() {
    List<StagedMap.Op> ops = StagedMap.of(kernel).orElseThrow().ops();
    List<String> runs = new ArrayList<>();
    for (StagedMap.Op op : ops) {
      String kind = op instanceof StagedMap.MathCall m ? m.function() : "arithmetic";
      if (!(kind.equals("arithmetic")
          && !runs.isEmpty()
          && runs.get(runs.size() - 1).equals(kind))) {
        runs.add(kind);
      }
    }
    // sqrt(years), log(price / strike) and exp(-r * years) need only the inputs; the two exp of
    // cnd need d1 and d2
    assertEquals(
        List.of("arithmetic", "sqrt", "log", "exp", "arithmetic", "exp", "exp", "arithmetic"),
        runs);
    // one stage method per run of arithmetic, one per math call
    JavaKernelIrPrinter.KernelSource source = JavaKernelIrPrinter.print(kernel, true);
    assertEquals(8, source.source().split("private static void stage\\$", -1).length - 1);
  }

  @Test
  void aLaneWiseStageStoresEachLocalOnceAStep() {
    String source = JavaKernelIrPrinter.print(kernel, true).source();
    String[] stages = source.split("private static void stage\\$");
    for (int g = 1; g < stages.length; g++) {
      int vectorLoopEnd = stages[g].indexOf("for (; k$ < n$; k$++)");
      String vectorLoop = stages[g].substring(0, Math.max(0, vectorLoopEnd));
      Matcher store = Pattern.compile("intoArray\\((w\\$\\d+), k\\$\\)").matcher(vectorLoop);
      Set<String> stored = new HashSet<>();
      while (store.find()) {
        assertTrue(stored.add(store.group(1)), "stage " + stages[g] + " stores " + store.group(1));
      }
    }
  }

  @Test
  void phasesMoveMathCallsUpAndArithmeticDownKeepingEveryDependence() {
    Buffer x = new Buffer("x", ScalarType.F64);
    Buffer y = new Buffer("y", ScalarType.F64);
    Buffer out = new Buffer("out", ScalarType.F64);
    KernelExpr.Var row = new KernelExpr.Var("i", ScalarType.I64);
    KernelExpr.Var a = local("a");
    KernelExpr.Var b = local("b");
    KernelExpr.Var c = local("c");
    KernelExpr.Var d = local("d");
    KernelExpr.Var e = local("e");
    KernelExpr.Var f = local("f");
    List<StagedMap.Op> ops =
        List.of(
            new StagedMap.Compute(a, times(new KernelExpr.Load(x, row), 2.0)),
            new StagedMap.MathCall(b, "exp", List.of(a)),
            new StagedMap.Compute(c, times(b, 3.0)),
            new StagedMap.MathCall(d, "exp", List.of(c)),
            new StagedMap.Compute(e, times(new KernelExpr.Load(y, row), 4.0)),
            new StagedMap.MathCall(f, "log", List.of(e)),
            new StagedMap.Store(out, plus(d, f)));
    // log(e) joins the first exp; e's arithmetic joins a's
    assertEquals(
        List.of(ops.get(0), ops.get(4), ops.get(1), ops.get(5), ops.get(2), ops.get(3), ops.get(6)),
        StagedMap.inPhases(ops));
    // a written again after exp reads it: the new value may not move above the read, though it
    // needs neither the call's result nor anything else
    List<StagedMap.Op> reassigned =
        List.of(
            new StagedMap.Compute(a, times(new KernelExpr.Load(x, row), 2.0)),
            new StagedMap.MathCall(b, "exp", List.of(a)),
            new StagedMap.Compute(a, times(new KernelExpr.Load(y, row), 2.0)),
            new StagedMap.Store(out, plus(a, b)));
    assertEquals(reassigned, StagedMap.inPhases(reassigned));
  }

  private static KernelExpr.Var local(String name) {
    return new KernelExpr.Var(name, ScalarType.F64);
  }

  private static KernelExpr times(KernelExpr e, double factor) {
    return new KernelExpr.Binary(
        BinaryOperator.MUL,
        ScalarType.F64,
        e,
        new KernelExpr.Constant(new ScalarValue.Float(ScalarType.F64, factor)));
  }

  private static KernelExpr plus(KernelExpr l, KernelExpr r) {
    return new KernelExpr.Binary(BinaryOperator.ADD, ScalarType.F64, l, r);
  }

  @Test
  void surefireRunsTheLaneWiseCode() {
    // the pom adds --add-modules=jdk.incubator.vector; without it the staged kernels use plain
    // loops
    assertTrue(VectorMath.lanewise());
  }

  @Test
  void aKernelThatCanFailIsNotStaged() {
    Program program =
        L0Parser.parse(
            "fun [i64] main([i64] xs) = map(fn i64 (i64 x) => 7i64 % x, xs)\n", "mod.l0");
    OptimizedProgram optimized = Optimizer.optimize(TypeChecker.check(program));
    KernelGroup modulo =
        KernelLowering.lower(
            optimized.kernelPlan(),
            optimized.kernelPlan().kernels().get(0),
            LaunchConfiguration.THREAD_PER_ROW);
    assertFalse(JavaKernelIrPrinter.print(modulo.kernels().get(0)).staged());
  }

  @Test
  void stagedPricesEqualThePerRowCodeAndStrictMathBitForBit() {
    Object[] columns = columns(new Random(20261125));
    double[] expected = strictMathPrices(columns);
    long finite = Arrays.stream(expected).filter(Double::isFinite).count();
    assertTrue(
        finite > ROWS / 3 && finite < ROWS,
        "ordinary and special prices: " + finite + " of " + ROWS + " finite");
    for (boolean lanewise : new boolean[] {true, false}) {
      KernelThreads code = JaninoKernels.compile(JavaKernelIrPrinter.print(kernel, lanewise));
      Object workspace = code.newWorkspace();
      double[] staged = run(code, columns, workspace, ROWS);
      assertTrue(written(workspace), "the staged code ran, in the worker's workspace");
      // a grid of fewer blocks than rows makes each thread loop over several rows: the per-row code
      // runs (it has no workspace, so the staged code would fail here)
      double[] perRow = run(code, columns, null, ROWS - 1);
      assertBitsEqual(expected, perRow, "per-row code", true);
      assertBitsEqual(
          perRow, staged, lanewise ? "lane-wise stages" : "plain-loop stages", lanewise);
    }
    CompiledProgram api =
        L0Runtime.compile(
            TestPrograms.text(TestPrograms.P0_BLACKSCHOLES),
            "p0_blackscholes.l0",
            "blackscholes",
            DeviceKind.JVM);
    assertBitsEqual(
        expected, (double[]) api.run((Object) columns), "the runtime API", VectorMath.lanewise());
  }

  /**
   * The kernel's prices for {@code columns} in one range of blocks of a launch of {@code grid}
   * blocks.
   */
  private double[] run(KernelThreads code, Object[] columns, Object workspace, int grid) {
    List<Buffer> buffers = kernel.buffers();
    Object[] memory = new Object[buffers.size() + 1];
    double[] prices = new double[ROWS];
    for (int k = 0; k < buffers.size(); k++) {
      memory[k] = prices;
      for (GroupInput input : group.inputs()) {
        if (input instanceof GroupInput.Array a && a.buffer().equals(buffers.get(k))) {
          memory[k] = columns[columnOf(a.name())];
        }
      }
    }
    memory[buffers.size()] = workspace;
    assertEquals(0, code.run(memory, new Object[] {(long) ROWS}, 0, grid, grid));
    return prices;
  }

  private int columnOf(String inputName) {
    for (int k = 0; k < map.inputs().size(); k++) {
      if (((SubExp.Var) map.inputs().get(k)).name().equals(inputName)) {
        return k;
      }
    }
    throw new AssertionError("no map input " + inputName);
  }

  private static boolean written(Object workspace) {
    for (Object array : (Object[]) workspace) {
      if (array instanceof double[] d
          && Arrays.stream(d).anyMatch(x -> Double.doubleToRawLongBits(x) != 0)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Equal bits in every row; with {@code anyNaN}, a NaN may have another sign or payload. Java
   * leaves those open: when two different NaNs meet (in P0, a NaN option value and the NaN of
   * {@code log} of a negative ratio), the result is one of them, and which one depends on the
   * operand order the JIT compiler gives the instruction, which differs between the Vector API's
   * code and scalar code, and between two shapes of scalar code too (the reference loop moved into
   * a method of its own gave row 1059 the other NaN's sign).
   */
  private static void assertBitsEqual(
      double[] expected, double[] actual, String what, boolean anyNaN) {
    for (int i = 0; i < expected.length; i++) {
      boolean bothNaN = anyNaN && Double.isNaN(expected[i]) && Double.isNaN(actual[i]);
      if (!bothNaN
          && Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
        throw new AssertionError(
            what
                + ": row "
                + i
                + " is "
                + actual[i]
                + " (0x"
                + Long.toHexString(Double.doubleToRawLongBits(actual[i]))
                + "), StrictMath gives "
                + expected[i]
                + " (0x"
                + Long.toHexString(Double.doubleToRawLongBits(expected[i]))
                + ")");
      }
    }
  }

  /**
   * {call, price, strike, years, rate, volatility}: mostly ordinary options, one value in five
   * special or random bits.
   */
  private static Object[] columns(Random random) {
    boolean[] call = new boolean[ROWS];
    double[][] numbers = new double[5][ROWS];
    double[] low = {10, 10, 0.05, 0.01, 0.05};
    double[] width = {190, 190, 4, 0.09, 0.6};
    for (int i = 0; i < ROWS; i++) {
      call[i] = random.nextBoolean();
      for (int c = 0; c < 5; c++) {
        int kind = random.nextInt(10);
        numbers[c][i] =
            kind == 0
                ? SPECIAL[random.nextInt(SPECIAL.length)]
                : kind == 1
                    ? Double.longBitsToDouble(random.nextLong())
                    : low[c] + random.nextDouble() * width[c];
      }
    }
    return new Object[] {call, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]};
  }

  /** P0's formula by hand with StrictMath, in the program's operation order. */
  private static double[] strictMathPrices(Object[] columns) {
    boolean[] call = (boolean[]) columns[0];
    double[] price = (double[]) columns[1];
    double[] strike = (double[]) columns[2];
    double[] years = (double[]) columns[3];
    double[] rate = (double[]) columns[4];
    double[] volatility = (double[]) columns[5];
    double[] out = new double[ROWS];
    for (int i = 0; i < ROWS; i++) {
      double v = volatility[i];
      double t = years[i];
      double vSqrtT = v * StrictMath.sqrt(t);
      double d1 = (StrictMath.log(price[i] / strike[i]) + (rate[i] + 0.5 * v * v) * t) / vSqrtT;
      double d2 = d1 - vSqrtT;
      double cndD1 = cnd(d1);
      double cndD2 = cnd(d2);
      double xExpRT = strike[i] * StrictMath.exp(-rate[i] * t);
      out[i] =
          call[i]
              ? price[i] * cndD1 - xExpRT * cndD2
              : xExpRT * (1.0 - cndD2) - price[i] * (1.0 - cndD1);
    }
    return out;
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
}
