package dev.l0.kernels.exact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.api.MeasuredRun;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.sim.SimulatorExecutor;
import dev.l0.syntax.L0Parser;
import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Programs compiled with exact float sums: BigDecimal-rounded sums on every thread count, the JVM
 * backend and the simulator.
 */
class ExactFloatSumProgramTest {
  private static final Program SCALED_SUM =
      L0Parser.parse(
          "fun f64 main([f64] x) = reduce(op +, 0.0, map(fn f64 (f64 v) => v * 3.0, x))",
          "scaled_sum.l0");
  private static final Program SUM_PAIR_AND_MAX =
      L0Parser.parse(
          """
      fun {{f32, f64}, f64} main([f32] a, [f64] b) =
        let m = reduce(fn f64 (f64 p, f64 q) => max(p, q), -1.0e300, b) in
        {reduce(fn {f32, f64} (f32 a1, f64 b1, f32 a2, f64 b2) => {a1 + a2, b1 + b2}, {0.0f32, 0.0}, zip(a, b)), m}
      """,
          "pair.l0");

  /** Doubles over 120 binary orders of magnitude, with large values that cancel. */
  private static double[] wideDoubles(int count, Random random) {
    double[] xs = new double[count];
    for (int i = 0; i < count; i++) {
      xs[i] =
          random.nextInt(8) == 0
              ? (random.nextBoolean() ? 1e16 : -1e16) + random.nextGaussian()
              : random.nextGaussian() * Math.scalb(1.0, random.nextInt(120) - 60);
    }
    return xs;
  }

  private static BigDecimal exactSum(double[] values) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum;
  }

  @Property(tries = 20)
  void theExactSumIsTheRoundedBigDecimalSumOnEveryThreadCountAndRunsAsAKernel(
      @ForAll @IntRange(max = 300_000) int count,
      @ForAll @IntRange(min = 1, max = 4) int threads,
      @ForAll long seed) {
    double[] xs = wideDoubles(count, new Random(seed));
    double[] scaled = new double[count];
    for (int i = 0; i < count; i++) {
      scaled[i] = xs[i] * 3.0;
    }
    CompiledProgram program =
        L0Runtime.compileWithExactFloatSums(
            SCALED_SUM, "main", DeviceKind.JVM, CudaProbe.DEFAULT_ORDINAL, threads);

    MeasuredRun run = program.runMeasured((Object) xs);

    assertEquals(
        Double.doubleToRawLongBits(exactSum(scaled).doubleValue()),
        Double.doubleToRawLongBits((Double) run.result()));
    assertEquals("jvm", program.executorName());
    assertTrue(count == 0 || run.measurements().kernelNanos() > 0, "the summands ran on no kernel");
    assertEquals(
        List.of("result 1 (at scaled_sum.l0:1:25, f64): exact float sum"),
        program.exactFloatSums());
  }

  @Test
  void aTupleSumIsRoundedOnceToEachTypeAndAnotherResultIsAsCompiled() {
    Random random = new Random(9);
    float[] as = new float[3000];
    for (int i = 0; i < as.length; i++) {
      as[i] = (float) (random.nextGaussian() * Math.scalb(1.0, random.nextInt(40) - 20));
    }
    double[] bs = wideDoubles(3000, random);
    BigDecimal floatSum = BigDecimal.ZERO;
    for (float a : as) {
      floatSum = floatSum.add(new BigDecimal(a));
    }
    CompiledProgram exact =
        L0Runtime.compileWithExactFloatSums(SUM_PAIR_AND_MAX, "main", DeviceKind.JVM, 0, 2);
    CompiledProgram ordinary = L0Runtime.compile(SUM_PAIR_AND_MAX, "main", DeviceKind.JVM);

    Object[] result = (Object[]) exact.run(as, bs);
    Object[] pair = (Object[]) result[0];

    assertEquals(floatSum.floatValue(), (Float) pair[0]);
    assertEquals(exactSum(bs).doubleValue(), (Double) pair[1]);
    assertEquals(((Object[]) ordinary.run(as, bs))[1], result[1]);
    assertTrue(
        exact.exactFloatSums().get(1).contains("as compiled (not a reduce)"),
        exact.exactFloatSums().toString());
  }

  @Test
  void theSimulatorComputesTheSameSummandsAndSumAsTheJvmBackend() {
    double[] xs = wideDoubles(2000, new Random(4));
    ExactFloatSumProgram exact = ExactFloatSumProgram.of(SCALED_SUM, "main");
    HostRunner simulated = HostRunner.compile(exact.summands(), new SimulatorExecutor(32));
    RunMeter meter = new RunMeter();

    List<HostValue> summands =
        simulated.callFlattened(
            "main",
            List.of(HostValue.of(new FlatArray(ScalarType.F64, xs, new int[] {xs.length}))),
            meter);
    double simulatedSum =
        ((dev.l0.ir.ScalarValue.Float) exact.finish(summands).get(0).boxed()).value();
    double jvmSum =
        (Double)
            L0Runtime.compileWithExactFloatSums(SCALED_SUM, "main", DeviceKind.JVM, 0, 2)
                .run((Object) xs);

    assertTrue(meter.kernelNanos() > 0, "the simulator ran no kernel");
    assertEquals(Double.doubleToRawLongBits(jvmSum), Double.doubleToRawLongBits(simulatedSum));
    double[] scaled = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      scaled[i] = xs[i] * 3.0;
    }
    assertArrayEquals(scaled, (double[]) summands.get(0).flat().data());
  }

  @Test
  void aProgramWithoutAFloatSumIsACompileErrorAtItsEntry() {
    Program product = L0Parser.parse("fun f64 main([f64] x) = reduce(op *, 1.0, x)", "product.l0");

    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () -> L0Runtime.compileWithExactFloatSums(product, "main", DeviceKind.JVM, 0, 1));

    assertTrue(error.getMessage().startsWith("product.l0:1:1"), error.getMessage());
    assertTrue(
        error
            .getMessage()
            .contains(
                "no result of 'main' is a float sum (result 1 (at product.l0:1:25): "
                    + "as compiled (its neutral element 1.0 is not 0 (positive zero)))"),
        error.getMessage());
  }

  /**
   * A sum from -0.0 is left as compiled: dropping its neutral element would turn IEEE's -0.0 (of no
   * values, or only -0.0s) into 0.0.
   */
  @Test
  void aSumFromNegativeZeroIsNotTakenAsAnExactSum() {
    Program fromNegativeZero =
        L0Parser.parse("fun f64 main([f64] x) = reduce(op +, -0.0, x)", "negzero.l0");

    L0CompileError error =
        assertThrows(
            L0CompileError.class,
            () ->
                L0Runtime.compileWithExactFloatSums(
                    fromNegativeZero, "main", DeviceKind.JVM, 0, 1));

    assertTrue(
        error.getMessage().contains("its neutral element -0.0 is not 0 (positive zero)"),
        error.getMessage());
  }
}
