package dev.l0.spark.endtoend;

import static dev.l0.spark.endtoend.NumericAssertions.assertBitIdentical;
import static dev.l0.spark.endtoend.NumericAssertions.assertRelativelyClose;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import dev.l0.syntax.L0Parser;
import dev.l0.testing.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * L0 pipelines of each kind (map, filter, reduce, redomap, scan) over a million rows on {@code
 * local[2]} with 1, 3 and 8 partitions of several batches each, against the same computation in
 * plain Spark (or, for scan, a sequential Java loop over the rows in their order). Maps and filters
 * must give the same bits, integer reductions the same number, floating-point reductions the same
 * number within 1e-12 relative (Spark adds in another order) and the same bits on every rerun. The
 * map is the thesis's Black-Scholes (P0) as shipped, against the same formula in Spark SQL and
 * against the reference interpreter.
 */
class PipelineAgainstSparkTest {
  private static final long ROWS = 1_000_000;

  /**
   * Rows per pipeline batch (spark.l0.batchRows): every partition streams through several batches,
   * whose boundaries fall inside Spark's own columnar batches, so partials and scan carries cross
   * batches as well as partitions.
   */
  private static final int BATCH_ROWS = 100_003;

  private static final String FILTER =
      """
      fun [{i64, real}] main([i64] ids, [real] xs) =
        filter(fn bool (i64 i, real x) => x < 30.0 || i % 7i64 = 0i64, zip(ids, xs))
      """;
  private static final String SUM_I64 = "fun i64 main([i64] qs) = reduce(op +, 0i64, qs)";
  private static final String SUM_I32 = "fun int main([int] ks) = reduce(op +, 0, ks)";
  private static final String SUM_F64 = "fun real main([real] xs) = reduce(op +, 0.0, xs)";
  private static final String REDOMAP_F64 =
      "fun real main([real] xs) = reduce(op +, 0.0, map(fn real (real x) => x * x + 1.0 / x, xs))";
  private static final String REDOMAP_I64 =
      """
      fun i64 main([i64] qs, [int] ks) =
        reduce(op +, 0i64, map(fn i64 (i64 q, int k) => q * 3i64 - i64(k), zip(qs, ks)))
      """;
  private static final String RUNNING_SUMS =
      """
      fun {[i64], [int], [real]} main([i64] qs, [int] ks, [real] xs) =
        {scan(op +, 0i64, qs), scan(op +, 0, ks), scan(op +, 0.0, xs)}
      """;

  /** The thesis's Black-Scholes (P0) as shipped: its entry maps over an array of option tuples. */
  private static final String P0 = TestPrograms.text(TestPrograms.P0_BLACKSCHOLES);

  private static final String[] OPTION_FIELDS = {"call", "price", "strike", "years", "rate", "vol"};

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.builder(PipelineAgainstSparkTest.class, 2)
            .config("spark.plugins", LocalSpark.L0_PLUGIN)
            .config("spark.l0.batchRows", BATCH_ROWS)
            .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /**
   * {@code rows} rows in {@code partitions} partitions, every column computed by Spark from the
   * row's id.
   */
  private static Dataset<Row> table(long rows, int partitions) {
    return spark
        .range(0, rows, 1, partitions)
        .select(
            col("id"),
            expr("0.5D + (id % 9973) * 0.01D").as("x"),
            expr("cast(id * 7919 % 2001 - 1000 as int)").as("k"),
            expr("id * 2654435761 % 1000003 - 500000").as("q"),
            expr("(id * 7919 % 2001 - 1000) * 0.25D").as("w"),
            expr("id % 2 = 0").as("call"),
            expr("10.0D + (id % 1907) * 0.1D").as("price"),
            expr("10.0D + (id * 31 % 1913) * 0.1D").as("strike"),
            expr("0.05D + (id % 397) * 0.01D").as("years"),
            expr("0.01D + (id % 89) * 0.001D").as("rate"),
            expr("0.05D + (id % 61) * 0.01D").as("vol"));
  }

