package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.struct;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.cli.BlackScholesReference;
import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.spark.plan.L0PipelineExec;
import dev.l0.syntax.L0Parser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ROWS pipelines (map, filter) on a real local[2] session: results, struct and array columns,
 * nulls, metrics, explain.
 */
class L0PipelineRowsTest {
  /**
   * The thesis's P0 as shipped: its entry {@code blackscholes} takes one array of option tuples,
   * one column per field.
   */
  private static final String P0 = SparkTestSupport.resource("/programs/p0_blackscholes.l0");

  private static final StructType OPTIONS =
      new StructType()
          .add("call", DataTypes.BooleanType, false)
          .add("price", DataTypes.DoubleType, false)
          .add("strike", DataTypes.DoubleType, false)
          .add("years", DataTypes.DoubleType, false)
          .add("r", DataTypes.DoubleType, false)
          .add("v", DataTypes.DoubleType, false);
  private static final int OPTION_COUNT = 10_000;

  private static SparkSession spark;
  private static List<Row> options;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(L0PipelineRowsTest.class, Map.of());
    options = randomOptions(OPTION_COUNT, new Random(20261123));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void blackScholesOverColumnsEqualsTheInterpreterBitForBit() {
    Dataset<Row> frame = SparkTestSupport.frame(spark, options, OPTIONS, 3);
    Dataset<Row> priced =
        frame.transform(
            L0.pipeline(P0)
                .entry("blackscholes")
                .on("call", "price", "strike", "years", "r", "v")
                .as("value"));

    assertEquals("value", priced.schema().fields()[0].name());
    assertEquals(DataTypes.DoubleType, priced.schema().fields()[0].dataType());
    assertBitIdentical(interpretedPrices(options), doubles(priced.collectAsList(), 0));
  }

  @Test
  void aStructColumnGivesOneParameterPerFieldInFieldOrder() {
    Dataset<Row> frame =
        SparkTestSupport.frame(spark, options, OPTIONS, 3)
            .select(
                struct(col("call"), col("price"), col("strike"), col("years"), col("r"), col("v"))
                    .as("option"));
    Dataset<Row> priced =
        frame.transform(L0.pipeline(P0).entry("blackscholes").on("option").as("value"));

    assertBitIdentical(interpretedPrices(options), doubles(priced.collectAsList(), 0));
  }

