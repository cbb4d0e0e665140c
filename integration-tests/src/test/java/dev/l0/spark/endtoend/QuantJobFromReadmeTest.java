package dev.l0.spark.endtoend;

import static dev.l0.spark.ExactSums.exactSum;
import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
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
 * A quant's Spark job written from the README alone: positions with nullable {@code int}, {@code
 * long}, {@code float}, {@code double} and {@code decimal} columns, repartitioned; an L0 program
 * read from a file with driver-side values bound by {@code with}; a filter, map and whole reduce
 * with exact float sums, and a per-row map whose carried book is grouped by Spark; each result
 * checked bit for bit against Spark SQL computing the same thing with {@code ExactSums}. Also the
 * mistakes such a job makes: misspelt column names in {@code on}, {@code nullAs} and {@code carry},
 * a decimal column, a value of the wrong Java type, an unreadable program file, and an empty input.
 */
class QuantJobFromReadmeTest {
  /** The line of this file that calls {@code L0.pipeline} in {@link #pricing}. */
  private static final String PRICING_CALL_SITE = "QuantJobFromReadmeTest.java:";

  /** Market value, in the base currency, of the positions priced above a floor. */
  private static final String PRICING =
      """
      // Market value of the positions priced above a floor, in the base currency.
      fun f64 main(f64 floor, [f64] fx, [i32] quantities, [f64] prices, [i32] currencies) =
        let kept = filter(fn bool (i32 q, f64 p, i32 c) => floor < p,
                          zip(quantities, prices, currencies)) in
        let values = map(fn f64 (i32 q, f64 p, i32 c) => f64(q) * p * fx[c], kept) in
        reduce(op +, 0.0, values)
      """;

  /** A per-position exposure from every numeric column type. */
  private static final String EXPOSURE =
      """
      fun [f64] main([i64] ids, [f32] fxs, [i32] quantities, [f64] notionals) =
        map(fn f64 (i64 id, f32 fx, i32 q, f64 n) => f64(fx) * n + f64(q) * f64(id % 7i64),
            zip(ids, fxs, quantities, notionals))
      """;

  private static final double FLOOR = 50.0;
  private static final double[] FX = {1.0, 1.0837, 0.0066, 1.2641};

  private static SparkSession spark;
  private static Dataset<Row> positions;

  @TempDir static Path folder;
  private static Path pricingFile;

