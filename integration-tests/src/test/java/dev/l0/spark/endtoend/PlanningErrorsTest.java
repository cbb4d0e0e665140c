package dev.l0.spark.endtoend;

import static dev.l0.spark.endtoend.NumericAssertions.assertBitIdentical;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import dev.l0.spark.pipeline.PipelinePlanningException;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input fails with a message that says what is wrong and where: a missing column, a column of
 * the wrong type, a program whose parameters or results do not match the columns are reported by
 * {@code df.transform(...)} itself, at planning time, naming the column and the user's call site; a
 * null without a replacement, or an array column with rows of different lengths, is found when a
 * task reads it and named by column, partition and row; {@code nullAs} replaces nulls.
 */
class PlanningErrorsTest {
  private static final String CALL_SITE = PlanningErrorsTest.class.getSimpleName() + ".java:";
  private static final Pattern SPARK_INT_TYPE =
      Pattern.compile("(?i)\\b(int|integer|integertype)\\b");

  private static final String SUM_F64 = "fun real main([real] xs) = reduce(op +, 0.0, xs)";
  private static final String SUM_I64 = "fun i64 main([i64] qs) = reduce(op +, 0i64, qs)";
  private static final String DOUBLED =
      "fun [real] main([real] xs) = map(fn real (real x) => x * 2.0, xs)";

