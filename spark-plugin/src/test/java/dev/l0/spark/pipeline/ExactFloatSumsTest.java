package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.batches;
import static dev.l0.spark.pipeline.PipelineFixtures.doubles;
import static dev.l0.spark.pipeline.PipelineFixtures.field;
import static dev.l0.spark.pipeline.PipelineFixtures.request;
import static dev.l0.spark.pipeline.PipelineFixtures.schema;
import static dev.l0.spark.pipeline.PipelineFixtures.slice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.exact.ExactFloatSum;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.kernels.exec.KernelExecutor;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.kernels.sim.SimulatorExecutor;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Exact float sums of REDUCE pipelines over batches, partitions and thread counts, against
 * BigDecimal sums.
 */
class ExactFloatSumsTest {
  private static final String SCALED_SUM =
      "fun f64 main([f64] x) = reduce(op +, 0.0, map(fn f64 (f64 v) => v * 3.0, x))";
  private static final String TUPLE_SUM =
      "fun {f32, f64} main([f32] a, [f64] b) =\n"
          + "  reduce(fn {f32, f64} (f32 a1, f64 b1, f32 a2, f64 b2) => {a1 + a2, b2 + b1}, {0.0f32, 0.0}, zip(a, b))\n";
  private static final String SUM_AND_PRODUCT =
      "fun {f64, f64} main([f64] x) =\n"
          + "  {reduce(op +, 0.0, filter(fn bool (f64 v) => 0.0 < v, x)), reduce(op *, 1.0, x)}\n";
  private static final StructType A_B =
      schema(field("a", DataTypes.FloatType), field("b", DataTypes.DoubleType));

  private static PipelineSpec plan(
      String text, StructType schema, FloatSums floatSums, String... columns) {
    return PipelinePlanner.plan(
        request(text, "test.l0", "main", List.of(columns), List.of(), Map.of(), floatSums), schema);
  }

  /**
   * Doubles over 120 binary orders of magnitude, with large values that cancel, so that order
   * changes a rounded sum.
   */
  private static double[] wideDoubles(int rows, Random random) {
    double[] xs = new double[rows];
    for (int i = 0; i < rows; i++) {
      xs[i] =
          random.nextInt(8) == 0
              ? (random.nextBoolean() ? 1e16 : -1e16) + random.nextGaussian()
              : random.nextGaussian() * Math.scalb(1.0, random.nextInt(120) - 60);
    }
    return xs;
  }

