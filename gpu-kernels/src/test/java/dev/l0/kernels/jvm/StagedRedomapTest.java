package dev.l0.kernels.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.exec.HostEnvironment;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.Kernel;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.ir.ReductionOrder;
import dev.l0.kernels.lower.KernelLowering;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.opt.KernelKind;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.opt.ir.SubExp;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import dev.l0.types.TypeChecker;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The staged form of a redomap's chunk kernel ({@link StagedRedomap}) on the sum of P0's
 * Black-Scholes prices: the map part runs staged (the worker's value arrays are written, explain
 * says so), and the sums equal the per-row code's and the reduction-order contract's ({@link
 * ReductionOrder#reduce} of a hand-written StrictMath loop) bit for bit, on 1 and 2 threads, for
 * sizes around the chunk of 1024 rows, the vector length and the reduction order's chunks.
 */
class StagedRedomapTest {
  private static final String PROGRAM =
      TestPrograms.text(TestPrograms.P0_BLACKSCHOLES)
          + "\nfun real main ([{bool,real,real,real,real,real}] xs) = reduce(op +, 0.0, map(go, xs))\n";

  private final OptimizedProgram optimized =
      Optimizer.optimize(TypeChecker.check(L0Parser.parse(PROGRAM, "bs_sum.l0")));
  private final KernelPlan.Kernel redomap =
      optimized.kernelPlan().kernels().stream()
          .filter(k -> k.kind() == KernelKind.REDOMAP)
          .findFirst()
          .orElseThrow();
  private final KernelGroup group =
      KernelLowering.lower(optimized.kernelPlan(), redomap, LaunchConfiguration.THREAD_PER_ROW);
  private final Kernel chunks = group.kernels().get(0);

  @Test
  void theChunkKernelIsStagedWithItsWholeMapAndExplainSaysSo() {
    JavaKernelIrPrinter.KernelSource source = JavaKernelIrPrinter.print(chunks);
    assertTrue(source.staged(), source::source);
    for (String call : List.of("VectorMath.sqrt(", "VectorMath.log(", "VectorMath.exp(")) {
      assertTrue(source.source().contains(call), call);
    }
    String form = JvmKernelForm.describe(chunks);
    assertTrue(
        form.startsWith(
            "map part staged, fold per row in the reduction order, in chunks of "
                + StagedMapPrinter.REDOMAP_CHUNK
                + " rows"),
        form);
    // the whole price is staged: the fold reads one value a row
    assertEquals(1, StagedRedomap.of(chunks).orElseThrow().values().size());
    assertEquals("per row", JvmKernelForm.describe(group.kernels().get(1)));
    assertFalse(JavaKernelIrPrinter.printPerRow(chunks).staged());
  }

  @Test
  void theChunkKernelChecksItsInputsLengthsInTheKernelsBufferOrder() {
    // the staged inputs are a set without an order of its own (Set.copyOf's differs between JVM
    // runs), so the source, which explain --java prints and Janino's class cache keys, follows the
    // kernel's buffers
    String source = JavaKernelIrPrinter.print(chunks).source();
    StringBuilder checks = new StringBuilder("chunkSize$ >= 1L && chunkSize$ <= ");
    checks.append(StagedMapPrinter.REDOMAP_CHUNK).append("L");
    for (int k = 0; k < chunks.buffers().size(); k++) {
      if (source.contains("b$" + k + ".length >= rows$")) {
        checks.append(" && b$").append(k).append(".length >= rows$");
      }
    }
    assertTrue(source.contains("if (!(" + checks + ")) {"), source);
    assertTrue(checks.toString().contains("b$5.length"), checks::toString);
  }

  @Test
  void stagedSumsEqualThePerRowCodeAndTheReductionOrderBitForBit() {
    Random random = new Random(20261126);
    for (int rows :
        new int[] {1, 7, 8, 17, 1023, 1024, 1025, 3 * 1024 + 77, 20_000, 1_048_576 + 9}) {
      Object[] columns = columns(rows, random);
      double expected =
          ReductionOrder.reduce(rows, 0.0, (acc, i) -> acc + price(columns, (int) i), Double::sum);
      for (int threads : new int[] {1, 2}) {
        double staged = sum(new JvmGroupRunner(group, threads), columns, rows);
        double perRow =
            sum(
                new JvmGroupRunner(
                    group, threads, k -> JaninoKernels.compile(JavaKernelIrPrinter.printPerRow(k))),
                columns,
                rows);
        String what = rows + " rows on " + threads + " threads";
        assertEquals(
            Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(perRow),
            "per row, " + what);
        assertEquals(
            Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(staged),
            "staged, " + what);
      }
    }
  }

  @Test
  void theStagedCodeRunsInTheWorkersWorkspaceAndGivesThePerRowPartials() {
    int rows = 5 * 1024 + 3;
    Object[] columns = columns(rows, new Random(7));
    long chunkCount = ReductionOrder.chunkCount(rows);
    KernelThreads staged = JaninoKernels.compile(JavaKernelIrPrinter.print(chunks));
    KernelThreads perRow = JaninoKernels.compile(JavaKernelIrPrinter.printPerRow(chunks));
    Object workspace = staged.newWorkspace();
    double[] stagedPartials = partials(staged, columns, rows, workspace);
    double[] perRowPartials = partials(perRow, columns, rows, null);
    assertEquals(chunkCount, stagedPartials.length);
    assertTrue(
        Arrays.stream((Object[]) workspace)
            .anyMatch(
                a ->
                    a instanceof double[] d
                        && Arrays.stream(d).anyMatch(x -> Double.doubleToRawLongBits(x) != 0)),
        "the staged code wrote the workspace");
    for (int c = 0; c < chunkCount; c++) {
      assertEquals(
          Double.doubleToRawLongBits(perRowPartials[c]),
          Double.doubleToRawLongBits(stagedPartials[c]),
          "partial of chunk " + c);
    }
  }

  /** The chunk kernel's partials for all its blocks, run in one range, with the scalars by name. */
  private double[] partials(KernelThreads code, Object[] columns, int rows, Object workspace) {
    long chunkCount = ReductionOrder.chunkCount(rows);
    double[] partials = new double[(int) chunkCount];
    Object[] memory = new Object[chunks.buffers().size() + chunks.shared().size() + 1];
    for (int k = 0; k < chunks.buffers().size(); k++) {
      Buffer b = chunks.buffers().get(k);
      memory[k] = b.name().startsWith("partial") ? partials : columns[columnOfBuffer(b)];
    }
    for (int k = 0; k < chunks.shared().size(); k++) {
      memory[chunks.buffers().size() + k] = new double[1];
    }
    memory[memory.length - 1] = workspace;
    Object[] scalars = new Object[chunks.scalars().size()];
    for (int k = 0; k < scalars.length; k++) {
      String name = chunks.scalars().get(k).name();
      scalars[k] =
          name.startsWith("chunkSize")
              ? ReductionOrder.chunkSize(rows)
              : name.startsWith("chunks") ? chunkCount : (Object) (long) rows;
    }
    assertEquals(0, code.run(memory, scalars, 0, (int) chunkCount, (int) chunkCount));
    return partials;
  }

  private int columnOfBuffer(Buffer b) {
    for (dev.l0.kernels.ir.GroupInput input : group.inputs()) {
      if (input instanceof dev.l0.kernels.ir.GroupInput.Array a && a.buffer().equals(b)) {
        return inputIndex(a.name());
      }
    }
    throw new AssertionError("no input for buffer " + b.name());
  }

  private int inputIndex(String name) {
    for (int k = 0; k < redomap.inputs().size(); k++) {
      if (((SubExp.Var) redomap.inputs().get(k)).name().equals(name)) {
        return k;
      }
    }
    throw new AssertionError("no redomap input " + name);
  }

  private double sum(JvmGroupRunner runner, Object[] columns, int rows) {
    HostEnvironment environment = new HostEnvironment(new RunMeter());
    for (int k = 0; k < columns.length; k++) {
      ScalarType type = k == 0 ? ScalarType.BOOL : ScalarType.F64;
      environment.bind(
          ((SubExp.Var) redomap.inputs().get(k)).name(),
          HostValue.of(new FlatArray(type, columns[k], new int[] {rows})));
    }
    return ((dev.l0.ir.ScalarValue.Float)
            runner.run(environment).values().iterator().next().boxed())
        .value();
  }

  /** {call, price, strike, years, rate, volatility}: ordinary options. */
  private static Object[] columns(int rows, Random random) {
    boolean[] call = new boolean[rows];
    double[][] numbers = new double[5][rows];
    double[] low = {10, 10, 0.05, 0.01, 0.05};
    double[] width = {190, 190, 4, 0.09, 0.6};
    for (int i = 0; i < rows; i++) {
      call[i] = random.nextBoolean();
      for (int c = 0; c < 5; c++) {
        numbers[c][i] = low[c] + random.nextDouble() * width[c];
      }
    }
    return new Object[] {call, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]};
  }

  /** P0's formula by hand with StrictMath, in the program's operation order. */
  private static double price(Object[] columns, int i) {
    boolean call = ((boolean[]) columns[0])[i];
    double price = ((double[]) columns[1])[i];
    double strike = ((double[]) columns[2])[i];
    double t = ((double[]) columns[3])[i];
    double rate = ((double[]) columns[4])[i];
    double v = ((double[]) columns[5])[i];
    double vSqrtT = v * StrictMath.sqrt(t);
    double d1 = (StrictMath.log(price / strike) + (rate + 0.5 * v * v) * t) / vSqrtT;
    double d2 = d1 - vSqrtT;
    double cndD1 = cnd(d1);
    double cndD2 = cnd(d2);
    double xExpRT = strike * StrictMath.exp(-rate * t);
    return call ? price * cndD1 - xExpRT * cndD2 : xExpRT * (1.0 - cndD2) - price * (1.0 - cndD1);
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
