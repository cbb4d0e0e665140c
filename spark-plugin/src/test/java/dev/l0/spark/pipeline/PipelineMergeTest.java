package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * {@code df.transform(a).transform(b)} as one pipeline: one fused kernel, the same results as a
 * then b.
 */
class PipelineMergeTest {
  /** Black-Scholes, first half: d1 and d2 (and what the price needs besides), per option. */
  private static final String D1_D2 =
      "fun f64 helper(f64 v, f64 t) = v * sqrt(t)\n\n"
          + "fun [{f64, f64, f64, f64}] main([f64] spot, [f64] strike, [f64] rate, [f64] vol, [f64] years) =\n"
          + "  map(fn {f64, f64, f64, f64} (f64 s, f64 k, f64 r, f64 v, f64 t) =>\n"
          + "    let vt = helper(v, t) in\n"
          + "    let d1 = (log(s / k) + (r + 0.5 * v * v) * t) / vt in\n"
          + "    {d1, d1 - vt, s, k * exp(-r * t)},\n"
          + "    zip(spot, strike, rate, vol, years))\n";

  /** Black-Scholes, second half: the call price from d1, d2, the spot and the discounted strike. */
  private static final String PRICE =
      "fun f64 helper(f64 d) = 0.5 * (1.0 + erf(d / sqrt(2.0)))\n\n"
          + "fun [f64] main([f64] discounted, [f64] d1, [f64] d2, [f64] spot) =\n"
          + "  map(fn f64 (f64 x, f64 a, f64 b, f64 s) => s * helper(a) - x * helper(b), zip(discounted, d1, d2, spot))\n";

  private static final StructType OPTIONS = doubles("spot", "strike", "rate", "vol", "years");
  private static final List<String> D_NAMES = List.of("d1", "d2", "spot", "discounted");

  private static List<Object> options(int rows, Random random) {
    List<Object> columns = new ArrayList<>();
    columns.add(random.doubles(rows, 50, 150).toArray());
    columns.add(random.doubles(rows, 50, 150).toArray());
    columns.add(random.doubles(rows, 0.0, 0.1).toArray());
    columns.add(random.doubles(rows, 0.1, 0.6).toArray());
    columns.add(random.doubles(rows, 0.1, 3.0).toArray());
    return columns;
  }

  private static PipelineSpec first() {
    return PipelinePlanner.plan(
        request(D1_D2, List.of("spot", "strike", "rate", "vol", "years"), D_NAMES), OPTIONS);
  }

  private static PipelineSpec second(String text, List<String> outputs, PipelineSpec first) {
    return PipelinePlanner.plan(
        request(text, List.of("discounted", "d1", "d2", "spot"), outputs), first.outputSchema());
  }

  /** The columns of {@code batch} that {@code reader} reads, by name, in its order. */
  private static ColumnBatch readBy(PipelineSpec reader, PipelineSpec writer, ColumnBatch batch) {
    List<String> names = List.of(writer.outputSchema().fieldNames());
    return new ColumnBatch(
        batch.rows(),
        reader.inputs().stream()
            .map(b -> batch.columns().get(names.indexOf(b.columnPath())))
            .toList());
  }

  @Test
  void twoMapsMergeIntoOneKernelWithTheSameResults() {
    PipelineSpec a = first();
    PipelineSpec b = second(PRICE, List.of("price"), a);
    assertEquals(1, a.kernelCount());
    PipelineSpec merged = PipelinePlanner.merge(a, b).orElseThrow();
    assertEquals(PipelineKind.ROWS, merged.kind());
    assertEquals(1, merged.kernelCount());
    assertEquals(List.of("map"), merged.kernelShapes());
    assertEquals(a.inputs(), merged.inputs());
    assertEquals(b.outputSchema(), merged.outputSchema());
    assertEquals(
        "rows [price] <- [spot, strike, rate, vol, years], 1 kernel [map]", merged.summary());
    ColumnBatch batch = slice(options(200, new Random(1)), 0, 200);
    try (PartitionRunner one = PartitionRunner.open(merged, JVM);
        PartitionRunner x = PartitionRunner.open(a, JVM);
        PartitionRunner y = PartitionRunner.open(b, JVM)) {
      ColumnBatch inSequence = y.mapRows(readBy(b, a, x.mapRows(batch)));
      assertArrayEquals(
          (double[]) inSequence.columns().get(0), (double[]) one.mapRows(batch).columns().get(0));
    }
  }

