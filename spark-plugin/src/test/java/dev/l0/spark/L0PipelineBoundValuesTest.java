package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.dsl.Arr;
import dev.l0.dsl.F64;
import dev.l0.dsl.I32;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.pipeline.PipelinePlanningException;
import dev.l0.spark.pipeline.PipelineSpec;
import dev.l0.spark.plan.L0PipelineNode;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * {@code with(parameter, value)}: driver-side values bound to entry parameters, checked when
 * planning, whole values in every task.
 */
class L0PipelineBoundValuesTest {
  /**
   * Top-level code indexes and sizes the bound grid; the lambda reads the grid and the rate for
   * every row.
   */
  private static final String LOOKUP =
      """
      fun [f64] main([f64] grid, [i32] idx, f64 rate) =
        let n = size(0, grid) in
        let last = grid[n - 1] in
        map(fn f64 (i32 i) => grid[i] * rate + last, idx)
      """;

  private static final String WEIGHTED_SUM =
      """
      fun f64 main([i32] idx, [[f64]] table, i32 column) =
        reduce(op +, 0.0, map(fn f64 (i32 i) => table[i, column], idx))
      """;
  private static final int ROWS = 1000;
  private static SparkSession spark;
  private static Dataset<Row> indices;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineBoundValuesTest.class, Map.of("spark.l0.batchRows", "64"));
    StructType schema = new StructType().add("idx", DataTypes.IntegerType, false);
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      rows.add(RowFactory.create((r * 7) % 100));
    }
    indices = SparkTestSupport.frame(spark, rows, schema, 4);
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  private static double[] grid() {
    double[] grid = new double[100];
    for (int k = 0; k < grid.length; k++) {
      grid[k] = Math.sqrt(k) + 0.25 * k;
    }
    return grid;
  }

  @Test
  void aMapWithABoundGridAndScalarEqualsAJavaLoop() {
    double[] grid = grid();
    double rate = 1.0 / 3.0;
    List<Row> rows =
        indices
            .transform(L0.pipeline(LOOKUP).with("grid", grid).with("rate", rate).on("idx").as("v"))
            .collectAsList();

    double[] expected = new double[ROWS];
    for (int r = 0; r < ROWS; r++) {
      expected[r] = grid[(r * 7) % 100] * rate + grid[grid.length - 1];
    }
    assertArrayEquals(expected, rows.stream().mapToDouble(row -> row.getDouble(0)).toArray());
  }

  /** A Java DSL entry whose parameters are named ({@code ValType.named}) binds them by name. */
  @Test
  void aJavaDslEntryBindsItsNamedParameters() {
    dev.l0.ir.Program lookup =
        dev.l0.dsl.L0.program(
            prog ->
                prog.fun(
                    "main",
                    Arr.of(F64.TYPE).named("grid"),
                    Arr.of(I32.TYPE).named("idx"),
                    F64.TYPE.named("rate"),
                    (g, idx, rate) -> dev.l0.dsl.L0.map(idx, i -> g.get(i).mul(rate))));
    double[] grid = grid();
    List<Row> rows =
        indices
            .transform(L0.pipeline(lookup).with("grid", grid).with("rate", 2.0).on("idx").as("v"))
            .collectAsList();

    double[] expected = new double[ROWS];
    for (int r = 0; r < ROWS; r++) {
      expected[r] = grid[(r * 7) % 100] * 2.0;
    }
    assertArrayEquals(expected, rows.stream().mapToDouble(row -> row.getDouble(0)).toArray());
  }

  @Test
  void aReduceReadsABoundTableAndScalar() {
    double[][] table = new double[100][3];
    for (int k = 0; k < 100; k++) {
      table[k] = new double[] {k, 2.0 * k, k * k};
    }
    Row total =
        indices
            .transform(L0.pipeline(WEIGHTED_SUM).with("table", table).with("column", 2).on("idx"))
            .collectAsList()
            .get(0);

    double expected = 0;
    for (int r = 0; r < ROWS; r++) {
      expected += table[(r * 7) % 100][2];
    }
    assertEquals(expected, total.getDouble(0));
  }

  @Test
  void theSameProgramWithOtherValuesGivesOtherResultsInOneQuery() {
    L0Pipeline lookup = L0.pipeline(LOOKUP).with("grid", grid()).on("idx").as("v");
    Dataset<Row> both =
        indices
            .transform(lookup.with("rate", 2.0))
            .union(indices.transform(lookup.with("rate", 3.0)));

    List<Row> rows = both.collectAsList();
    double last = grid()[99];
    assertEquals(2 * ROWS, rows.size());
    assertEquals(grid()[7] * 2.0 + last, rows.get(1).getDouble(0));
    assertEquals(grid()[7] * 3.0 + last, rows.get(ROWS + 1).getDouble(0));
  }

  @Test
  void boundValuesTravelAsABroadcastNotInsideThePlan() throws Exception {
    double[] big = new double[1 << 20];
    Dataset<Row> mapped =
        indices.transform(L0.pipeline(LOOKUP).with("grid", big).with("rate", 1.0).on("idx"));
    PipelineSpec spec =
        ((L0PipelineNode)
                ((org.apache.spark.sql.classic.Dataset<Row>) mapped).queryExecution().analyzed())
            .spec();

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(spec);
    }
    assertTrue(spec.boundValuesBroadcast());
    assertTrue(
        bytes.size() < 64 * 1024,
        "the spec serializes to " + bytes.size() + " bytes, the grid is 8 MiB");
    assertEquals(ROWS, mapped.count());
  }

  @Test
  void anUnknownParameterIsNamedWithTheEntrysParametersAtTheUsersLine() {
    L0Pipeline pipeline = L0.pipeline(LOOKUP).with("grd", grid()).with("rate", 1.0).on("idx");
    int line = callersLine() - 1;

    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> indices.transform(pipeline));
    assertTrue(
        error
            .getMessage()
            .startsWith("L0 pipeline at L0PipelineBoundValuesTest.java:" + line + ": "),
        error.getMessage());
    assertTrue(
        error
            .getMessage()
            .contains(
                "with(\"grd\", ...) names no parameter of 'main'; its parameters are "
                    + "[f64] grid, [i32] idx, f64 rate"),
        error.getMessage());
  }

  @Test
  void aParameterBoundTwiceIsAnError() {
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                indices.transform(
                    L0.pipeline(LOOKUP)
                        .with("rate", 1.0)
                        .with("grid", grid())
                        .with("rate", 2.0)
                        .on("idx")));
    assertTrue(
        error.getMessage().contains("binds the parameter 'rate' of 'main' twice"),
        error.getMessage());
  }

  @Test
  void aValueOfTheWrongTypeNamesTheL0TypeAndTheJavaType() {
    PipelinePlanningException scalar =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                indices.transform(
                    L0.pipeline(LOOKUP).with("grid", grid()).with("rate", 1).on("idx")));
    assertTrue(
        scalar
            .getMessage()
            .contains(
                "with(\"rate\", ...): the parameter has L0 type f64, which takes a "
                    + "java.lang.Double, but the value is a java.lang.Integer"),
        scalar.getMessage());

    PipelinePlanningException array =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                indices.transform(
                    L0.pipeline(LOOKUP).with("grid", new float[3]).with("rate", 1.0).on("idx")));
    assertTrue(
        array
            .getMessage()
            .contains(
                "the parameter has L0 type [f64], which takes a double[] or a FlatArray "
                    + "of f64 with 1 dimension, but the value is a float[]"),
        array.getMessage());
  }

  @Test
  void anIrregularNestedArraySaysTheIndexAndBothLengths() {
    double[][] ragged = {{1, 2, 3}, {4, 5, 6}, {7, 8}};
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                indices.transform(
                    L0.pipeline(WEIGHTED_SUM).with("table", ragged).with("column", 0).on("idx")));
    assertTrue(
        error
            .getMessage()
            .contains(
                "the nested array is irregular: table[2] has length 2, but table[0] has "
                    + "length 3"),
        error.getMessage());
  }

  /**
   * 65536 x 65536 rows of no elements in a few hundred KiB (every row is the same array): planning
   * checks each distinct row once, not 2^32 times, and a ragged or null row among the shared ones
   * is still named by its index.
   */
  @Test
  void aHugeButEmptyNestedArrayPlansQuicklyAndItsFlawsNameTheirIndex() {
    String sizes =
        "fun [i32] main([[[f64]]] grid, [i32] idx) ="
            + " map(fn i32 (i32 i) => size(0, grid) + size(1, grid) + size(2, grid) + i, idx)";
    double[][] row = new double[1 << 16][];
    Arrays.fill(row, new double[0]);
    double[][][] empty = new double[1 << 16][][];
    Arrays.fill(empty, row);
    Dataset<Row> planned =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () -> indices.transform(L0.pipeline(sizes).with("grid", empty).on("idx").as("n")));
    assertEquals(2 * 65536 + 7, planned.collectAsList().get(1).getInt(0));

    double[][] raggedRow = row.clone();
    raggedRow[65535] = new double[1];
    double[][][] ragged = empty.clone();
    ragged[65535] = raggedRow;
    assertPlanningErrorWithin(
        sizes,
        ragged,
        "with(\"grid\", ...): the nested array is irregular: grid[65535][65535] has length 1, but grid[0][0] has"
            + " length 0; a bound array must be regular");

    double[][] rowWithNull = row.clone();
    rowWithNull[40000] = null;
    double[][][] withNull = empty.clone();
    withNull[30000] = rowWithNull;
    assertPlanningErrorWithin(
        sizes,
        withNull,
        "with(\"grid\", ...): grid[30000][40000] is null; a bound array must be regular");
  }

  /**
   * Java's {@code new double[0][3]} keeps no row to hold the 3, so the value's inner size reads as
   * 0 where an L0 {@code [0][3]} array has 3: a program that can see it is a planning error naming
   * the parameter and where the program reads it, and a FlatArray gives the size.
   */
  @Test
  void anEmptyNestedArrayWhoseInnerSizeTheProgramReadsNeedsAFlatArray() {
    String columns =
        "fun [i32] main([[f64]] g, [i32] idx) =\n  map(fn i32 (i32 i) => size(1, g) + i, idx)";
    L0Pipeline pipeline = L0.pipeline(columns).with("g", new double[0][3]).on("idx").as("n");
    int line = callersLine() - 1;

    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> indices.transform(pipeline));
    assertEquals(
        "L0 pipeline at L0PipelineBoundValuesTest.java:"
            + line
            + ": with(\"g\", ...): the value, a double[][] of shape [0][?], has no row under its"
            + " empty dimension to give the size of its dimension 2 (Java's new double[0][3] keeps"
            + " no 3), but 'main' can see it at <inline L0 program>:2:25, where an L0 array would"
            + " have it; bind a FlatArray, which keeps every size, e.g. new"
            + " FlatArray(ScalarType.F64, new double[0], new int[] {0, 3})",
        error.getMessage());

    List<Row> rows =
        indices
            .transform(
                L0.pipeline(columns)
                    .with("g", new FlatArray(ScalarType.F64, new double[0], new int[] {0, 3}))
                    .on("idx")
                    .as("n"))
            .collectAsList();
    for (int r = 0; r < ROWS; r++) {
      assertEquals(3 + (r * 7) % 100, rows.get(r).getInt(0));
    }
  }

  /** Where no result can depend on the sizes below the empty dimension, the value binds. */
  @Test
  void anEmptyNestedArrayWhoseInnerSizeNoResultSeesBinds() {
    String counts =
        "fun [i32] main([[f64]] g, [i32] idx) =\n"
            + "  let rows = size(0, g) in\n"
            + "  map(fn i32 (i32 i) => rows + reduce(op +, 0, map(fn i32 ([f64] r) => size(0, r), g))"
            + " + i, idx)";
    List<Row> rows =
        indices
            .transform(L0.pipeline(counts).with("g", new double[0][3]).on("idx").as("n"))
            .collectAsList();

    for (int r = 0; r < ROWS; r++) {
      assertEquals((r * 7) % 100, rows.get(r).getInt(0));
    }
  }

  private static void assertPlanningErrorWithin(String program, Object grid, String expected) {
    PipelinePlanningException error =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () ->
                assertThrows(
                    PipelinePlanningException.class,
                    () -> indices.transform(L0.pipeline(program).with("grid", grid).on("idx"))));
    assertTrue(error.getMessage().contains(expected), error.getMessage());
  }

  @Test
  void theColumnsFeedOnlyTheUnboundParameters() {
    PipelinePlanningException error =
        assertThrows(
            PipelinePlanningException.class,
            () ->
                indices.transform(
                    L0.pipeline(LOOKUP).with("grid", grid()).with("rate", 1.0).on("idx", "idx")));
    assertTrue(error.getMessage().contains("takes 1 input(s)"), error.getMessage());
  }

  private static int callersLine() {
    return StackWalker.getInstance()
        .walk(frames -> frames.skip(1).findFirst().orElseThrow())
        .getLineNumber();
  }
}