  /** P0 over columns that supply its option tuples' fields, one price per row. */
  private static L0Pipeline blackScholes(String... optionColumns) {
    return L0.pipeline(P0).entry("blackscholes").on(optionColumns).as("value");
  }

  /** The one row a reduction gives. */
  private static Row single(Dataset<Row> reduced) {
    List<Row> rows = reduced.collectAsList();
    assertEquals(1, rows.size(), "a reduction gives one row");
    return rows.get(0);
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void mapPricesEveryOptionWithTheBitsOfTheSameFormulaInSparkSql(int partitions) {
    Dataset<Row> options = table(ROWS, partitions);
    double[] l0 =
        CollectedColumns.of(options.transform(blackScholes(OPTION_FIELDS))).doubles("value");
    Column formula =
        SparkSqlBlackScholes.price(
            col("call"), col("price"), col("strike"), col("years"), col("rate"), col("vol"));
    double[] sparkSql = CollectedColumns.of(options.select(formula.as("value"))).doubles("value");
    assertBitIdentical(
        sparkSql,
        l0,
        "P0 against Spark SQL over " + ROWS + " options in " + partitions + " partitions");
  }

  @Test
  void mapPricesEveryOptionOfAStructColumnWithTheBitsOfTheReferenceInterpreter() {
    Dataset<Row> options = table(20_000, 3);
    CollectedColumns input = CollectedColumns.of(options);
    Dataset<Row> optionStructs =
        options.selectExpr("struct(" + String.join(", ", OPTION_FIELDS) + ") AS option");
    double[] l0 =
        CollectedColumns.of(optionStructs.transform(blackScholes("option"))).doubles("value");

    boolean[] call = input.booleans("call");
    double[][] numbers = {
      input.doubles("price"),
      input.doubles("strike"),
      input.doubles("years"),
      input.doubles("rate"),
      input.doubles("vol")
    };
    List<Value> optionValues = new ArrayList<>();
    for (int row = 0; row < call.length; row++) {
      List<Value> fields = new ArrayList<>(List.of(ScalarValue.bool(call[row])));
      for (double[] column : numbers) {
        fields.add(ScalarValue.f64(column[row]));
      }
      optionValues.add(new Value.Tuple(fields));
    }
    Type optionType = TestPrograms.P0_OPTION;
    Value.Array prices =
        (Value.Array)
            new Interpreter(L0Parser.parse(P0, "p0_blackscholes.l0"))
                .call("blackscholes", List.of(new Value.Array(optionType, optionValues)));
    double[] interpreted = new double[prices.length()];
    for (int row = 0; row < interpreted.length; row++) {
      interpreted[row] = ((ScalarValue.Float) prices.get(row)).value();
    }
    assertBitIdentical(
        interpreted, l0, "P0 against the reference interpreter over " + call.length + " options");
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void filterKeepsTheRowsSparksFilterKeepsInTheSameOrder(int partitions) {
    Dataset<Row> table = table(ROWS, partitions);
    CollectedColumns l0 =
        CollectedColumns.of(table.transform(L0.pipeline(FILTER).on("id", "x").as("id", "x")));
    CollectedColumns plain =
        CollectedColumns.of(
            table.filter(col("x").lt(30.0).or(col("id").mod(7).equalTo(0))).select("id", "x"));
    assertTrue(
        plain.size() > ROWS / 10 && plain.size() < ROWS / 2,
        "the filter keeps some rows, not all: " + plain.size());
    assertArrayEquals(plain.longs("id"), l0.longs("id"), "ids of the kept rows, in order");
    assertBitIdentical(plain.doubles("x"), l0.doubles("x"), "x of the kept rows");
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void reduceOverIntegersGivesSparksSum(int partitions) {
    Dataset<Row> table = table(ROWS, partitions);
    Row sparkSums = table.agg(sum("q"), sum("k")).first();
    long l0Longs = single(table.transform(L0.pipeline(SUM_I64).on("q").as("total"))).getLong(0);
    int l0Ints = single(table.transform(L0.pipeline(SUM_I32).on("k").as("total"))).getInt(0);
    assertEquals(sparkSums.getLong(0), l0Longs, "sum of an i64 column");
    assertEquals(sparkSums.getLong(1), (long) l0Ints, "sum of an i32 column");
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void reduceOverDoublesIsCloseToSparksSumAndTheSameOnEveryRun(int partitions) {
    Dataset<Row> table = table(ROWS, partitions);
    double sparkSum = table.agg(sum("x")).first().getDouble(0);
    Dataset<Row> reduced = table.transform(L0.pipeline(SUM_F64).on("x").as("total"));
    double first = single(reduced).getDouble(0);
    assertRelativelyClose(sparkSum, first, 1e-12, "sum of an f64 column against Spark's");
    assertBitIdentical(first, single(reduced).getDouble(0), "the same job run again");
    assertBitIdentical(
        first,
        single(table.transform(L0.pipeline(SUM_F64).on("x").as("total"))).getDouble(0),
        "the same pipeline planned again");
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void redomapGivesSparksSumOfTheSameMap(int partitions) {
    Dataset<Row> table = table(ROWS, partitions);
    Column value = col("w").multiply(col("x"));
    Row sparkSums =
        table
            .agg(
                sum(expr("x * x + 1.0D / x")),
                sum(expr("q * 3 - k")),
                sum(when(lit(0.0).lt(value), value)))
            .first();

    Dataset<Row> squares = table.transform(L0.pipeline(REDOMAP_F64).on("x").as("total"));
    double l0Squares = single(squares).getDouble(0);
    assertRelativelyClose(
        sparkSums.getDouble(0), l0Squares, 1e-12, "f64 reduce of a map against Spark's sum");
    assertBitIdentical(l0Squares, single(squares).getDouble(0), "the same f64 redomap run again");

    long l0Integers =
        single(table.transform(L0.pipeline(REDOMAP_I64).on("q", "k").as("total"))).getLong(0);
    assertEquals(sparkSums.getLong(1), l0Integers, "i64 reduce of a map");

    Dataset<Row> portfolio =
        table.transform(L0.pipeline(TestPrograms.text("portfolio")).on("w", "x").as("long_value"));
    assertRelativelyClose(
        sparkSums.getDouble(2),
        single(portfolio).getDouble(0),
        1e-12,
        "portfolio.l0 (map, filter, reduce) against Spark's sum of the positive products");
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 8})
  void scanGivesTheRunningSumsOfASequentialLoopOverTheRowsInTheirOrder(int partitions) {
    Dataset<Row> table = table(ROWS, partitions);
    CollectedColumns input = CollectedColumns.of(table.select("q", "k", "x"));
    CollectedColumns l0 =
        CollectedColumns.of(
            table.transform(
                L0.pipeline(RUNNING_SUMS).on("q", "k", "x").as("q_sum", "k_sum", "x_sum")));

    long[] q = input.longs("q");
    int[] k = input.ints("k");
    double[] x = input.doubles("x");
    long[] qSums = new long[q.length];
    int[] kSums = new int[k.length];
    double[] xSums = new double[x.length];
    long qSum = 0;
    int kSum = 0;
    double xSum = 0;
    for (int row = 0; row < q.length; row++) {
      qSum += q[row];
      kSum += k[row];
      xSum += x[row];
      qSums[row] = qSum;
      kSums[row] = kSum;
      xSums[row] = xSum;
    }
    assertEquals(ROWS, l0.size(), "a scan gives one row per input row");
    assertArrayEquals(qSums, l0.longs("q_sum"), "running sums of an i64 column");
    assertArrayEquals(kSums, l0.ints("k_sum"), "running sums of an i32 column");
    assertRelativelyClose(xSums, l0.doubles("x_sum"), 1e-9, "running sums of an f64 column");
  }
}
