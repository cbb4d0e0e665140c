package dev.l0.spark.pipeline;

import static dev.l0.spark.pipeline.PipelineFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.l0.cli.BlackScholesReference;
import dev.l0.cli.BlackScholesReference.OptionRecord;
import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.syntax.L0Parser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Parameters that are arrays of tuples (the thesis's own P0 entry) or tuples of arrays: one input
 * column per tuple leaf, struct columns included, through planning, kinds, runners and merges.
 */
class TupleParametersTest {
  private static final String P0 = p0Text();
  private static final List<String> OPTION_COLUMNS =
      List.of("call", "spot", "strike", "years", "rate", "vol");
  private static final StructType OPTIONS =
      schema(
          field("call", DataTypes.BooleanType),
          field("spot", DataTypes.DoubleType),
          field("strike", DataTypes.DoubleType),
          field("years", DataTypes.DoubleType),
          field("rate", DataTypes.DoubleType),
          field("vol", DataTypes.DoubleType));
  private static final String P0_SIGNATURE = "'blackscholes([{bool, f64, f64, f64, f64, f64}] xs)'";
  private static final String PREFIX = "L0 pipeline at " + CALL_SITE + ": ";

  private static String p0Text() {
    try {
      return BlackScholesReference.programText();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read P0 from " + BlackScholesReference.PROGRAM_RESOURCE, e);
    }
  }

  private static PipelineRequest p0Request(
      List<String> columns, Map<String, Object> nullReplacements) {
    return request(
        P0,
        "p0_blackscholes.l0",
        BlackScholesReference.ENTRY,
        columns,
        List.of("price"),
        nullReplacements);
  }

  private static PipelineSpec p0(List<String> columns, StructType schema) {
    return PipelinePlanner.plan(p0Request(columns, Map.of()), schema);
  }

  /** The option columns in P0's tuple order: call, spot, strike, years, rate, volatility. */
  private static List<Object> options(int rows, Random random) {
    boolean[] call = new boolean[rows];
    for (int i = 0; i < rows; i++) {
      call[i] = random.nextBoolean();
    }
    return List.of(
        call,
        random.doubles(rows, 10, 200).toArray(),
        random.doubles(rows, 10, 200).toArray(),
        random.doubles(rows, 0.1, 2.0).toArray(),
        random.doubles(rows, 0.01, 0.1).toArray(),
        random.doubles(rows, 0.1, 0.6).toArray());
  }

  /** {@code spec} run on {@code input} in random batches: the concatenated output columns. */
  private static List<Object> mapInBatches(
      PipelineSpec spec, List<Object> input, int rows, Random random) {
    List<ColumnBatch> outputs = new ArrayList<>();
    try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
      for (ColumnBatch batch : batches(input, rows, 40, random)) {
        outputs.add(runner.mapRows(batch));
      }
    }
    return concat(outputs, spec.outputSchema().size());
  }

  private static String failure(PipelineRequest request, StructType schema) {
    PipelinePlanningException e =
        assertThrows(PipelinePlanningException.class, () -> PipelinePlanner.plan(request, schema));
    assertTrue(e.getMessage().startsWith(PREFIX), e.getMessage());
    return e.getMessage().substring(PREFIX.length());
  }

  private static void assertBitIdentical(double[] expected, double[] actual) {
    long[] expectedBits = Arrays.stream(expected).mapToLong(Double::doubleToRawLongBits).toArray();
    long[] actualBits = Arrays.stream(actual).mapToLong(Double::doubleToRawLongBits).toArray();
    assertArrayEquals(
        expectedBits,
        actualBits,
        () -> "first difference at row " + Arrays.mismatch(expectedBits, actualBits));
  }

  @Test
  void p0sOwnEntryTakesOneColumnPerOptionField() {
    PipelineSpec spec =
        PipelinePlanner.plan(p0Request(OPTION_COLUMNS, Map.of("vol", 0.2)), OPTIONS);
    assertEquals(PipelineKind.ROWS, spec.kind());
    assertEquals(List.of("map"), spec.kernelShapes());
    assertEquals(OPTION_COLUMNS, spec.inputs().stream().map(InputBinding::columnPath).toList());
    assertEquals(
        List.of(
            ScalarType.BOOL,
            ScalarType.F64,
            ScalarType.F64,
            ScalarType.F64,
            ScalarType.F64,
            ScalarType.F64),
        spec.inputs().stream().map(InputBinding::elementType).toList());
    assertEquals(
        List.of(1, 1, 1, 1, 1, 1), spec.inputs().stream().map(InputBinding::rank).toList());
    assertEquals(0.2, spec.inputs().get(5).nullReplacement());
    assertEquals(
        "rows [price] <- [call, spot, strike, years, rate, vol], 1 kernel [map]", spec.summary());
    assertTrue(spec.explain().contains("call (boolean) -> [bool]"), spec.explain());
  }

  @Test
  void p0sOwnEntryPricesBitIdenticallyToTheInterpreterOnItsArrayOfTuples() {
    Random random = new Random(20261123);
    int rows = 2000;
    List<Object> input = options(rows, random);
    double[] prices =
        (double[]) mapInBatches(p0(OPTION_COLUMNS, OPTIONS), input, rows, random).get(0);
    assertBitIdentical((double[]) reference(P0, "blackscholes", input).get(0), prices);
  }

  @Test
  void p0PricesTheParsecReferenceOptionsLikeTheInterpreterAndWithinTheDemoTolerance()
      throws IOException {
    List<OptionRecord> records = BlackScholesReference.referenceOptions();
    int rows = records.size();
    boolean[] call = new boolean[rows];
    for (int i = 0; i < rows; i++) {
      call[i] = records.get(i).call();
    }
    List<Object> columns =
        List.of(
            call,
            records.stream().mapToDouble(OptionRecord::spot).toArray(),
            records.stream().mapToDouble(OptionRecord::strike).toArray(),
            records.stream().mapToDouble(OptionRecord::years).toArray(),
            records.stream().mapToDouble(OptionRecord::rate).toArray(),
            records.stream().mapToDouble(OptionRecord::volatility).toArray());
    double[] prices;
    try (PartitionRunner runner = PartitionRunner.open(p0(OPTION_COLUMNS, OPTIONS), JVM)) {
      prices = (double[]) runner.mapRows(new ColumnBatch(rows, columns)).columns().get(0);
    }
    Value.Array options =
        new Value.Array(
            BlackScholesReference.optionType(), records.stream().map(OptionRecord::toL0).toList());
    Value.Array interpreted =
        (Value.Array)
            new Interpreter(L0Parser.parse(P0, "p0_blackscholes.l0"))
                .call(BlackScholesReference.ENTRY, List.of(options));
    assertBitIdentical(
        interpreted.elements().stream().mapToDouble(v -> ((ScalarValue.Float) v).value()).toArray(),
        prices);
    for (int i = 0; i < rows; i++) {
      assertEquals(
          records.get(i).reference(),
          prices[i],
          BlackScholesReference.TOLERANCE,
          "PARSEC option " + i);
    }
  }

  @Test
  void aStructColumnFeedsAnArrayOfTuplesParameterLeafByLeaf() {
    StructType schema = schema(field("id", DataTypes.LongType), field("option", OPTIONS));
    PipelineSpec spec = p0(List.of("option"), schema);
    assertEquals(
        OPTION_COLUMNS.stream().map(c -> "option." + c).toList(),
        spec.inputs().stream().map(InputBinding::columnPath).toList());
    assertEquals(List.of(1, 4), spec.inputs().get(4).fieldPath());
    assertEquals(List.of("option"), spec.readColumns());
    Random random = new Random(3);
    List<Object> input = options(300, random);
    assertBitIdentical(
        (double[]) reference(P0, "blackscholes", input).get(0),
        (double[]) mapInBatches(spec, input, 300, random).get(0));
  }

  @Test
  void tooFewColumnsListTheColumnsAndTheParameterLeaves() {
    assertEquals(
        "the columns [call, spot, strike, years, rate] supply 5 input(s) (call boolean, spot double, strike double, "
            + "years double, rate double), but "
            + P0_SIGNATURE
            + " takes 6 input(s), one per leaf of its parameters "
            + "(xs: [bool], [f64], [f64], [f64], [f64], [f64]); with the columns fed to the"
            + " parameters' leaves in order, 'xs' is not fully fed: name more columns in on(...), or bind a parameter to a driver-side value with"
            + " with(\"name\", value)",
        failure(p0Request(OPTION_COLUMNS.subList(0, 5), Map.of()), OPTIONS));
    String two =
        "fun [f64] main([{f64, i32}] xs, {[f64], [[f64]]} ys) =\n"
            + "  let {w, p} = ys in let {as, ns} = unzip(xs) in\n"
            + "  map(fn f64 (f64 a, i32 n, f64 v, [f64] r) => a, zip(as, ns, w, p))\n";
    assertEquals(
        "the columns [a] supply 1 input(s) (a double), but 'main([{f64, i32}] xs, {[f64], [[f64]]} ys)' takes 4 "
            + "input(s), one per leaf of its parameters (xs: [f64], [i32]; ys: [f64], [[f64]]); with"
            + " the columns fed to the parameters' leaves in order, 'xs', 'ys' are not fully fed: name more columns in on(...), or bind a parameter to a driver-side value with"
            + " with(\"name\", value)",
        failure(request(two, List.of("a"), List.of()), doubles("a")));
  }

  @Test
  void aWrongSparkTypeNamesTheLeafOfTheTupleParameter() {
    StructType intStrikes =
        schema(
            field("call", DataTypes.BooleanType),
            field("spot", DataTypes.DoubleType),
            field("strike", DataTypes.IntegerType),
            field("years", DataTypes.DoubleType),
            field("rate", DataTypes.DoubleType),
            field("vol", DataTypes.DoubleType));
    assertEquals(
        "column 'strike' has Spark type int, but input 3 of 6 of parameter 'xs' of "
            + P0_SIGNATURE
            + " is [f64], which needs a column of double (no implicit casts)",
        failure(p0Request(OPTION_COLUMNS, Map.of()), intStrikes));
  }

  @Test
  void aTupleWithAScalarLeafIsNotAnInputOverTheRows() {
    String text =
        "fun [f64] main({f64, [f64]} p) =\n  let {k, xs} = p in map(fn f64 (f64 x) => k * x, xs)\n";
    assertEquals(
        "input 1 of 2 of parameter 'p' of 'main({f64, [f64]} p)' has type f64, but every input of a pipeline must "
            + "be an array over the rows (a parameter may be an array of scalars, an array of tuples or a tuple of arrays, one "
            + "input per leaf; fed by column 'a')",
        failure(request(text, List.of("a", "b"), List.of()), doubles("a", "b")));
  }

  @Test
  void nestedTuplesAndArrayComponentsFlattenInOrder() {
    String text =
        "fun {[f64], [i32]} main([{f64, {f64, i32}}] xs, {[f64], [[f64]]} ys) =\n"
            + "  let {w, path} = ys in\n"
            + "  unzip(map(fn {f64, i32} ({f64, {f64, i32}} x, f64 v, [f64] p) =>\n"
            + "    let {a, bc} = x in let {b, c} = bc in {a * b + v * reduce(op +, 0.0, p), c + 1}, zip(xs, w, path)))\n";
    StructType schema =
        schema(
            field("a", DataTypes.DoubleType),
            field("b", DataTypes.DoubleType),
            field("c", DataTypes.IntegerType),
            field("w", DataTypes.DoubleType),
            field("path", DataTypes.createArrayType(DataTypes.DoubleType)));
    PipelineSpec spec = plan(text, schema, "a", "b", "c", "w", "path");
    assertEquals(PipelineKind.ROWS, spec.kind());
    assertEquals(List.of(1, 1, 1, 1, 2), spec.inputs().stream().map(InputBinding::rank).toList());
    assertEquals(ScalarType.I32, spec.inputs().get(2).elementType());
    Random random = new Random(9);
    int rows = 120;
    List<Object> input =
        List.of(
            random.doubles(rows).toArray(),
            random.doubles(rows).toArray(),
            random.ints(rows, -100, 100).toArray(),
            random.doubles(rows).toArray(),
            new FlatArray(
                ScalarType.F64, random.doubles(rows * 3L).toArray(), new int[] {rows, 3}));
    List<Object> expected = reference(text, "main", input);
    List<Object> actual = mapInBatches(spec, input, rows, random);
    assertBitIdentical((double[]) expected.get(0), (double[]) actual.get(0));
    assertArrayEquals((int[]) expected.get(1), (int[]) actual.get(1));
  }

  @Test
  void zipUnzipAndFilterOfArrayOfTuplesParametersAreRows() {
    String text =
        "fun {[f64], [f64]} main([{f64, f64}] xs, [f64] ws) =\n"
            + "  let {as, bs} = unzip(xs) in\n"
            + "  let kept = filter(fn bool (f64 a, f64 b, f64 w) => a < b, zip(as, bs, ws)) in\n"
            + "  unzip(map(fn {f64, f64} (f64 a, f64 b, f64 w) => {a * w, b + w}, kept))\n";
    PipelineSpec spec = plan(text, doubles("a", "b", "w"), "a", "b", "w");
    assertEquals(PipelineKind.ROWS, spec.kind());
    assertEquals(
        PipelineKind.ROWS,
        plan("fun [{f64, f64}] main([{f64, f64}] xs) = xs", doubles("a", "b"), "a", "b").kind());
    Random random = new Random(4);
    int rows = 500;
    List<Object> input =
        List.of(
            random.doubles(rows).toArray(),
            random.doubles(rows).toArray(),
            random.doubles(rows).toArray());
    List<Object> expected = reference(text, "main", input);
    List<Object> actual = mapInBatches(spec, input, rows, random);
    assertBitIdentical((double[]) expected.get(0), (double[]) actual.get(0));
    assertBitIdentical((double[]) expected.get(1), (double[]) actual.get(1));
  }

  @Test
  void anArrayOfArraysOfTuplesTakesOneInnerDimensionColumnPerComponent() {
    String text =
        "fun [f64] main([[{f64, f64}]] xs) =\n"
            + "  map(fn f64 ([{f64, f64}] row) => reduce(op +, 0.0, map(op *, row)), xs)\n";
    StructType schema =
        schema(
            field("q", DataTypes.createArrayType(DataTypes.DoubleType)),
            field("p", DataTypes.createArrayType(DataTypes.DoubleType)));
    PipelineSpec spec = plan(text, schema, "q", "p");
    assertEquals(List.of(2, 2), spec.inputs().stream().map(InputBinding::rank).toList());
    Random random = new Random(6);
    int rows = 80;
    List<Object> input =
        List.of(
            new FlatArray(ScalarType.F64, random.doubles(rows * 3L).toArray(), new int[] {rows, 3}),
            new FlatArray(
                ScalarType.F64, random.doubles(rows * 3L).toArray(), new int[] {rows, 3}));
    assertBitIdentical(
        (double[]) reference(text, "main", input).get(0),
        (double[]) mapInBatches(spec, input, rows, random).get(0));
  }

  @Test
  void reduceOverAnArrayOfTuplesParameterCombinesAcrossPartitions() {
    String text =
        "fun {i64, i32} main([{i64, i32}] xs) =\n"
            + "  reduce(fn {i64, i32} (i64 a, i32 b, i64 c, i32 d) => {a + c, max(b, d)}, {0i64, -2147483648}, xs)\n";
    StructType schema = schema(field("n", DataTypes.LongType), field("k", DataTypes.IntegerType));
    PipelineSpec spec = plan(text, schema, "n", "k");
    assertEquals(PipelineKind.REDUCE, spec.kind());
    Random random = new Random(8);
    int rows = 400;
    List<Object> input =
        List.of(random.longs(rows, -1_000_000, 1_000_000).toArray(), random.ints(rows).toArray());
    List<PartialResult> partials = new ArrayList<>();
    for (int part = 0; part < 3; part++) {
      int from = part * rows / 3;
      int to = (part + 1) * rows / 3;
      try (PartitionRunner runner = PartitionRunner.open(spec, JVM)) {
        batches(slice(input, from, to).columns(), to - from, 30, random).forEach(runner::fold);
        partials.add(runner.partial());
      }
    }
    ColumnBatch result = PartialCombiner.finish(spec, partials, JVM);
    List<Object> expected = reference(text, "main", input);
    assertArrayEquals((long[]) expected.get(0), (long[]) result.columns().get(0));
    assertArrayEquals((int[]) expected.get(1), (int[]) result.columns().get(1));
    try (PartitionRunner empty = PartitionRunner.open(spec, JVM)) {
      assertEquals(
          List.of(0L, Integer.MIN_VALUE), empty.partial().values(), "no rows: the neutral element");
    }
  }

  @Test
  void scanOverAnArrayOfTuplesParameterEqualsTheSequentialScan() {
    String text =
        "fun [{i64, i32}] main([{i64, i32}] xs) =\n"
            + "  scan(fn {i64, i32} (i64 a, i32 b, i64 c, i32 d) => {a + c, max(b, d)}, {0i64, -2147483648}, xs)\n";
    StructType schema = schema(field("n", DataTypes.LongType), field("k", DataTypes.IntegerType));
    PipelineSpec spec = plan(text, schema, "n", "k");
    assertEquals(PipelineKind.SCAN, spec.kind());
    Random random = new Random(12);
    int rows = 350;
    List<Object> input =
        List.of(random.longs(rows, -1_000_000, 1_000_000).toArray(), random.ints(rows).toArray());
    List<Object> actual = concat(scanInPartitions(spec, input, rows, 4, 25, random), 2);
    List<Object> expected = reference(text, "main", input);
    assertArrayEquals((long[]) expected.get(0), (long[]) actual.get(0));
    assertArrayEquals((int[]) expected.get(1), (int[]) actual.get(1));
  }

  @Test
  void p0ThenASumMergesIntoOneRedomapOverTheOptionColumns() {
    PipelineSpec prices = p0(OPTION_COLUMNS, OPTIONS);
    PipelineSpec sum =
        PipelinePlanner.plan(
            request(
                "fun f64 main([f64] p) = reduce(op +, 0.0, p)", List.of("price"), List.of("total")),
            prices.outputSchema());
    PipelineSpec merged = PipelinePlanner.merge(prices, sum).orElseThrow();
    assertEquals(PipelineKind.REDUCE, merged.kind());
    assertEquals(List.of("redomap"), merged.kernelShapes());
    assertEquals(prices.inputs(), merged.inputs());
    ColumnBatch batch = slice(options(700, new Random(13)), 0, 700);
    double fused;
    double inSequence;
    try (PartitionRunner one = PartitionRunner.open(merged, JVM);
        PartitionRunner first = PartitionRunner.open(prices, JVM);
        PartitionRunner second = PartitionRunner.open(sum, JVM)) {
      one.fold(batch);
      fused =
          ((double[]) PartialCombiner.finish(merged, List.of(one.partial()), JVM).columns().get(0))
              [0];
      second.fold(first.mapRows(batch));
      inSequence =
          ((double[]) PartialCombiner.finish(sum, List.of(second.partial()), JVM).columns().get(0))
              [0];
    }
    assertEquals(inSequence, fused, 1e-12 * Math.abs(inSequence));
  }

  @Test
  void aReaderTakingAnArrayOfTuplesMergesWithItsWriter() {
    PipelineSpec writer =
        PipelinePlanner.plan(
            request(
                "fun {[f64], [f64]} main([{f64, f64}] xs) =\n"
                    + "  unzip(map(fn {f64, f64} (f64 a, f64 b) => {a + b, a * b}, xs))\n",
                List.of("a", "b"),
                List.of("s", "p")),
            doubles("a", "b"));
    PipelineSpec reader =
        PipelinePlanner.plan(
            request(
                "fun [f64] main([{f64, f64}] ys) = map(fn f64 (f64 s, f64 p) => s - p, ys)",
                List.of("s", "p"),
                List.of("d")),
            writer.outputSchema());
    PipelineSpec merged = PipelinePlanner.merge(writer, reader).orElseThrow();
    assertEquals(List.of("map"), merged.kernelShapes());
    assertMergedEqualsInSequence(
        writer,
        reader,
        merged,
        slice(
            List.of(new Random(14).doubles(200).toArray(), new Random(15).doubles(200).toArray()),
            0,
            200));
  }

  @Test
  void aReaderTakingAnArrayOfArraysOfTuplesMergesWithItsWriter() {
    PipelineSpec writer =
        PipelinePlanner.plan(
            request(
                "fun {[[f64]], [[f64]]} main([[f64]] m) =\n"
                    + "  {map(fn [f64] ([f64] r) => map(fn f64 (f64 x) => 2.0 * x, r), m),\n"
                    + "   map(fn [f64] ([f64] r) => map(fn f64 (f64 x) => x + 1.0, r), m)}\n",
                List.of("m"),
                List.of("twice", "next")),
            schema(field("m", DataTypes.createArrayType(DataTypes.DoubleType))));
    PipelineSpec reader =
        PipelinePlanner.plan(
            request(
                "fun [f64] main([[{f64, f64}]] xs) =\n"
                    + "  map(fn f64 ([{f64, f64}] row) => reduce(op +, 0.0, map(op *, row)), xs)\n",
                List.of("twice", "next"),
                List.of("dot")),
            writer.outputSchema());
    PipelineSpec merged = PipelinePlanner.merge(writer, reader).orElseThrow();
    assertEquals(PipelineKind.ROWS, merged.kind());
    int rows = 60;
    assertMergedEqualsInSequence(
        writer,
        reader,
        merged,
        new ColumnBatch(
            rows,
            List.of(
                new FlatArray(
                    ScalarType.F64,
                    new Random(16).doubles(rows * 4L).toArray(),
                    new int[] {rows, 4}))));
  }

  /**
   * {@code merged} on {@code batch} gives the bits of {@code writer} then {@code reader} (which
   * reads all its outputs in order).
   */
  private static void assertMergedEqualsInSequence(
      PipelineSpec writer, PipelineSpec reader, PipelineSpec merged, ColumnBatch batch) {
    try (PartitionRunner one = PartitionRunner.open(merged, JVM);
        PartitionRunner first = PartitionRunner.open(writer, JVM);
        PartitionRunner second = PartitionRunner.open(reader, JVM)) {
      double[] inSequence = (double[]) second.mapRows(first.mapRows(batch)).columns().get(0);
      assertBitIdentical(inSequence, (double[]) one.mapRows(batch).columns().get(0));
    }
  }
}
