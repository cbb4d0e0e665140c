package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.runtime.CudaProbe;
import dev.l0.kernels.runtime.CudaUnavailableException;
import dev.l0.kernels.runtime.DeviceKind;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Runners over batches and partitions against the reference interpreter on the whole input. */
class PartitionRunnerTest {
  private static final String MAP_FILTER =
      "fun {[f64], [i64]} main([f64] xs, [i64] ns) =\n"
          + "  let kept = filter(fn bool (f64 x, i64 n) => 0.0 < x, zip(xs, ns)) in\n"
          + "  unzip(map(fn {f64, i64} (f64 x, i64 n) => {sqrt(x) * f64(n), n * 3i64}, kept))\n";
  private static final StructType X_N =
      schema(field("x", DataTypes.DoubleType), field("n", DataTypes.LongType));
  private static final String INTEGER_REDUCE =
      "fun {i64, {i32, i32}} main([i64] ns, [i32] ks) =\n"
          + "  {reduce(op +, 0i64, map(fn i64 (i64 n) => n * n - 7i64, ns)),\n"
          + "   reduce(fn {i32, i32} (i32 a, i32 b, i32 c, i32 d) => {max(a, c), b + d}, {-2147483648, 0}, zip(ks, ks))}\n";
  private static final StructType N_K =
      schema(field("n", DataTypes.LongType), field("k", DataTypes.IntegerType));

  private static List<Object> xn(int rows, Random random) {
    double[] xs = new double[rows];
    long[] ns = new long[rows];
    for (int i = 0; i < rows; i++) {
      xs[i] = random.nextGaussian() * 10;
      ns[i] = random.nextInt(2001) - 1000;
    }
    return List.of(xs, ns);
  }

  private static List<Object> nk(int rows, Random random) {
    long[] ns = new long[rows];
    int[] ks = new int[rows];
    for (int i = 0; i < rows; i++) {
      ns[i] = random.nextLong() >> 20;
      ks[i] = random.nextInt();
    }
    return List.of(ns, ks);
  }