  /**
   * {@code input}'s rows split into {@code partitions} partitions, each into random batches, folded
   * and combined as Spark does.
   */
  private static ColumnBatch runInPartitions(
      PipelineSpec spec,
      List<Object> input,
      int rows,
      int partitions,
      int averageBatch,
      int threads,
      Random random) {
    ExecutionSettings settings = new ExecutionSettings(DeviceKind.JVM, -1, threads);
    int per = (rows + partitions - 1) / partitions;
    List<PartialResult> partials = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      int from = Math.min(rows, p * per);
      int to = Math.min(rows, from + per);
      try (PartitionRunner runner = PartitionRunner.open(spec, settings)) {
        batches(slice(input, from, to).columns(), to - from, averageBatch, random)
            .forEach(runner::fold);
        partials.add(runner.partial());
      }
    }
    return PartialCombiner.finish(spec, partials, settings);
  }

  private static double exactly(double[] values) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum.doubleValue();
  }

  private static double[] shuffled(double[] values, Random random) {
    double[] out = values.clone();
    for (int i = out.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      double t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  private static double only(ColumnBatch result, int column) {
    return ((double[]) result.columns().get(column))[0];
  }

  @Property(tries = 25)
  void theExactReduceIsTheRoundedBigDecimalSumWhateverTheOrderBatchesPartitionsAndThreads(
      @ForAll @IntRange(max = 400) int rows,
      @ForAll @IntRange(min = 1, max = 4) int partitions,
      @ForAll @IntRange(min = 1, max = 64) int averageBatch,
      @ForAll @IntRange(min = 1, max = 4) int threads,
      @ForAll long seed) {
    Random random = new Random(seed);
    double[] xs = wideDoubles(rows, random);
    double[] scaled = new double[rows];
    for (int i = 0; i < rows; i++) {
      scaled[i] = xs[i] * 3.0;
    }
    PipelineSpec spec = plan(SCALED_SUM, doubles("x"), FloatSums.EXACT, "x");
    double expected = exactly(scaled);

    double inOrder =
        only(
            runInPartitions(spec, List.of(xs), rows, partitions, averageBatch, threads, random), 0);
    double reordered =
        only(
            runInPartitions(
                spec,
                List.of(shuffled(xs, random)),
                rows,
                5 - partitions,
                1 + random.nextInt(64),
                5 - threads,
                random),
            0);

    assertEquals(
        Double.doubleToRawLongBits(expected),
        Double.doubleToRawLongBits(inOrder),
        expected + " vs " + inOrder);
    assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(reordered));
  }

  @Property(tries = 15)
  void tupleSumsOfF32AndF64AreEachRoundedOnceToTheirType(
      @ForAll @IntRange(max = 300) int rows,
      @ForAll @IntRange(min = 1, max = 4) int partitions,
      @ForAll @IntRange(min = 1, max = 32) int averageBatch,
      @ForAll long seed) {
    Random random = new Random(seed);
    float[] as = new float[rows];
    double[] bs = wideDoubles(rows, random);
    BigDecimal floatSum = BigDecimal.ZERO;
    for (int i = 0; i < rows; i++) {
      as[i] = (float) (random.nextGaussian() * Math.scalb(1.0, random.nextInt(40) - 20));
      floatSum = floatSum.add(new BigDecimal(as[i]));
    }
    PipelineSpec spec = plan(TUPLE_SUM, A_B, FloatSums.EXACT, "a", "b");

    ColumnBatch result =
        runInPartitions(spec, List.of(as, bs), rows, partitions, averageBatch, 2, random);

    assertEquals(
        Float.floatToRawIntBits(floatSum.floatValue()),
        Float.floatToRawIntBits(((float[]) result.columns().get(0))[0]));
    assertEquals(
        Double.doubleToRawLongBits(exactly(bs)), Double.doubleToRawLongBits(only(result, 1)));
  }

  @Test
  void aSumBesideAnotherReduceIsExactAndTheOtherIsCombinedInOrderAsBefore() {
    Random random = new Random(7);
    double[] xs = new double[500];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = 1.0 + random.nextGaussian() * 1e-3;
    }
    PipelineSpec exact = plan(SUM_AND_PRODUCT, doubles("x"), FloatSums.EXACT, "x");
    PipelineSpec ordered = plan(SUM_AND_PRODUCT, doubles("x"), FloatSums.ORDERED, "x");

    ColumnBatch exactResult =
        runInPartitions(exact, List.of(xs), xs.length, 3, 40, 2, new Random(1));
    ColumnBatch orderedResult =
        runInPartitions(ordered, List.of(xs), xs.length, 3, 40, 2, new Random(1));

    double[] positive = java.util.Arrays.stream(xs).filter(v -> 0.0 < v).toArray();
    assertEquals(exactly(positive), only(exactResult, 0));
    assertEquals(
        Double.doubleToRawLongBits(only(orderedResult, 1)),
        Double.doubleToRawLongBits(only(exactResult, 1)));
    assertTrue(exact.summary().endsWith(", exact float sums"), exact.summary());
    assertTrue(exact.explain().contains("float sums: exact"), exact.explain());
    assertTrue(
        exact.explain().contains("the reduce at test.l0:2:4 (f64): exact float sum"),
        exact.explain());
    assertTrue(
        exact
            .explain()
            .contains(
                "combined in order, not exact (its neutral element 1.0 is not 0 (positive zero))"),
        exact.explain());
    assertFalse(ordered.explain().contains("exact"), ordered.explain());
  }

  @Test
  void aRowsPipelineMergedIntoAnExactSumKeepsTheSumExact() {
    double[] xs = wideDoubles(600, new Random(8));
    PipelineSpec halve =
        plan(
            "fun [f64] main([f64] x) = map(fn f64 (f64 v) => v / 2.0, x)",
            doubles("x"),
            FloatSums.ORDERED,
            "x");
    PipelineSpec sum =
        PipelinePlanner.plan(
            request(
                SCALED_SUM, "test.l0", "main", List.of("_1"), List.of(), Map.of(), FloatSums.EXACT),
            halve.outputSchema());
    double[] summands = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      summands[i] = xs[i] / 2.0 * 3.0;
    }

    PipelineSpec merged = PipelinePlanner.merge(halve, sum).orElseThrow();

    assertTrue(merged.summary().endsWith(", exact float sums"), merged.summary());
    assertEquals(
        exactly(summands),
        only(runInPartitions(merged, List.of(xs), xs.length, 3, 25, 2, new Random(2)), 0));
  }

  @Test
  void anExactSumThatOverflowsIsAnErrorAtItsReduceInABatchAndAcrossPartitions() {
    PipelineSpec spec =
        plan("fun f64 main([f64] x) =\n  reduce(op +, 0.0, x)", doubles("x"), FloatSums.EXACT, "x");
    String overflow =
        "test.l0:2:3: reduce: exact sum: intermediate overflow (the sum's magnitude passes "
            + Double.MAX_VALUE
            + ")";
    ExecutionSettings settings = new ExecutionSettings(DeviceKind.JVM, -1, 1);
    try (PartitionRunner runner = PartitionRunner.open(spec, settings)) {
      double[] both = {Double.MAX_VALUE, Double.MAX_VALUE};
      L0RuntimeError inBatch =
          assertThrows(L0RuntimeError.class, () -> runner.fold(new ColumnBatch(2, List.of(both))));
      assertEquals(overflow, inBatch.getMessage());
    }
    List<PartialResult> partials = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      try (PartitionRunner runner = PartitionRunner.open(spec, settings)) {
        runner.fold(new ColumnBatch(1, List.of(new double[] {Double.MAX_VALUE})));
        partials.add(runner.partial());
      }
    }
    L0RuntimeError acrossPartitions =
        assertThrows(L0RuntimeError.class, () -> PartialCombiner.finish(spec, partials, settings));
    assertEquals(overflow, acrossPartitions.getMessage());
  }

  @Test
  void theSummandsRunAsAKernelOnTheJvmBackendNotOnTheEvaluator() {
    PipelineSpec spec = plan(SCALED_SUM, doubles("x"), FloatSums.EXACT, "x");
    double[] xs = wideDoubles(1000, new Random(3));

    try (PartitionRunner runner =
        PartitionRunner.open(spec, new ExecutionSettings(DeviceKind.JVM, -1, 2))) {
      runner.fold(new ColumnBatch(xs.length, List.of(xs)));
      assertTrue(runner.device().startsWith("jvm"), runner.device());
      assertTrue(runner.statistics().kernelNanos() > 0, "no kernel ran");
    }
    assertEquals(List.of("map"), spec.kernelShapes());
  }

  @Test
  void theSimulatorComputesTheSameSummandsAsTheJvmBackend() {
    PipelineSpec spec = plan(SCALED_SUM, doubles("x"), FloatSums.EXACT, "x");
    double[] xs = wideDoubles(777, new Random(5));
    List<double[]> summands = new ArrayList<>();
    for (KernelExecutor executor : List.of(new JvmKernelExecutor(2), new SimulatorExecutor(32))) {
      HostRunner runner = HostRunner.compile(spec.programs().main().program(), executor);
      RunMeter meter = new RunMeter();
      List<HostValue> results =
          runner.callFlattened(
              "main",
              List.of(HostValue.of(new FlatArray(ScalarType.F64, xs, new int[] {xs.length}))),
              meter);
      assertTrue(meter.kernelNanos() > 0, executor.name() + " ran no kernel");
      summands.add((double[]) results.get(0).flat().data());
    }
    assertArrayEquals(summands.get(0), summands.get(1));
    assertEquals(
        ExactFloatSum.of(summands.get(0)).value(), ExactFloatSum.of(summands.get(1)).value());
  }

  @Test
  void askingForExactSumsWhereThereIsNoneIsAPlanningErrorUnlessItIsTheSessionDefault() {
    String maximum =
        "fun f64 main([f64] x) = reduce(fn f64 (f64 a, f64 b) => max(a, b), -1.0e300, x)";
    String rows = "fun [f64] main([f64] x) = map(fn f64 (f64 v) => v + 1.0, x)";

    PipelinePlanningException noSum =
        assertThrows(
            PipelinePlanningException.class,
            () -> plan(maximum, doubles("x"), FloatSums.EXACT, "x"));
    PipelinePlanningException notReduce =
        assertThrows(
            PipelinePlanningException.class, () -> plan(rows, doubles("x"), FloatSums.EXACT, "x"));

    assertTrue(
        noSum
            .getMessage()
            .contains(
                "no float sum to make exact: the reduce at test.l0:1:25 (f64): "
                    + "its neutral element -1.0e300 is not 0"),
        noSum.getMessage());
    assertTrue(
        notReduce.getMessage().contains("the results of 'main' are row-wise"),
        notReduce.getMessage());
    assertEquals(
        plan(maximum, doubles("x"), FloatSums.ORDERED, "x"),
        plan(maximum, doubles("x"), FloatSums.EXACT_WHERE_PRESENT, "x"));
    assertEquals(
        plan(rows, doubles("x"), FloatSums.ORDERED, "x"),
        plan(rows, doubles("x"), FloatSums.EXACT_WHERE_PRESENT, "x"));
  }
}
