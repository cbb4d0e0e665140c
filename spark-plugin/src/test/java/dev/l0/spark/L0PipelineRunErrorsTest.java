package dev.l0.spark;

import static dev.l0.dsl.L0.i32;
import static dev.l0.dsl.L0.map;
import static dev.l0.dsl.L0.program;
import static dev.l0.dsl.L0.reduce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.I32;
import dev.l0.ir.L0RuntimeError;
import dev.l0.ir.Program;
import dev.l0.spark.plan.PipelineRunException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * A program failing in a task (division by zero, index out of bounds) names the user's line, the
 * partition and the row.
 */
class L0PipelineRunErrorsTest {
  private static final int ROWS = 100;
  private static final String DIVIDES_BY_X_MINUS_70 =
      "fun [i32] main([i32] n) =\n  map(fn i32 (i32 x) => 100 / (x - 70), n)";
  private static SparkSession spark;

  /**
   * Rows 0..99 in two partitions of 50; with batches of 16 rows, row 70 is row 20 of partition 1,
   * in its second batch.
   */
  private static Dataset<Row> numbers;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineRunErrorsTest.class, Map.of("spark.l0.batchRows", "16"));
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      rows.add(RowFactory.create(r));
    }
    numbers =
        SparkTestSupport.frame(
            spark, rows, new StructType().add("n", DataTypes.IntegerType, false), 2);
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void aDivisionByZeroInAMapNamesTheCallSitePartitionAndRow() {
    L0Pipeline pipeline = L0.pipeline(DIVIDES_BY_X_MINUS_70).on("n");
    int line = callersLine();
    Dataset<Row> out = numbers.transform(pipeline);

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    String messages = SparkTestSupport.messages(error);
    assertTrue(
        messages.contains(
            "dev.l0.spark.plan.PipelineRunException: L0 pipeline at L0PipelineRunErrorsTest.java:"
                + line
                + ": partition 1, row 20: <inline L0 program>:2:"),
        messages);
    assertTrue(messages.contains("/: integer division by zero"), messages);
  }

  /**
   * Code that fails whatever the rows (an index into a bound value past its end) names no row:
   * every batch fails, and the first row of the first was named as the failing one.
   */
  @Test
  void aFailureThatDoesNotDependOnTheRowsNamesNoRow() {
    String text =
        "fun [i32] main([i32] g, [i32] n) =\n  let v = g[5] in\n  map(fn i32 (i32 x) => x + v, n)";
    L0Pipeline pipeline = L0.pipeline(text).with("g", new int[] {1, 2}).on("n");
    int line = callersLine();
    Dataset<Row> out = numbers.transform(pipeline);

    String messages =
        SparkTestSupport.messages(assertThrows(SparkException.class, out::collectAsList));
    assertTrue(
        messages.matches(
            "(?s).*L0 pipeline at L0PipelineRunErrorsTest.java:"
                + line
                + ": partition [01], no row \\(the failing code does not depend on the rows: it fails"
                + " on no rows too\\): <inline L0 program>:2:[0-9]+: index: index 5 out of bounds.*"),
        messages);
    assertFalse(messages.contains(", row 0:"), messages);
  }

  /**
   * A program built with the Java DSL fails at the Java line that staged the failing operation, as
   * it does in the runtime API, not at a line of its printed text, which the user never sees.
   */
  @Test
  void aJavaDslProgramsRunErrorCitesTheJavaLineThatStagedIt() {
    Program divides =
        program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(I32.TYPE),
                    n -> map(n, x -> i32(100).div(x.sub(70))))); // the staging line
    int line = callersLine();
    Dataset<Row> out = numbers.transform(L0.pipeline(divides).on("n"));

    String messages =
        SparkTestSupport.messages(assertThrows(SparkException.class, out::collectAsList));
    assertTrue(
        messages.contains(
            "partition 1, row 20: L0PipelineRunErrorsTest.java:"
                + line
                + ": /: integer division by zero"),
        messages);
  }

  /**
   * The same where the failing operation runs in a program the planner derived from the DSL
   * program: the partitions' sums, 1225 and 3725, meet only in the combiner, where a + b - 4950 is
   * 0.
   */
  @Test
  void aJavaDslReduceFailingOnlyAcrossPartitionsCitesTheJavaLineThatStagedIt() {
    Program combines =
        program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(I32.TYPE),
                    n ->
                        reduce(
                            n, i32(0), (a, b) -> a.add(b).add(i32(1000).div(a.add(b).sub(4950))))));
    int line = callersLine();
    Dataset<Row> out = numbers.transform(L0.pipeline(combines).on("n"));

    String messages =
        SparkTestSupport.messages(assertThrows(SparkException.class, out::collectAsList));
    assertTrue(
        messages.contains(
            "combining the partial results of the 2 partitions: L0PipelineRunErrorsTest.java:"
                + line
                + ": /: integer division by zero"),
        messages);
  }

  /**
   * Two programs that differ only in layout compile to the same kernels, but each one's error cites
   * its own text: the executor's compiled program (cached from the first) must not lend the second
   * its positions.
   */
  @Test
  void programsDifferingOnlyInLayoutEachCiteTheirOwnLineAndColumn() {
    String oneLine = "fun [i32] main([i32] n) = map(fn i32 (i32 x) => 100 / (x - 70), n)";
    String threeLines =
        "\n\nfun [i32] main([i32] n) =\n      map(fn i32 (i32 x) => 100 / (x - 70), n)";
    for (String[] program :
        List.of(new String[] {oneLine, ":1:53: "}, new String[] {threeLines, ":4:33: "})) {
      Dataset<Row> out = numbers.transform(L0.pipeline(program[0]).on("n"));
      String messages =
          SparkTestSupport.messages(assertThrows(SparkException.class, out::collectAsList));
      assertTrue(
          messages.contains("row 20: <inline L0 program>" + program[1] + "/: integer division"),
          program[1] + " in " + messages);
    }
  }

  /**
   * The task's error reaches the driver as the exception itself, not only as its printed stack
   * trace: it and its L0 cause (with its source position) must survive Java serialization, or the
   * executor falls back to Spark's SerializationDebugger, which without the JVM's module flags
   * kills the task's thread and leaves the job waiting forever.
   */
  @Test
  void theRunErrorReachesTheDriverAsAPipelineRunExceptionWithItsL0Cause() {
    Dataset<Row> out = numbers.transform(L0.pipeline(DIVIDES_BY_X_MINUS_70).on("n"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    PipelineRunException run = assertInstanceOf(PipelineRunException.class, error.getCause());
    L0RuntimeError cause = assertInstanceOf(L0RuntimeError.class, run.getCause());
    assertEquals("<inline L0 program>:2:29: /: integer division by zero", cause.getMessage());
  }

  @Test
  void anIndexOutOfBoundsInAReduceNamesTheRow() {
    Dataset<Row> out =
        numbers.transform(
            L0.pipeline(
                    "fun f64 main([i32] n, [f64] table) = reduce(op +, 0.0, map(fn f64 (i32 i) =>"
                        + " table[i], n))")
                .with("table", new double[70])
                .on("n"));

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    String messages = SparkTestSupport.messages(error);
    // The row (20: n = 70, one past the table's end), the failing index's position, and the index
    // and size the failing kernel thread recorded with its error code, as the interpreter words it.
    assertTrue(
        messages.contains(
            ": partition 1, row 20: <inline L0 program>:1:78: index: index 70 out of bounds for"
                + " dimension 0 of size 70"),
        messages);
  }

  /**
   * Each partition's exact sum is finite; only their total overflows, in the task that combines the
   * partitions' partial results: the message names the call site and says so.
   */
  @Test
  void anExactSumThatOverflowsOnlyAcrossPartitionsNamesTheCallSite() {
    Dataset<Row> twoLargest =
        SparkTestSupport.frame(
            spark,
            List.of(RowFactory.create(Double.MAX_VALUE), RowFactory.create(Double.MAX_VALUE)),
            new StructType().add("x", DataTypes.DoubleType, false),
            2);
    L0Pipeline sum =
        L0.pipeline("fun f64 main([f64] x) =\n  reduce(op +, 0.0, x)").on("x").exactFloatSums();
    int line = callersLine();
    Dataset<Row> out = twoLargest.transform(sum);

    SparkException error = assertThrows(SparkException.class, out::collectAsList);
    PipelineRunException run = assertInstanceOf(PipelineRunException.class, error.getCause());
    assertEquals(
        "L0 pipeline at L0PipelineRunErrorsTest.java:"
            + line
            + ": combining the partial results of the 2 partitions: <inline L0 program>:2:3:"
            + " reduce: exact sum: intermediate overflow (the sum's magnitude passes "
            + Double.MAX_VALUE
            + ")",
        run.getMessage());
  }

  private static int callersLine() {
    return StackWalker.getInstance()
            .walk(frames -> frames.skip(1).findFirst().orElseThrow())
            .getLineNumber()
        - 1;
  }
}
