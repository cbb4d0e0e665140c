package dev.l0.newuser;

import static dev.l0.newuser.NewUserSpark.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.L0;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The mistakes a new user's Spark job makes, and what README.md promises the user reads: the
 * column, the {@code L0.pipeline} call site, the L0 source's line:column, the partition and row.
 */
class NewUserErrorsTest {
  private static final String SITE = "L0 pipeline at NewUserErrorsTest.java:";
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = NewUserSpark.start(NewUserErrorsTest.class);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static final String DOUBLE_IT =
      "fun [real] main([real] x) = map(fn real (real v) => v * 2.0, x)";

  private static Dataset<Row> withNulls() {
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("price", DataTypes.DoubleType, true);
    return spark
        .createDataFrame(
            List.of(
                RowFactory.create(0L, 1.0),
                RowFactory.create(1L, 2.0),
                RowFactory.create(2L, null),
                RowFactory.create(3L, 4.0)),
            schema)
        .coalesce(1);
  }

  @Test
  void aNullNamesTheColumnThePartitionAndTheRowAndNullAsReplacesIt() {
    String message =
        failure(() -> withNulls().transform(L0.pipeline(DOUBLE_IT).on("price")).collectAsList());
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("'price'"), message);
    assertTrue(message.contains("partition 0, row 2"), message);

    List<Double> replaced = new ArrayList<>();
    for (Row r :
        withNulls()
            .transform(L0.pipeline(DOUBLE_IT).on("price").nullAs("price", 0.0))
            .collectAsList()) {
      replaced.add(r.getDouble(0));
    }
    assertEquals(List.of(2.0, 4.0, 0.0, 8.0), replaced);
  }

  @Test
  void aMissingColumnIsAPlanningErrorNamingIt() {
    String message = failure(() -> withNulls().transform(L0.pipeline(DOUBLE_IT).on("prices")));
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("prices"), message);
  }

  @Test
  void aColumnOfAnotherTypeIsAPlanningErrorNamingTheColumnAndBothTypes() {
    String message = failure(() -> withNulls().transform(L0.pipeline(DOUBLE_IT).on("id")));
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("'id'"), message);
    assertTrue(message.contains("bigint"), message);
    assertTrue(message.contains("f64"), message);
  }

  @Test
  void aDecimalColumnIsAPlanningErrorNamingTheColumn() {
    Dataset<Row> df = spark.range(3).selectExpr("CAST(id AS DECIMAL(18, 2)) AS notional");
    String message = failure(() -> df.transform(L0.pipeline(DOUBLE_IT).on("notional")));
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("notional"), message);
  }

  @Test
  void aWithValueOfTheWrongTypeIsAPlanningErrorNamingBothTypes() {
    Dataset<Row> df = spark.range(3).selectExpr("CAST(id AS DOUBLE) AS x");
    String program =
        "fun [real] main(real scale, [real] curve, [real] x) ="
            + " map(fn real (real v) => scale * v + curve[0], x)";
    String scalar =
        failure(
            () ->
                df.transform(
                    L0.pipeline(program)
                        .with("scale", 2)
                        .with("curve", new double[] {1.0})
                        .on("x")));
    assertTrue(scalar.contains(SITE), scalar);
    assertTrue(scalar.contains("scale"), scalar);
    assertTrue(scalar.contains("f64"), scalar);
    String array =
        failure(
            () ->
                df.transform(
                    L0.pipeline(program).with("scale", 2.0).with("curve", new int[] {1}).on("x")));
    assertTrue(array.contains(SITE), array);
    assertTrue(array.contains("curve"), array);
    assertTrue(array.contains("[f64]"), array);
  }

  @Test
  void aSyntaxErrorGivesTheLineAndColumnInTheProgram() {
    String program =
        """
        fun [real] main([real] x) =
          map(fn real (real v) => v * , x)
        """;
    String message = failure(() -> withNulls().transform(L0.pipeline(program).on("price")));
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("<inline L0 program>:2:"), message);
  }

  /**
   * README, "Fusion and where errors show": every pipeline runs as kernels; a map whose rows' sizes
   * depend on their values cannot be lowered, and that is a planning error at the map.
   */
  @Test
  void aMapThatCannotBeLoweredToKernelsIsAPlanningErrorAtTheMap() {
    Dataset<Row> df = spark.range(3).selectExpr("CAST(id AS INT) AS n");
    String program =
        """
        fun [[int]] main([int] n) =
          map(fn [int] (int k) => iota(k), n)
        """;
    String message = failure(() -> df.transform(L0.pipeline(program).on("n")));
    assertTrue(message.contains(SITE), message);
    assertTrue(
        message.contains("<inline L0 program>:2:3: cannot lower the map at 2:3 in main"), message);
  }

  @Test
  void integerDivisionByZeroFailsTheJobAtItsRowAndTheSessionGoesOn() {
    Dataset<Row> df =
        spark.range(0, 10, 1, 1).selectExpr("CAST(id AS INT) AS n", "CAST(id - 5 AS INT) AS d");
    String program =
        "fun [int] main([int] n, [int] d) = map(fn int (int a, int b) => a / b, zip(n, d))";
    String message = failure(() -> df.transform(L0.pipeline(program).on("n", "d")).collectAsList());
    assertTrue(message.contains(SITE), message);
    assertTrue(message.contains("partition 0, row 5"), message);
    assertTrue(message.contains("integer division by zero"), message);
    assertTrue(message.contains("<inline L0 program>:1:"), message);

    // The same session runs the next query, and the rows that can be divided give Java's answers.
    List<Row> rows =
        df.where("d != 0").transform(L0.pipeline(program).on("n", "d")).collectAsList();
    assertEquals(9, rows.size());
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      if (i != 5) {
        expected.add(i / (i - 5));
      }
    }
    List<Integer> actual = new ArrayList<>();
    rows.forEach(r -> actual.add(r.getInt(0)));
    assertEquals(expected, actual);
  }

  /**
   * README, "What comes back": integer arithmetic in a row wraps around, where Spark 4's ANSI mode
   * fails the same query.
   */
  @Test
  void integerOverflowWrapsAroundAsJavasIntDoesWhereSparkSqlFails() {
    Dataset<Row> df = spark.range(0, 4, 1, 1).selectExpr("CAST(2147483647 - id AS INT) AS n");
    String program = "fun [int] main([int] n) = map(fn int (int a) => a + 10, n)";
    List<Integer> actual = new ArrayList<>();
    df.transform(L0.pipeline(program).on("n"))
        .collectAsList()
        .forEach(r -> actual.add(r.getInt(0)));
    List<Integer> expected = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      expected.add(Integer.MAX_VALUE - k + 10);
    }
    assertEquals(expected, actual);
    assertEquals(-2147483639, actual.get(0));
    String sparkSql = failure(() -> df.selectExpr("n + 10").collectAsList());
    assertTrue(sparkSql.contains("ARITHMETIC_OVERFLOW"), sparkSql);
  }
}