  @Test
  void parquetColumnBatchesAreReadAsTheyCome(@TempDir Path folder) {
    String file = folder.resolve("options.parquet").toString();
    SparkTestSupport.frame(spark, options, OPTIONS, 3).write().parquet(file);
    Dataset<Row> stored = spark.read().parquet(file);
    Dataset<Row> priced =
        stored.transform(
            L0.pipeline(P0)
                .entry("blackscholes")
                .on("call", "price", "strike", "years", "r", "v")
                .as("value"));

    String plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) priced)
            .queryExecution()
            .executedPlan()
            .toString();
    assertFalse(plan.contains("RowToColumnar"), plan);
    assertBitIdentical(
        interpretedPrices(stored.collectAsList()), doubles(priced.collectAsList(), 0));
  }

  /**
   * Spark's Parquet reader hands dictionary-encoded columns over as dictionary ids, which are read
   * through the vectors' getters; L0's own reader writes their values, read without the getters.
   */
  @Test
  void dictionaryEncodedParquetColumnsAreDecoded(@TempDir Path folder) {
    String file = folder.resolve("strikes.parquet").toString();
    spark
        .range(0, 3_000, 1, 2)
        .select(
            col("id").mod(3).multiply(10).plus(90).cast("double").as("strike"),
            col("id").mod(3).cast("int").as("bucket"))
        .write()
        .parquet(file);
    List<Row> stored = spark.read().parquet(file).collectAsList();
    spark.conf().set(L0Settings.PARQUET_OWN_READER, "false");
    try {
      Map<String, Long> sparksReader = dictionaryEncodedPipelineMetrics(file, stored);
      assertEquals(
          0L, sparksReader.get("inputSlicesInPlace"), () -> "dictionary ids " + sparksReader);
      assertTrue(
          sparksReader.get("inputSlicesGetterCopied") > 0, () -> "dictionary ids " + sparksReader);
    } finally {
      spark.conf().unset(L0Settings.PARQUET_OWN_READER);
    }
    Map<String, Long> ownReader = dictionaryEncodedPipelineMetrics(file, stored);
    assertEquals(0L, ownReader.get("inputSlicesGetterCopied"), () -> "values " + ownReader);
  }

  /**
   * The pipeline node's metrics after it doubled the strikes and stepped the buckets of {@code
   * file}.
   */
  private Map<String, Long> dictionaryEncodedPipelineMetrics(String file, List<Row> stored) {
    Dataset<Row> out =
        spark
            .read()
            .parquet(file)
            .transform(
                L0.pipeline(
                        """
            fun {[f64], [int]} main([f64] strike, [int] bucket) =
              {map(fn f64 (f64 k) => 2.0 * k, strike), map(fn int (int b) => b + 1, bucket)}""")
                    .on("strike", "bucket")
                    .as("doubled", "next"));
    List<Row> result = out.collectAsList();
    String plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) out)
            .queryExecution()
            .executedPlan()
            .toString();
    assertFalse(plan.contains("RowToColumnar"), plan);
    assertEquals(stored.size(), result.size());
    for (int i = 0; i < stored.size(); i++) {
      assertEquals(
          RowFactory.create(2 * stored.get(i).getDouble(0), stored.get(i).getInt(1) + 1),
          result.get(i),
          "row " + i);
    }
    return metricValues(SparkTestSupport.pipelineExecs(out).get(0));
  }

  @Test
  void parquetBatchesOfTheJvmBatchSizeAreReadInPlace(@TempDir Path folder) {
    String file = folder.resolve("plain.parquet").toString();
    int sparkBatch = 4096;
    long rows = 3L * sparkBatch + 100;
    spark
        .range(0, rows, 1, 1)
        .select(col("id").multiply(0.5).as("x"), col("id").cast("int").as("n"))
        .write()
        .option("parquet.enable.dictionary", "false")
        .parquet(file);
    Dataset<Row> out =
        spark
            .read()
            .parquet(file)
            .transform(
                L0.pipeline(
                        """
            fun {[f64], [f64], [int]} main([f64] x, [int] n) =
              {x, map(fn f64 (f64 v) => 2.0 * v, x), map(fn int (int k) => k - 1, n)}""")
                    .on("x", "n")
                    .as("x", "doubled", "previous"));

    List<L0PipelineExec> nodes = SparkTestSupport.pipelineExecs(out);
    List<Row> result = out.collectAsList();
    assertEquals(rows, result.size());
    for (int i = 0; i < rows; i++) {
      assertEquals(RowFactory.create(0.5 * i, 1.0 * i, i - 1), result.get(i), "row " + i);
    }
    Map<String, Long> metrics = metricValues(nodes.get(0));
    assertEquals(6L, metrics.get("inputSlicesInPlace"), () -> "3 full batches " + metrics);
    assertEquals(2L, metrics.get("inputSlicesArrayCopied"), () -> "the last 100 rows " + metrics);
    assertEquals(0L, metrics.get("inputSlicesGetterCopied"), () -> metrics.toString());
  }

  @Test
  void metricsCountRowsAndKernelTime() {
    Dataset<Row> priced =
        SparkTestSupport.frame(spark, options, OPTIONS, 3)
            .transform(
                L0.pipeline(P0)
                    .entry("blackscholes")
                    .on("call", "price", "strike", "years", "r", "v"));
    assertEquals(OPTION_COUNT, priced.collectAsList().size());

    List<L0PipelineExec> nodes = SparkTestSupport.pipelineExecs(priced);
    assertEquals(1, nodes.size());
    Map<String, Long> metrics = metricValues(nodes.get(0));
    assertEquals(OPTION_COUNT, metrics.get("numInputRows"));
    assertEquals(OPTION_COUNT, metrics.get("numOutputRows"));
    assertTrue(metrics.get("kernelTime") > 0, () -> "kernel time " + metrics);
    assertTrue(
        metrics.get("compileTime") > 0 || metrics.get("compileCacheHits") > 0,
        () -> "compilation " + metrics);
  }

  @Test
  void filterKeepsTheRowsThatPassInPartitionOrder() {
    List<Row> rows = new ArrayList<>();
    Random random = new Random(7);
    for (long id = 0; id < 5_000; id++) {
      rows.add(RowFactory.create(random.nextGaussian(), id));
    }
    StructType schema =
        new StructType().add("x", DataTypes.DoubleType, false).add("id", DataTypes.LongType, false);
    Dataset<Row> kept =
        SparkTestSupport.frame(spark, rows, schema, 3)
            .transform(
                L0.pipeline(
                        "fun [{f64, i64}] main([f64] x, [i64] id) = filter(fn bool (f64 v, i64 i) => 0.0 < v, zip(x, id))")
                    .on("x", "id")
                    .as("x", "id"));

    List<Row> expected = rows.stream().filter(row -> 0.0 < row.getDouble(0)).toList();
    assertEquals(expected, kept.collectAsList());
    assertEquals(DataTypes.LongType, kept.schema().fields()[1].dataType());
  }

  @Test
  void arrayColumnsAreInnerDimensionsAndArrayResultsComeBackAsArrays() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      rows.add(RowFactory.create((Object) new double[] {i, i + 1, -i, 2 * i}));
    }
    StructType schema =
        new StructType().add("a", DataTypes.createArrayType(DataTypes.DoubleType, false), false);
    Dataset<Row> out =
        SparkTestSupport.frame(spark, rows, schema, 3)
            .transform(
                L0.pipeline(
                        """
            fun {[f64], [[f64]]} main([[f64]] rows) =
              {map(fn f64 ([f64] r) => reduce(op +, 0.0, r), rows),
               map(fn [f64] ([f64] r) => map(fn f64 (f64 x) => 2.0 * x, r), rows)}""")
                    .on("a")
                    .as("sum", "doubled"));

    assertEquals(
        DataTypes.createArrayType(DataTypes.DoubleType, false),
        out.schema().fields()[1].dataType());
    List<Row> result = out.collectAsList();
    assertEquals(rows.size(), result.size());
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(i + (i + 1) + -i + 2 * i, result.get(i).getDouble(0), "row " + i);
      assertEquals(
          List.of(2.0 * i, 2.0 * (i + 1), 2.0 * -i, 2.0 * (2 * i)),
          result.get(i).getList(1),
          "row " + i);
    }
  }

  @Test
  void nestedArrayColumnsRoundTripThroughNestedArrayVectors() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(RowFactory.create((Object) new int[][] {{i, i + 1, i + 2}, {-i, 0, i}}));
    }
    StructType schema =
        new StructType()
            .add(
                "m",
                DataTypes.createArrayType(
                    DataTypes.createArrayType(DataTypes.IntegerType, false), false),
                false);
    Dataset<Row> out =
        SparkTestSupport.frame(spark, rows, schema, 3)
            .transform(
                L0.pipeline(
                        """
            fun [[[int]]] main([[[int]]] m) =
              map(fn [[int]] ([[int]] rows) => map(fn [int] ([int] row) => map(fn int (int x) => 3 * x, row), rows), m)""")
                    .on("m")
                    .as("tripled"));

    assertEquals(schema.fields()[0].dataType(), out.schema().fields()[0].dataType());
    List<Row> result = out.collectAsList();
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(
          List.of(List.of(3 * i, 3 * (i + 1), 3 * (i + 2)), List.of(-3 * i, 0, 3 * i)),
          scala.jdk.javaapi.CollectionConverters.asJava(
                  result.get(i).<scala.collection.Seq<Object>>getAs(0))
              .stream()
              .map(
                  inner ->
                      scala.jdk.javaapi.CollectionConverters.asJava(
                          (scala.collection.Seq<?>) inner))
              .toList(),
          "row " + i);
    }
  }

  @Test
  void arraysOfDifferentLengthsInOneColumnAreAnErrorNamingTheColumnAndLengths() {
    List<Row> rows =
        List.of(
            RowFactory.create((Object) new double[] {1, 2}),
            RowFactory.create((Object) new double[] {1, 2, 3}));
    StructType schema =
        new StructType().add("a", DataTypes.createArrayType(DataTypes.DoubleType, false), false);
    Dataset<Row> out =
        SparkTestSupport.frame(spark, rows, schema, 1)
            .transform(
                L0.pipeline(
                        "fun [f64] main([[f64]] rows) = map(fn f64 ([f64] r) => reduce(op +, 0.0, r), rows)")
                    .on("a"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    assertTrue(
        SparkTestSupport.messages(error)
            .contains(
                "column 'a' has arrays of different lengths in partition 0: 2 (its first row) and 3 (row 1)"),
        () -> SparkTestSupport.messages(error));
  }

  @Test
  void innerArraysOfDifferentLengthsNameTheElementsCompared() {
    Dataset<Row> out =
        spark
            .sql(
                "SELECT * FROM VALUES (array(array(1D, 2D), array(3D))),"
                    + " (array(array(1D, 2D), array(3D, 4D))) AS t(a)")
            .coalesce(1)
            .transform(
                L0.pipeline("fun [f64] main([[[f64]]] a) = map(fn f64 ([[f64]] r) => r[0, 0], a)")
                    .on("a"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    assertTrue(
        SparkTestSupport.messages(error)
            .contains(
                "column 'a' has arrays of different lengths in dimension 2 in partition 0: 2 "
                    + "(element [0] of its first row) and 1 (element [1] of row 0)"),
        () -> SparkTestSupport.messages(error));
  }

  @Test
  void aNullInsideAnArrayIsNamedByItsElement() {
    String firstOfFirst = "fun [f64] main([[[f64]]] a) = map(fn f64 ([[f64]] r) => r[0, 0], a)";
    Dataset<Row> nullElement =
        spark
            .sql(
                "SELECT * FROM VALUES (array(array(1D, 2D), array(3D, 4D))),"
                    + " (array(array(1D, 2D), array(3D, NULL))) AS t(a)")
            .coalesce(1)
            .transform(L0.pipeline(firstOfFirst).on("a"));
    SparkException element = assertThrows(SparkException.class, nullElement::collectAsList);
    assertTrue(
        SparkTestSupport.messages(element)
            .contains(
                "column 'a' has a null at element [1][1] in partition 0, row 1; declare a "
                    + "replacement with nullAs(\"a\", value)"),
        () -> SparkTestSupport.messages(element));

    Dataset<Row> nullInnerArray =
        spark
            .sql(
                "SELECT * FROM VALUES (array(array(1D, 2D), array(3D, 4D))),"
                    + " (array(array(1D, 2D), NULL)) AS t(a)")
            .coalesce(1)
            .transform(L0.pipeline(firstOfFirst).on("a"));
    SparkException array = assertThrows(SparkException.class, nullInnerArray::collectAsList);
    assertTrue(
        SparkTestSupport.messages(array)
            .contains("column 'a' has a null array at element [1] in partition 0, row 1;"),
        () -> SparkTestSupport.messages(array));
  }

  @Test
  void aNullWithoutReplacementIsAnErrorNamingColumnPartitionAndRow() {
    Dataset<Row> out = withNulls().transform(doubling());

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    assertTrue(
        SparkTestSupport.messages(error)
            .contains(
                "column 'x' has a null in partition 1, row 2; declare a replacement with nullAs(\"x\", value)"),
        () -> SparkTestSupport.messages(error));
    // first the user's line that made the pipeline, as the pipeline's other errors say
    assertTrue(
        java.util.regex.Pattern.compile(
                "L0 pipeline at L0PipelineRowsTest\\.java:\\d+: column 'x' has a null")
            .matcher(SparkTestSupport.messages(error))
            .find(),
        () -> SparkTestSupport.messages(error));
  }

  @Test
  void aNullStructLeafIsNamedByItsPath() {
    List<Row> rows =
        List.of(
            RowFactory.create(RowFactory.create(1.0, 2.0)),
            RowFactory.create(RowFactory.create(3.0, null)));
    StructType schema = legSchema(false, true);
    Dataset<Row> out =
        SparkTestSupport.frame(spark, rows, schema, 1)
            .transform(
                L0.pipeline("fun [f64] main([f64] n, [f64] r) = map(op *, zip(n, r))").on("leg"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    assertTrue(
        SparkTestSupport.messages(error)
            .contains(
                "column 'leg.rate' has a null in partition 0, row 1; declare a replacement with nullAs(\"leg.rate\", value)"),
        () -> SparkTestSupport.messages(error));
    assertEquals(
        List.of(2.0, 0.0),
        doubles(
            SparkTestSupport.frame(spark, rows, schema, 1)
                .transform(
                    L0.pipeline("fun [f64] main([f64] n, [f64] r) = map(op *, zip(n, r))")
                        .on("leg")
                        .nullAs("leg.rate", 0.0))
                .collectAsList(),
            0));
  }

  @Test
  void aNullStructIsNamedAsTheStruct() {
    List<Row> rows =
        List.of(RowFactory.create(RowFactory.create(1.0, 2.0)), RowFactory.create((Object) null));
    StructType schema = legSchema(true, false);
    String product = "fun [f64] main([f64] n, [f64] r) = map(op *, zip(n, r))";
    Dataset<Row> out =
        SparkTestSupport.frame(spark, rows, schema, 1).transform(L0.pipeline(product).on("leg"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    assertTrue(
        java.util.regex.Pattern.compile(
                "L0 pipeline at L0PipelineRowsTest\\.java:\\d+: column 'leg' has a null struct in"
                    + " partition 0, row 1, so its field 'leg.notional' has no value; drop such"
                    + " rows or fill the struct first \\(e.g. df.filter\\(col\\(\"leg\"\\)"
                    + "\\.isNotNull\\(\\)\\)\\)")
            .matcher(SparkTestSupport.messages(error))
            .find(),
        () -> SparkTestSupport.messages(error));
    assertEquals(
        List.of(2.0, 0.0),
        doubles(
            SparkTestSupport.frame(spark, rows, schema, 1)
                .transform(
                    L0.pipeline(product)
                        .on("leg")
                        .nullAs("leg.notional", 0.0)
                        .nullAs("leg.rate", 5.0))
                .collectAsList(),
            0));
  }

  @Test
  void aDeclaredReplacementStandsForNulls() {
    Dataset<Row> out = withNulls().transform(doubling().nullAs("x", -1.0));

    assertEquals(List.of(0.0, 2.0, 4.0, 6.0, 8.0, -2.0, 12.0), doubles(out.collectAsList(), 0));
  }

  @Test
  void explainShowsTheNodeWithKernelCountAndDevice() {
    Dataset<Row> priced =
        SparkTestSupport.frame(spark, options, OPTIONS, 3)
            .transform(
                L0.pipeline(P0)
                    .entry("blackscholes")
                    .on("call", "price", "strike", "years", "r", "v")
                    .as("value"));
    L0PipelineExec node = SparkTestSupport.pipelineExecs(priced).get(0);
    String physical =
        ((org.apache.spark.sql.classic.Dataset<Row>) priced)
            .queryExecution()
            .executedPlan()
            .toString();

    assertTrue(
        physical.contains("L0Pipeline " + node.spec().summary() + ", device=auto"), physical);
    assertTrue(node.spec().summary().contains("1 kernel"), node.spec().summary());
    String explained = L0.explainString(priced);
    assertTrue(explained.contains(node.spec().explain().strip()), explained);
    assertTrue(explained.contains("configured device (spark.l0.device): auto"), explained);
    assertTrue(explained.matches("(?s).*on this driver: (jvm|cuda): .*"), explained);
  }

  /** x = 0..6 in 2 partitions (0..2, 3..6) with a null at index 5: partition 1, row 2. */
  private static Dataset<Row> withNulls() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      rows.add(RowFactory.create(i == 5 ? null : (double) i));
    }
    return SparkTestSupport.frame(
        spark, rows, new StructType().add("x", DataTypes.DoubleType, true), 2);
  }

  private static L0Pipeline doubling() {
    return L0.pipeline("fun [f64] main([f64] x) = map(fn f64 (f64 v) => 2.0 * v, x)").on("x");
  }

  static List<Row> randomOptions(int count, Random random) {
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(
          RowFactory.create(
              random.nextBoolean(),
              10 + 190 * random.nextDouble(),
              10 + 190 * random.nextDouble(),
              0.1 + 1.9 * random.nextDouble(),
              0.01 + 0.09 * random.nextDouble(),
              0.1 + 0.5 * random.nextDouble()));
    }
    return rows;
  }

  /** P0's prices of {@code rows} by the reference interpreter. */
  private static List<Double> interpretedPrices(List<Row> rows) {
    Type option = BlackScholesReference.optionType();
    List<Value> tuples = new ArrayList<>(rows.size());
    for (Row row : rows) {
      tuples.add(
          new Value.Tuple(
              List.of(
                  ScalarValue.bool(row.getBoolean(0)),
                  ScalarValue.f64(row.getDouble(1)),
                  ScalarValue.f64(row.getDouble(2)),
                  ScalarValue.f64(row.getDouble(3)),
                  ScalarValue.f64(row.getDouble(4)),
                  ScalarValue.f64(row.getDouble(5)))));
    }
    Value.Array prices =
        (Value.Array)
            new Interpreter(L0Parser.parse(P0, "p0_blackscholes.l0"))
                .call("blackscholes", List.of(new Value.Array(option, tuples)));
    List<Double> result = new ArrayList<>(prices.length());
    for (Value price : prices.elements()) {
      result.add(((ScalarValue.Float) price).value());
    }
    return result;
  }

  static List<Double> doubles(List<Row> rows, int column) {
    return rows.stream().map(row -> row.getDouble(column)).toList();
  }

  static Map<String, Long> metricValues(L0PipelineExec node) {
    Map<String, Long> values = new java.util.TreeMap<>();
    scala.jdk.javaapi.CollectionConverters.asJava(node.metrics())
        .forEach((name, metric) -> values.put(name, metric.value()));
    return values;
  }

  private static void assertBitIdentical(List<Double> expected, List<Double> actual) {
    assertEquals(expected.size(), actual.size());
    long[] expectedBits = expected.stream().mapToLong(Double::doubleToRawLongBits).toArray();
    long[] actualBits = actual.stream().mapToLong(Double::doubleToRawLongBits).toArray();
    assertArrayEquals(
        expectedBits,
        actualBits,
        () -> "first difference at row " + Arrays.mismatch(expectedBits, actualBits));
  }

  /** A struct column {@code leg} of doubles {@code notional} and {@code rate}. */
  private static StructType legSchema(boolean legNullable, boolean rateNullable) {
    return new StructType()
        .add(
            "leg",
            new StructType()
                .add("notional", DataTypes.DoubleType, false)
                .add("rate", DataTypes.DoubleType, rateNullable),
            legNullable);
  }
}