  @BeforeAll
  static void start() throws Exception {
    spark = LocalSpark.builder(QuantJobFromReadmeTest.class, 2).getOrCreate();
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("book", DataTypes.StringType, true)
            .add("quantity", DataTypes.IntegerType, true)
            .add("price", DataTypes.DoubleType, true)
            .add("currency", DataTypes.IntegerType, false)
            .add("fx", DataTypes.FloatType, true)
            .add("notional", DataTypes.createDecimalType(18, 2), false);
    Random random = new Random(20261128);
    String[] books = {"rates", "Rates", "fx-options", "credit"};
    List<Row> rows = new ArrayList<>();
    for (long id = 1; id <= 3000; id++) {
      rows.add(
          RowFactory.create(
              id,
              id % 97 == 0 ? null : books[random.nextInt(books.length)],
              id % 31 == 0 ? null : random.nextInt(2001) - 1000,
              id % 37 == 0 ? null : random.nextDouble() * 100.0,
              random.nextInt(FX.length),
              id % 41 == 0 ? null : 0.5f + random.nextFloat(),
              BigDecimal.valueOf(random.nextLong(100_000_000L), 2)));
    }
    positions = spark.createDataFrame(rows, schema).repartition(5);
    pricingFile = Files.writeString(folder.resolve("pricing.l0"), PRICING);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** The pricing pipeline of the file, its floor and rates bound, nulls replaced by zero. */
  private static L0Pipeline pricing() {
    return L0.pipeline(pricingFile)
        .with("floor", FLOOR)
        .with("fx", FX)
        .on("quantity", "price", "currency")
        .nullAs("quantity", 0)
        .nullAs("price", 0.0)
        .as("value")
        .exactFloatSums();
  }

  /** The same value computed by Spark SQL: filter, the same products, an exact sum. */
  private static double pricingBySparkSql(Dataset<Row> input) {
    Column price = coalesce(col("price"), lit(0.0));
    Column rate =
        element_at(
            array(Arrays.stream(FX).mapToObj(r -> lit(r)).toArray(Column[]::new)),
            col("currency").plus(1));
    Column value = coalesce(col("quantity"), lit(0)).cast("double").multiply(price).multiply(rate);
    return input.where(price.gt(FLOOR)).agg(exactSum(value)).first().getDouble(0);
  }

  @Test
  void aFilterMapReduceFromAFileWithBoundValuesGivesSparkSqlsExactSumOnEveryPartitioning() {
    double expected = pricingBySparkSql(positions);
    for (Dataset<Row> input :
        List.of(positions, positions.repartition(1), positions.repartition(7, col("book")))) {
      List<Row> result = input.transform(pricing()).collectAsList();
      assertEquals(1, result.size());
      assertEquals(List.of("value"), Arrays.asList(result.get(0).schema().fieldNames()));
      assertEquals(
          Double.doubleToRawLongBits(expected),
          Double.doubleToRawLongBits(result.get(0).getDouble(0)),
          "L0 " + result.get(0).getDouble(0) + " against Spark SQL " + expected);
    }
  }

  @Test
  void aPerRowMapWithTheBookCarriedGroupsAsSparkSqlDoes() {
    Dataset<Row> input = positions.withColumn("notional_d", col("notional").cast("double"));
    Dataset<Row> exposures =
        input.transform(
            L0.pipeline(EXPOSURE)
                .on("id", "fx", "quantity", "notional_d")
                .nullAs("fx", 1.0)
                .nullAs("quantity", 0)
                .as("exposure")
                .carry("book"));
    assertEquals(List.of("book", "exposure"), Arrays.asList(exposures.columns()));
    Map<String, Double> byL0 = byBook(exposures.groupBy("book").agg(exactSum(col("exposure"))));

    Column fx = coalesce(col("fx"), lit(1.0f)).cast("double");
    Column quantity = coalesce(col("quantity"), lit(0)).cast("double");
    Column exposure =
        fx.multiply(col("notional_d")).plus(quantity.multiply(expr("id % 7").cast("double")));
    Map<String, Double> bySparkSql = byBook(input.groupBy("book").agg(exactSum(exposure)));

    assertEquals(5, bySparkSql.size(), "four books and the positions without one");
    assertEquals(bySparkSql, byL0);
  }

  /** Book (null as the text "null") to the raw bits of its sum, so that -0.0 and NaN compare. */
  private static Map<String, Double> byBook(Dataset<Row> sums) {
    Map<String, Double> byBook = new TreeMap<>();
    for (Row row : sums.collectAsList()) {
      byBook.put(String.valueOf(row.getString(0)), row.getDouble(1));
    }
    return byBook;
  }

  @Test
  void anEmptyInputGivesOneRowOfZeroForTheReduceAndNoRowsForTheMap() {
    Dataset<Row> none = positions.where(col("id").lt(0));
    List<Row> total = none.transform(pricing()).collectAsList();
    assertEquals(1, total.size());
    assertEquals(0.0, total.get(0).getDouble(0));
    assertEquals(pricingBySparkSql(none), total.get(0).getDouble(0));
    assertEquals(
        0,
        none.withColumn("notional_d", col("notional").cast("double"))
            .transform(
                L0.pipeline(EXPOSURE)
                    .on("id", "fx", "quantity", "notional_d")
                    .nullAs("fx", 1.0)
                    .nullAs("quantity", 0)
                    .carry("book"))
            .count());
  }

  /** The message of the error {@code df.transform(pipeline)} throws while planning. */
  private static String planningError(L0Pipeline pipeline) {
    RuntimeException error =
        assertThrows(RuntimeException.class, () -> positions.transform(pipeline).collectAsList());
    String message = error.getMessage();
    assertTrue(message.contains(PRICING_CALL_SITE), "names the call site: " + message);
    return message;
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "mentions '" + part + "': " + message);
    }
  }

  @Test
  void misspeltColumnNamesAreNamedWhereverTheyAreGiven() {
    L0Pipeline typoInOn =
        L0.pipeline(pricingFile)
            .with("floor", FLOOR)
            .with("fx", FX)
            .on("quantity", "prise", "currency");
    assertMentions(planningError(typoInOn), "prise");

    L0Pipeline typoInNullAs =
        L0.pipeline(pricingFile)
            .with("floor", FLOOR)
            .with("fx", FX)
            .on("quantity", "price", "currency")
            .nullAs("quantty", 0);
    assertMentions(planningError(typoInNullAs), "quantty");

    L0Pipeline typoInCarry = L0.pipeline(EXPOSURE).on("id", "fx", "quantity", "price").carry("bok");
    assertMentions(planningError(typoInCarry), "bok", "book");
  }

  /** A replacement for a column the pipeline does not read, a carried one included, is refused. */
  @Test
  void aNullReplacementForAColumnThePipelineDoesNotReadIsAPlanningError() {
    assertMentions(
        planningError(
            L0.pipeline(EXPOSURE)
                .on("id", "fx", "quantity", "price")
                .carry("book")
                .nullAs("book", 0.0)),
        "nullAs(...) names book, which the pipeline does not read");
  }

  /**
   * {@code exactSum} casts a {@code long} column to {@code double} first, as the README says, so
   * values beyond 2^53 are rounded before the exact sum; Spark's {@code sum} of them is exact.
   */
  @Test
  void anExactSumOfLongsBeyondTwoToThe53IsOfTheirDoubles() {
    Dataset<Row> longs =
        spark.range(0, 2).selectExpr("if(id = 0, 9007199254740993L, -9007199254740992L) AS big");
    Row sums = longs.agg(org.apache.spark.sql.functions.sum("big"), exactSum(col("big"))).first();
    assertEquals(1L, sums.getLong(0));
    assertEquals(0.0, sums.getDouble(1));
  }

  @Test
  void aDecimalColumnOrAValueOfAnotherJavaTypeIsNamedWithItsType() {
    assertMentions(
        planningError(
            L0.pipeline(EXPOSURE).on("id", "fx", "quantity", "notional").nullAs("quantity", 0)),
        "notional",
        "decimal(18,2)",
        "[f64]");
    assertMentions(
        planningError(
            L0.pipeline(pricingFile)
                .with("floor", 50)
                .with("fx", FX)
                .on("quantity", "price", "currency")),
        "floor",
        "java.lang.Double",
        "java.lang.Integer");
  }

  @Test
  void aProgramFileThatCannotBeReadOrIsIllTypedIsNamed() throws Exception {
    Path missing = folder.resolve("no-such-pricing.l0");
    RuntimeException unreadable = assertThrows(RuntimeException.class, () -> L0.pipeline(missing));
    assertMentions(
        unreadable.getMessage(), PRICING_CALL_SITE, "no-such-pricing.l0", "no such file");

    Path illTyped =
        Files.writeString(folder.resolve("ill-typed.l0"), PRICING.replace("f64(q) * p", "q * p"));
    String message =
        planningError(
            L0.pipeline(illTyped)
                .with("floor", FLOOR)
                .with("fx", FX)
                .on("quantity", "price", "currency"));
    assertMentions(message, "ill-typed.l0:5:");
  }
}