  /**
   * A fused pipeline's errors name both call sites: the failing code may be either pipeline's
   * (before, only the second's was named).
   */
  @Test
  void aMergedPipelineNamesBothCallSites() {
    PipelineSpec a =
        PipelinePlanner.plan(
            atCallSite(
                request(D1_D2, List.of("spot", "strike", "rate", "vol", "years"), D_NAMES),
                "First.java:10"),
            OPTIONS);
    PipelineSpec b =
        PipelinePlanner.plan(
            atCallSite(
                request(PRICE, List.of("discounted", "d1", "d2", "spot"), List.of("price")),
                "Second.java:20"),
            a.outputSchema());
    PipelineSpec merged = PipelinePlanner.merge(a, b).orElseThrow();
    assertEquals("First.java:10, fused with Second.java:20", merged.callSite());
  }

  private static PipelineRequest atCallSite(PipelineRequest r, String callSite) {
    return new PipelineRequest(
        r.programText(),
        r.sourceName(),
        r.entry(),
        r.inputColumns(),
        r.outputNames(),
        r.nullReplacements(),
        callSite,
        r.boundArguments(),
        r.floatSums(),
        r.carriedColumns(),
        r.origins());
  }

  @Test
  void mapThenReduceMergesIntoOneRedomap() {
    PipelineSpec a = first();
    String total =
        "fun f64 main([f64] discounted, [f64] d1, [f64] d2, [f64] spot) =\n"
            + "  reduce(op +, 0.0, map(fn f64 (f64 x, f64 a, f64 b, f64 s) => s - x + a - b, zip(discounted, d1, d2, spot)))\n";
    PipelineSpec b = second(total, List.of("total"), a);
    PipelineSpec merged = PipelinePlanner.merge(a, b).orElseThrow();
    assertEquals(PipelineKind.REDUCE, merged.kind());
    assertEquals(List.of("redomap"), merged.kernelShapes());
    ColumnBatch batch = slice(options(300, new Random(2)), 0, 300);
    ColumnBatch fused;
    ColumnBatch inSequence;
    try (PartitionRunner one = PartitionRunner.open(merged, JVM);
        PartitionRunner x = PartitionRunner.open(a, JVM);
        PartitionRunner y = PartitionRunner.open(b, JVM)) {
      one.fold(batch);
      fused = PartialCombiner.finish(merged, List.of(one.partial()), JVM);
      y.fold(readBy(b, a, x.mapRows(batch)));
      inSequence = PartialCombiner.finish(b, List.of(y.partial()), JVM);
    }
    double expected = ((double[]) inSequence.columns().get(0))[0];
    assertEquals(expected, ((double[]) fused.columns().get(0))[0], 1e-12 * Math.abs(expected));
  }

  @Test
  void mapThenScanMergesAndKeepsTheScanPasses() {
    PipelineSpec a = first();
    String running =
        "fun [f64] main([f64] discounted, [f64] d1, [f64] d2, [f64] spot) =\n"
            + "  scan(fn f64 (f64 p, f64 q) => max(p, q), -1.0e300, map(fn f64 (f64 x, f64 a, f64 b, f64 s) => s - x + a - b, "
            + "zip(discounted, d1, d2, spot)))\n";
    PipelineSpec b = second(running, List.of("best"), a);
    PipelineSpec merged = PipelinePlanner.merge(a, b).orElseThrow();
    assertEquals(PipelineKind.SCAN, merged.kind());
    List<Object> input = options(90, new Random(3));
    List<PartialResult> totals = new ArrayList<>();
    List<ColumnBatch> parts = List.of(slice(input, 0, 40), slice(input, 40, 90));
    for (ColumnBatch part : parts) {
      try (PartitionRunner runner = PartitionRunner.open(merged, JVM)) {
        runner.fold(part);
        totals.add(runner.partial());
      }
    }
    List<Optional<PartialResult>> carries = PartialCombiner.scanCarries(merged, totals, JVM);
    List<ColumnBatch> outputs = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      try (PartitionRunner runner = PartitionRunner.open(merged, JVM)) {
        runner.startScan(carries.get(p));
        outputs.add(runner.scanRows(parts.get(p)));
      }
    }
    double[] actual = (double[]) concat(outputs, 1).get(0);
    try (PartitionRunner x = PartitionRunner.open(a, JVM);
        PartitionRunner y = PartitionRunner.open(b, JVM)) {
      y.startScan(Optional.empty());
      double[] expected =
          (double[]) y.scanRows(readBy(b, a, x.mapRows(slice(input, 0, 90)))).columns().get(0);
      assertArrayEquals(expected, actual);
    }
  }

  @Test
  void onlyRowPipelinesMergeWithTheirReader() {
    PipelineSpec sum = plan("fun f64 main([f64] xs) = reduce(op +, 0.0, xs)", doubles("x"), "x");
    PipelineSpec twice =
        plan(
            "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => 2.0 * x, xs)",
            sum.outputSchema(),
            "_1");
    assertTrue(PipelinePlanner.merge(sum, twice).isEmpty());
  }
}