  private static SparkSession spark;
  private static Dataset<Row> table;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.builder(PlanningErrorsTest.class, 2).getOrCreate();
    // Rows 37, 137, ... have nulls and longer arrays: in each of the two partitions of 500 rows the
    // first is row 37.
    table =
        spark
            .range(0, 1000, 1, 2)
            .select(
                col("id"),
                expr("id * 0.5D").as("price"),
                expr("cast(id % 10 as int)").as("quantity"),
                expr("concat('option ', id)").as("label"),
                expr("if(id % 100 = 37, null, id * 0.5D)").as("x_with_nulls"),
                expr("if(id % 100 = 37, null, id)").as("q_with_nulls"),
                expr("if(id % 100 = 37, array(1.0D, 2.0D, 3.0D), array(1.0D, 2.0D))").as("ragged"));
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /**
   * The planning error {@code df.transform(pipeline)} throws, which must name the caller's line.
   */
  private static String planningError(L0Pipeline pipeline) {
    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> table.transform(pipeline));
    String message = error.getMessage();
    assertTrue(message.contains(CALL_SITE), "names the call site " + CALL_SITE + "...: " + message);
    return message;
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "mentions '" + part + "': " + message);
    }
  }

  @Test
  void aMissingColumnIsNamed() {
    String message = planningError(L0.pipeline(SUM_F64).on("no_such_column"));
    assertMentions(message, "no_such_column");
  }

  @Test
  void aColumnOfTheWrongTypeIsNamedWithItsSparkTypeAndTheL0Type() {
    String message = planningError(L0.pipeline(SUM_F64).on("quantity"));
    assertMentions(message, "quantity", "f64");
    assertTrue(SPARK_INT_TYPE.matcher(message).find(), "names the Spark type int: " + message);

    String text = planningError(L0.pipeline(SUM_F64).on("label"));
    assertMentions(text, "label", "f64");
    assertTrue(
        text.toLowerCase(Locale.ROOT).contains("string"), "names the Spark type string: " + text);
  }

  @Test
  void moreOrFewerColumnsThanParametersAreReported() {
    String fewer =
        planningError(
            L0.pipeline(
                    "fun real main([real] xs, [real] ys) = reduce(op +, 0.0, map(op *, zip(xs, ys)))")
                .on("price"));
    assertMentions(fewer, "price");
    assertTrue(
        fewer.toLowerCase(Locale.ROOT).contains("parameter"), "speaks of parameters: " + fewer);

    String more = planningError(L0.pipeline(SUM_F64).on("price", "id"));
    assertMentions(more, "price", "id");
    assertTrue(
        more.toLowerCase(Locale.ROOT).contains("parameter"), "speaks of parameters: " + more);
  }

  @Test
  void aParameterThatIsNotAnArrayOverTheRowsIsNamed() {
    String message =
        planningError(
            L0.pipeline(
                    "fun [real] main(real scale, [real] xs) = map(fn real (real x) => x * scale, xs)")
                .on("price", "price"));
    assertMentions(message, "scale");
  }

  @Test
  void moreOrFewerOutputNamesThanResultsAreReported() {
    String message = planningError(L0.pipeline(SUM_F64).on("price").as("total", "extra"));
    assertMentions(message, "extra");
  }

  @Test
  void aProgramThatLooksAcrossRowsIsReportedAtItsLineAndColumn() {
    String acrossRows =
        """
        fun [real] main([real] xs) =
          map(fn real (int i) => xs[i] - xs[0], iota(size(0, xs)))
        """;
    String message = planningError(L0.pipeline(acrossRows).on("price"));
    assertTrue(
        Pattern.compile(":2:\\d+").matcher(message).find(),
        "points at line 2 of the program: " + message);
  }

  @Test
  void resultsOfDifferentKindsAreReported() {
    String mixed =
        "fun {real, [real]} main([real] xs) = {reduce(op +, 0.0, xs), map(fn real (real x) => x + 1.0, xs)}";
    String message = planningError(L0.pipeline(mixed).on("price").as("total", "next"));
    assertTrue(
        message.toLowerCase(Locale.ROOT).contains("reduce"),
        "says which kinds are mixed: " + message);
  }

  @Test
  void anL0TypeErrorKeepsItsLineAndColumn() {
    String message =
        planningError(L0.pipeline("fun real main([real] xs) =\n  reduce(op +, 0, xs)").on("price"));
    assertTrue(
        Pattern.compile(":2:\\d+").matcher(message).find(),
        "points at line 2 of the program: " + message);
  }

  @Test
  void aNullWithoutReplacementFailsTheTaskNamingColumnPartitionAndRow() {
    Dataset<Row> planned = table.transform(L0.pipeline(SUM_I64).on("q_with_nulls").as("total"));
    SparkException failure = assertThrows(SparkException.class, planned::collectAsList);
    String message = messageNaming(failure, "q_with_nulls");
    assertMentions(message, "partition", "row 37", "nullAs");
  }

  @Test
  void arraysOfDifferentLengthsFailTheTaskNamingColumnRowAndLengths() {
    Dataset<Row> planned =
        table.transform(
            L0.pipeline(
                    "fun [real] main([[real]] rows) = map(fn real ([real] r) => reduce(op +, 0.0, r), rows)")
                .on("ragged"));
    SparkException failure = assertThrows(SparkException.class, planned::collectAsList);
    String message = messageNaming(failure, "ragged");
    assertMentions(message, "row 37");
    assertTrue(
        Pattern.compile("\\b2\\b").matcher(message).find()
            && Pattern.compile("\\b3\\b").matcher(message).find(),
        "names both lengths, 2 and 3: " + message);
  }

  @Test
  void nullAsReplacesNullsInAReduction() {
    long replaced =
        table
            .transform(
                L0.pipeline(SUM_I64).on("q_with_nulls").nullAs("q_with_nulls", 1000L).as("total"))
            .first()
            .getLong(0);
    long sparkSum = table.agg(sum(coalesce(col("q_with_nulls"), lit(1000L)))).first().getLong(0);
    assertEquals(sparkSum, replaced);
  }

  @Test
  void nullAsReplacesNullsInAMap() {
    Dataset<Row> doubled =
        table.transform(
            L0.pipeline(DOUBLED).on("x_with_nulls").nullAs("x_with_nulls", -1.0).as("doubled"));
    double[] l0 = CollectedColumns.of(doubled).doubles("doubled");
    double[] sparkSql =
        CollectedColumns.of(
                table.select(coalesce(col("x_with_nulls"), lit(-1.0)).multiply(2.0).as("doubled")))
            .doubles("doubled");
    assertBitIdentical(sparkSql, l0, "nulls replaced by -1.0, then doubled");
  }

  /**
   * The message of the first exception in {@code failure}'s cause chain that names {@code column}.
   */
  private static String messageNaming(Throwable failure, String column) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && cause.getMessage().contains(column)) {
        return cause.getMessage();
      }
    }
    return fail("no exception in the cause chain names the column " + column + ": " + failure);
  }
}