  @Property(tries = 15)
  void rowsOverAnyBatchSplitConcatenateToTheWholeResult(
      @ForAll @IntRange(max = 300) int rows,
      @ForAll @IntRange(min = 1, max = 64) int averageBatch,
      @ForAll long seed) {
    Random random = new Random(seed);
    List<Object> input = xn(rows, random);
    PipelineSpec spec = plan(MAP_FILTER, X_N, "x", "n");
    List<ColumnBatch> outputs = new ArrayList<>();
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      for (ColumnBatch batch : batches(input, rows, averageBatch, random)) {
        outputs.add(runner.mapRows(batch));
      }
    }
    List<Object> expected = reference(MAP_FILTER, "main", input);
    List<Object> actual =
        outputs.isEmpty() ? List.of(new double[0], new long[0]) : concat(outputs, 2);
    assertArrayEquals((double[]) expected.get(0), (double[]) actual.get(0));
    assertArrayEquals((long[]) expected.get(1), (long[]) actual.get(1));
  }

  /**
   * {@code spark.l0.device=cuda} on an executor without a usable GPU fails the task naming the
   * pipeline's call site and why CUDA cannot work.
   */
  @Test
  void cudaWhereItCannotWorkIsAnErrorNamingTheCallSite() {
    assumeFalse(
        CudaProbe.probe().isAvailable()
            && dev.l0.kernels.runtime.PtxCompilers.onThisMachine().isAvailable(),
        "CUDA works here");
    PipelineSpec spec = plan(MAP_FILTER, X_N, "x", "n");
    ExecutionSettings cuda = new ExecutionSettings(DeviceKind.CUDA, -1, 2);
    CudaUnavailableException error =
        assertThrows(
            CudaUnavailableException.class,
            () -> {
              try (PartitionRunner runner = PartitionRunner.open(spec, cuda)) {
                runner.mapRows(batches(xn(3, new Random(1)), 3, 3, new Random(1)).get(0));
              }
            });
    assertTrue(
        error
            .getMessage()
            .startsWith("L0 pipeline at " + spec.callSite() + ": device cuda was requested"),
        error.getMessage());
  }

  @Test
  void batchAfterBatchTheResultArrayIsReusedAndTheInputColumnsAreNot() {
    String text =
        "fun {[f64], [f64]} main([f64] xs) = {xs, map(fn f64 (f64 x) => sqrt(x) * 3.0, xs)}\n";
    PipelineSpec spec = plan(text, doubles("x"), "x");
    Random random = new Random(23);
    int[] rows = {512, 512, 7, 512};
    List<ColumnBatch> inputs = new ArrayList<>();
    for (int count : rows) {
      inputs.add(new ColumnBatch(count, List.of(random.doubles(count).toArray())));
    }
    List<double[]> results = new ArrayList<>();
    try (PartitionRunner reusing = PartitionRunner.open(spec, JVM);
        PartitionRunner fresh = PartitionRunner.open(spec, JVM)) {
      assertTrue(reusing.device().startsWith("jvm"), reusing.device());
      for (ColumnBatch input : inputs) {
        double[] xs = ((double[]) input.columns().get(0)).clone();
        ColumnBatch output = reusing.mapNextRows(input);
        assertSame(input.columns().get(0), output.columns().get(0));
        assertArrayEquals(xs, (double[]) output.columns().get(0));
        assertArrayEquals(
            (double[]) fresh.mapRows(input).columns().get(1), (double[]) output.columns().get(1));
        results.add((double[]) output.columns().get(1));
      }
    }
    assertSame(results.get(0), results.get(1));
    assertSame(results.get(0), results.get(3));
    for (ColumnBatch input : inputs) {
      for (double[] result : results) {
        assertNotSame(input.columns().get(0), result);
      }
    }
  }

  @Test
  void arrayColumnsMapToArrayOutputsOverAnySplit() {
    String text =
        "fun {[[f64]], [f64]} main([[f64]] paths, [f64] weights) =\n"
            + "  unzip(map(fn {[f64], f64} ([f64] path, f64 w) => {map(fn f64 (f64 x) => w * x, path), reduce(op +, 0.0, path)},"
            + " zip(paths, weights)))\n";
    StructType schema =
        schema(
            field("path", DataTypes.createArrayType(DataTypes.DoubleType)),
            field("w", DataTypes.DoubleType));
    PipelineSpec spec = plan(text, schema, "path", "w");
    assertEquals(
        DataTypes.createArrayType(DataTypes.DoubleType, false),
        spec.outputSchema().fields()[0].dataType());
    Random random = new Random(5);
    int rows = 50;
    FlatArray paths =
        new FlatArray(ScalarType.F64, random.doubles(rows * 4).toArray(), new int[] {rows, 4});
    List<Object> input = List.of(paths, random.doubles(rows).toArray());
    List<ColumnBatch> outputs = new ArrayList<>();
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      for (ColumnBatch batch : batches(input, rows, 6, random)) {
        ColumnBatch output = runner.mapRows(batch);
        assertArrayEquals(
            new int[] {batch.rows(), 4}, ((FlatArray) output.columns().get(0)).shape());
        outputs.add(output);
      }
    }
    List<Object> expected = reference(text, "main", input);
    List<Object> actual = concat(outputs, 2);
    assertArrayEquals((double[]) expected.get(0), (double[]) actual.get(0));
    assertArrayEquals((double[]) expected.get(1), (double[]) actual.get(1));
  }

  @Property(tries = 15)
  void integerReductionsAreBitIdenticalForAnySplit(
      @ForAll @IntRange(max = 300) int rows,
      @ForAll @IntRange(min = 1, max = 64) int averageBatch,
      @ForAll @IntRange(min = 1, max = 4) int partitions,
      @ForAll long seed) {
    Random random = new Random(seed);
    List<Object> input = nk(rows, random);
    PipelineSpec spec = plan(INTEGER_REDUCE, N_K, "n", "k");
    List<PartialResult> partials = new ArrayList<>();
    int per = (rows + partitions - 1) / partitions;
    for (int p = 0; p < partitions; p++) {
      int from = Math.min(rows, p * per);
      int to = Math.min(rows, from + per);
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        batches(slice(input, from, to).columns(), to - from, averageBatch, random)
            .forEach(runner::fold);
        partials.add(runner.partial());
      }
    }
    ColumnBatch result = PartialCombiner.finish(spec, partials, JVM);
    assertEquals(1, result.rows());
    List<Object> expected = reference(INTEGER_REDUCE, "main", input);
    assertArrayEquals((long[]) expected.get(0), (long[]) result.columns().get(0));
    assertArrayEquals((int[]) expected.get(1), (int[]) result.columns().get(1));
    assertArrayEquals((int[]) expected.get(2), (int[]) result.columns().get(2));
  }

  @Test
  void floatReductionsAreCloseToTheSequentialFold() {
    String text =
        "fun {f64, f64} main([f64] q, [f64] p) =\n"
            + "  {reduce(op +, 0.0, map(op *, zip(q, p))), reduce(fn f64 (f64 a, f64 b) => max(a, b), -1.0e300, p)}\n";
    Random random = new Random(7);
    int rows = 5000;
    double[] q = new double[rows];
    double[] p = new double[rows];
    for (int i = 0; i < rows; i++) {
      q[i] = random.nextDouble() * 100;
      p[i] = random.nextGaussian();
    }
    List<Object> input = List.of(q, p);
    PipelineSpec spec = plan(text, doubles("q", "p"), "q", "p");
    List<PartialResult> partials = new ArrayList<>();
    for (int part = 0; part < 3; part++) {
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        int from = part * rows / 3;
        int to = (part + 1) * rows / 3;
        batches(slice(input, from, to).columns(), to - from, 300, random).forEach(runner::fold);
        partials.add(runner.partial());
      }
    }
    ColumnBatch result = PartialCombiner.finish(spec, partials, JVM);
    List<Object> expected = reference(text, "main", input);
    assertEquals(
        ((double[]) expected.get(0))[0],
        ((double[]) result.columns().get(0))[0],
        1e-9 * Math.abs(((double[]) expected.get(0))[0]));
    assertArrayEquals((double[]) expected.get(1), (double[]) result.columns().get(1));
    assertArrayEquals(
        ((double[]) PartialCombiner.finish(spec, partials, JVM).columns().get(0)),
        (double[]) result.columns().get(0),
        "the same partitioning gives the same bits");
  }

  @Test
  void reduceOfNoRowsIsTheNeutralElement() {
    PipelineSpec spec = plan(INTEGER_REDUCE, N_K, "n", "k");
    ColumnBatch none = PartialCombiner.finish(spec, List.of(), JVM);
    assertArrayEquals(new long[] {0}, (long[]) none.columns().get(0));
    assertArrayEquals(new int[] {Integer.MIN_VALUE}, (int[]) none.columns().get(1));
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      assertEquals(List.of(0L, Integer.MIN_VALUE, 0), runner.partial().values());
    }
  }

  @Test
  void reduceOfArraysWithANamedOperatorGivesOneArrayRow() {
    String text =
        "fun [f64] add([f64] a, [f64] b) = map(op +, zip(a, b))\n\n"
            + "fun [f64] main([[f64]] paths) = reduce(add, [0.0, 0.0, 0.0], paths)\n";
    StructType schema = schema(field("path", DataTypes.createArrayType(DataTypes.DoubleType)));
    PipelineSpec spec = plan(text, schema, "path");
    assertEquals(
        DataTypes.createArrayType(DataTypes.DoubleType, false),
        spec.outputSchema().fields()[0].dataType());
    double[] data = {1, 2, 3, 10, 20, 30, 100, 200, 300};
    FlatArray paths = new FlatArray(ScalarType.F64, data, new int[] {3, 3});
    List<PartialResult> partials = new ArrayList<>();
    for (int part = 0; part < 2; part++) {
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        runner.fold(slice(List.of(paths), part, part + 1 + part));
        partials.add(runner.partial());
      }
    }
    ColumnBatch result = PartialCombiner.finish(spec, partials, JVM);
    FlatArray row = (FlatArray) result.columns().get(0);
    assertArrayEquals(new int[] {1, 3}, row.shape());
    assertArrayEquals(new double[] {111, 222, 333}, (double[]) row.data());
  }

  @Test
  void operatorsOfEveryFormCombineAcrossBatches() {
    String text =
        "fun {f64, i32} pick(f64 a, i32 i, f64 b, i32 j) = if a < b then {b, j} else {a, i}\n\n"
            + "fun {f64, i64, {f64, i32}} main([f64] xs, [i64] ns, [i32] ids) =\n"
            + "  {reduce(max, -1.0e300, xs), reduce(op *, 1i64, ns), reduce(pick, {-1.0e300, -1}, zip(xs, ids))}\n";
    StructType schema =
        schema(
            field("x", DataTypes.DoubleType),
            field("n", DataTypes.LongType),
            field("id", DataTypes.IntegerType));
    Random random = new Random(11);
    int rows = 40;
    double[] xs = random.doubles(rows).toArray();
    long[] ns = random.longs(rows, 1, 4).toArray();
    int[] ids = IntStream.range(0, rows).toArray();
    List<Object> input = List.of(xs, ns, ids);
    PipelineSpec spec = plan(text, schema, "x", "n", "id");
    List<PartialResult> partials = new ArrayList<>();
    for (int part = 0; part < 2; part++) {
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        batches(slice(input, part * 20, part * 20 + 20).columns(), 20, 4, random)
            .forEach(runner::fold);
        partials.add(runner.partial());
      }
    }
    ColumnBatch result = PartialCombiner.finish(spec, partials, JVM);
    List<Object> expected = reference(text, "main", input);
    for (int k = 0; k < 4; k++) {
      assertEquals(
          Array.get(expected.get(k), 0),
          Array.get(result.columns().get(k), 0),
          "result column " + k);
    }
  }

  @Property(tries = 15)
  void integerScansOverPartitionsEqualTheSequentialLoop(
      @ForAll @IntRange(min = 1, max = 300) int rows,
      @ForAll @IntRange(min = 1, max = 64) int averageBatch,
      @ForAll @IntRange(min = 1, max = 5) int partitions,
      @ForAll long seed) {
    String text =
        "fun {[i64], [i32]} main([i64] ns, [i32] ks) =\n"
            + "  {scan(op +, 0i64, map(fn i64 (i64 n) => 2i64 * n, ns)), scan(fn i32 (i32 a, i32 b) => max(a, b), -2147483648, ks)}\n";
    Random random = new Random(seed);
    List<Object> input = nk(rows, random);
    PipelineSpec spec = plan(text, N_K, "n", "k");
    List<Object> actual =
        concat(scanInPartitions(spec, input, rows, partitions, averageBatch, random), 2);
    long[] ns = (long[]) input.get(0);
    int[] ks = (int[]) input.get(1);
    long[] sums = new long[rows];
    int[] maxima = new int[rows];
    long sum = 0;
    int max = Integer.MIN_VALUE;
    for (int i = 0; i < rows; i++) {
      sum += 2 * ns[i];
      max = Math.max(max, ks[i]);
      sums[i] = sum;
      maxima[i] = max;
    }
    assertArrayEquals(sums, (long[]) actual.get(0));
    assertArrayEquals(maxima, (int[]) actual.get(1));
  }

  @Test
  void floatScanWithTupleOperatorIsCloseToTheSequentialLoop() {
    String text =
        "fun [{f64, f64}] main([f64] xs) =\n"
            + "  scan(fn {f64, f64} (f64 s, f64 c, f64 t, f64 d) => {s + t, c + d}, {0.0, 0.0},"
            + " map(fn {f64, f64} (f64 x) => {x, 1.0}, xs))\n";
    Random random = new Random(3);
    int rows = 1000;
    double[] xs = random.doubles(rows).toArray();
    PipelineSpec spec = plan(text, doubles("x"), "x");
    assertEquals(PipelineKind.SCAN, spec.kind());
    List<Object> actual = concat(scanInPartitions(spec, List.of(xs), rows, 4, 50, random), 2);
    double sum = 0;
    for (int i = 0; i < rows; i++) {
      sum += xs[i];
      assertEquals(sum, ((double[]) actual.get(0))[i], 1e-9 * sum);
      assertEquals(i + 1.0, ((double[]) actual.get(1))[i]);
    }
  }

  @Test
  void badInputColumnsAreNamed() {
    PipelineSpec spec = plan(MAP_FILTER, X_N, "x", "n");
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      IllegalArgumentException type =
          assertThrows(
              IllegalArgumentException.class,
              () -> runner.mapRows(new ColumnBatch(1, List.of(new double[] {1}, new int[] {1}))));
      assertEquals(
          "input column 'n' must be an i64 primitive array, given int[]", type.getMessage());
      IllegalArgumentException rows =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  runner.mapRows(new ColumnBatch(2, List.of(new double[] {1, 2}, new long[] {1}))));
      assertEquals("input column 'n' has 1 rows, but the batch has 2", rows.getMessage());
      assertThrows(
          IllegalStateException.class,
          () -> runner.fold(new ColumnBatch(0, List.of(new double[0], new long[0]))));
    }
  }

  @Test
  void statisticsCountKernelTimeAndCacheHits() {
    PipelineSpec spec = plan(MAP_FILTER, X_N, "x", "n");
    try (PartitionRunner first = PartitionRunner.open(spec, JVM)) {
      first.mapRows(new ColumnBatch(2, List.of(new double[] {1, 4}, new long[] {1, 2})));
      assertTrue(first.statistics().kernelNanos() > 0, first.statistics().toString());
      assertEquals("jvm: requested", first.device());
    }
    try (PartitionRunner second = PartitionRunner.open(spec, JVM)) {
      assertEquals(
          0,
          second.statistics().compileCacheHits(),
          "nothing is compiled or looked up before it is needed");
      second.mapRows(new ColumnBatch(1, List.of(new double[] {1}, new long[] {1})));
      RunStatistics statistics = second.statistics();
      assertEquals(0, statistics.compileNanos());
      assertEquals(1, statistics.compileCacheHits());
      assertEquals(0, statistics.fallbacks());
    }
  }

  @Test
  void aGpuAssignedToTheTaskThatCannotBeUsedIsAFallbackWithItsReason() {
    assumeFalse(CudaProbe.probe(0).isAvailable(), "needs a machine where GPU 0 cannot be used");
    PipelineSpec spec = plan(MAP_FILTER, X_N, "x", "n");
    try (PartitionRunner assigned =
        PartitionRunner.open(spec, new ExecutionSettings(DeviceKind.AUTO, 0, 2))) {
      assigned.mapRows(new ColumnBatch(1, List.of(new double[] {1}, new long[] {1})));
      RunStatistics statistics = assigned.statistics();
      assertEquals(1, statistics.fallbacks());
      assertTrue(
          statistics
              .fallbackReasons()
              .get(0)
              .startsWith("main program: GPU 0 was assigned to the task, but jvm: "),
          statistics.fallbackReasons().toString());
    }
    try (PartitionRunner unassigned =
        PartitionRunner.open(spec, new ExecutionSettings(DeviceKind.AUTO, -1, 2))) {
      unassigned.mapRows(new ColumnBatch(1, List.of(new double[] {1}, new long[] {1})));
      assertEquals(
          0,
          unassigned.statistics().fallbacks(),
          "choosing the JVM where no GPU was assigned is no fallback");
    }
  }
}
