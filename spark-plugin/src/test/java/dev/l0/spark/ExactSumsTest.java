package dev.l0.spark;

import static dev.l0.spark.ExactSums.exactSum;
import static dev.l0.spark.ExactSums.exactSumElementWise;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.l0.kernels.exact.ExactSum;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExactSumsTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("book", DataTypes.StringType, false)
          .add("value", DataTypes.DoubleType, false)
          .add("vector", DataTypes.createArrayType(DataTypes.DoubleType, false), false);
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkTestSupport.startSession(ExactSumsTest.class, Map.of());
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  /**
   * Values of very different magnitudes, so that the order of a plain sum changes its last bits.
   */
  private static List<Row> rows(long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      double value = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(12));
      Double[] vector = {value, -value * 3.1, random.nextGaussian()};
      rows.add(RowFactory.create("book" + (i % 3), value, vector));
    }
    return rows;
  }

  private static Map<String, List<Object>> sums(Dataset<Row> frame) {
    Map<String, List<Object>> out = new TreeMap<>();
    for (Row row :
        frame
            .groupBy("book")
            .agg(exactSum(col("value")), exactSumElementWise(col("vector")))
            .collectAsList()) {
      out.put(row.getString(0), List.of(Double.doubleToLongBits(row.getDouble(1)), row.getList(2)));
    }
    return out;
  }

  @Test
  void groupSumsAreTheCorrectlyRoundedSumsWhateverThePartitioningAndOrder() {
    List<Row> rows = rows(7);
    Map<String, List<Object>> onOne = sums(SparkTestSupport.frame(spark, rows, SCHEMA, 1));
    List<Row> shuffled = new ArrayList<>(rows);
    Collections.shuffle(shuffled, new Random(3));
    assertEquals(onOne, sums(SparkTestSupport.frame(spark, rows, SCHEMA, 2)));
    assertEquals(onOne, sums(SparkTestSupport.frame(spark, shuffled, SCHEMA, 4)));

    Map<String, ExactSum> local = new TreeMap<>();
    for (Row row : rows) {
      local.computeIfAbsent(row.getString(0), book -> new ExactSum()).add(row.getDouble(1));
    }
    local.forEach(
        (book, sum) ->
            assertEquals(Double.doubleToLongBits(sum.value()), onOne.get(book).get(0), book));
  }

  @Test
  void aTotalIsExactWherePlainSumIsNot() {
    List<Row> rows =
        List.of(
            RowFactory.create("b", 1e100, new Double[] {1e100}),
            RowFactory.create("b", 1.0, new Double[] {1.0}),
            RowFactory.create("b", -1e100, new Double[] {-1e100}));
    Row total =
        SparkTestSupport.frame(spark, rows, SCHEMA, 1)
            .agg(
                exactSum(col("value")),
                exactSumElementWise(col("vector")),
                org.apache.spark.sql.functions.sum("value"))
            .first();
    assertEquals(1.0, total.getDouble(0));
    assertEquals(List.of(1.0), total.getList(1));
    assertNotEquals(1.0, total.getDouble(2));
  }

  @Test
  void nullVectorsAndNullElementsAreSkipped() {
    StructType nullable =
        new StructType()
            .add("book", DataTypes.StringType, false)
            .add("vector", DataTypes.createArrayType(DataTypes.DoubleType, true), true);
    List<Row> rows =
        List.of(
            RowFactory.create("b", new Double[] {0.25, null}),
            RowFactory.create("b", null),
            RowFactory.create("b", new Double[] {null, -2.5}),
            RowFactory.create("b", new Double[] {1e100, 1.0}),
            RowFactory.create("b", new Double[] {-1e100, 1.0}));
    Row total =
        SparkTestSupport.frame(spark, rows, nullable, 2)
            .agg(exactSumElementWise(col("vector")))
            .first();
    assertEquals(List.of(0.25, -0.5), total.getList(0));
  }
}
