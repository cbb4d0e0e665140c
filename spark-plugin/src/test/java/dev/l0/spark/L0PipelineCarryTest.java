package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.pipeline.PipelinePlanningException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code carry(...)}: input columns of any type passed through a per-row pipeline to its output,
 * row by row beside the results, whatever the batching (runtime batches of 1000 rows here, so they
 * start inside Spark's batches) and the partitioning; and the planning errors naming the column.
 */
class L0PipelineCarryTest {
  private static final StructType POSITIONS =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("book", DataTypes.StringType, true)
          .add("quantity", DataTypes.DoubleType, false)
          .add("price", DataTypes.DoubleType, false)
          .add(
              "meta",
              new StructType()
                  .add("desk", DataTypes.StringType, true)
                  .add("limit", DataTypes.createDecimalType(12, 2), true),
              true)
          .add("tags", DataTypes.createArrayType(DataTypes.IntegerType, true), true);
  private static final String VALUE =
      "fun [f64] main([f64] q, [f64] p) = map(fn f64 (f64 a, f64 b) => a * b, zip(q, p))";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0PipelineCarryTest.class, Map.of(L0Settings.JVM_BATCH_ROWS, "1000"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  @Test
  void carriedColumnsComeFirstAndMatchTheirRowsAcrossPartitions() {
    List<Row> rows = positions(10_007, new Random(17));
    for (int partitions : new int[] {1, 2, 4}) {
      Dataset<Row> valued =
          SparkTestSupport.frame(spark, rows, POSITIONS, partitions)
              .transform(
                  L0.pipeline(VALUE)
                      .on("quantity", "price")
                      .as("value")
                      .carry("book", "id", "meta", "tags"));

      assertEquals(
          List.of("book", "id", "meta", "tags", "value"), List.of(valued.schema().fieldNames()));
      assertEquals(POSITIONS.apply("meta"), valued.schema().apply("meta"));
      assertEquals(POSITIONS.apply("tags"), valued.schema().apply("tags"));
      assertEquals(
          normalized(expected(rows)),
          normalized(valued.collectAsList()),
          partitions + " partitions");
    }
  }

  @Test
  void carriedColumnsReadFromParquetFeedAGroupByWithoutAJoin(@TempDir Path folder) {
    List<Row> rows = positions(20_000, new Random(23));
    String parquet = folder.resolve("positions.parquet").toString();
    SparkTestSupport.frame(spark, rows, POSITIONS, 3).write().parquet(parquet);
    Dataset<Row> positions = spark.read().parquet(parquet);

    Dataset<Row> valued =
        positions.transform(
            L0.pipeline(VALUE).on("quantity", "price").as("value").carry("id", "book"));
    List<Row> byId = new ArrayList<>(valued.collectAsList());
    byId.sort(Comparator.comparingLong(row -> row.getLong(0)));
    List<Row> expected = new ArrayList<>();
    for (Row row : rows) {
      expected.add(
          RowFactory.create(row.getLong(0), row.getString(1), row.getDouble(2) * row.getDouble(3)));
    }
    assertEquals(expected, byId);
    assertEquals(1, SparkTestSupport.pipelineExecs(valued).size());

    Dataset<Row> perBook = valued.groupBy("book").count();
    String plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) perBook)
            .queryExecution()
            .executedPlan()
            .toString();
    assertTrue(!plan.contains("Join"), plan);
    long nullBooks = rows.stream().filter(row -> row.isNullAt(1)).count();
    assertEquals(
        nullBooks,
        perBook.where(col("book").isNull()).collectAsList().get(0).getLong(1),
        "null books carried as nulls");
  }

  @Test
  void aSelfJoinOnACarriedColumnSeesBothSides() {
    List<Row> rows = positions(500, new Random(29));
    Dataset<Row> valued =
        SparkTestSupport.frame(spark, rows, POSITIONS, 2)
            .transform(L0.pipeline(VALUE).on("quantity", "price").as("value").carry("id"));

    List<Row> doubled =
        valued
            .join(valued.withColumnRenamed("value", "again"), "id")
            .where(col("value").notEqual(col("again")))
            .collectAsList();
    assertEquals(List.of(), doubled);
    assertEquals(rows.size(), valued.join(valued, "id").count());
  }

  @Test
  void badCarriesNameTheColumn() {
    Dataset<Row> frame = SparkTestSupport.frame(spark, positions(10, new Random(1)), POSITIONS, 1);
    L0Pipeline value = L0.pipeline(VALUE).on("quantity", "price").as("value");

    assertCarryError(
        frame,
        value.carry("book", "desk"),
        "carry(...) names the column 'desk', but the input has no such column; its columns are id"
            + " bigint, book string,");
    assertCarryError(
        frame,
        value.carry("meta.desk"),
        "carry(...) names 'meta.desk', a field of the struct column 'meta'");
    assertCarryError(
        frame, value.carry("book", "BOOK"), "carry(...) names the column 'book' twice");
    assertCarryError(
        frame,
        value.as("book").carry("book"),
        "carry(...) names the column 'book', but the pipeline's output column 'book' has that"
            + " name");
    assertCarryError(
        frame,
        L0.pipeline("fun [f64] main([f64] q) = filter(fn bool (f64 x) => 0.0 < x, q)")
            .on("quantity")
            .carry("book"),
        "carry(book) needs one output row per input row, but the filter at <inline L0 program>:1:");
    assertCarryError(
        frame,
        L0.pipeline("fun f64 main([f64] q) = reduce(op +, 0.0, q)").on("quantity").carry("book"),
        "carry(book) needs a pipeline with one output row per input row, but this one is a reduce"
            + " pipeline");
  }

  private static void assertCarryError(Dataset<Row> frame, L0Pipeline pipeline, String expected) {
    PipelinePlanningException error =
        assertThrows(PipelinePlanningException.class, () -> frame.transform(pipeline));
    assertTrue(error.getMessage().contains(expected), error.getMessage());
    assertTrue(
        error.getMessage().startsWith("L0 pipeline at L0PipelineCarryTest.java:"),
        error.getMessage());
  }

  /** Rows as lists, structs as lists and arrays as Java lists, so that they compare by value. */
  private static List<Object> normalized(List<Row> rows) {
    return rows.stream().map(L0PipelineCarryTest::normalizedValue).toList();
  }

  private static Object normalizedValue(Object value) {
    if (value instanceof Row row) {
      List<Object> fields = new ArrayList<>();
      for (int i = 0; i < row.length(); i++) {
        fields.add(normalizedValue(row.get(i)));
      }
      return fields;
    }
    if (value instanceof scala.collection.Seq<?> seq) {
      return new ArrayList<>(CollectionConverters.asJava(seq));
    }
    return value;
  }

  /** The rows' carried columns, then quantity x price. */
  private static List<Row> expected(List<Row> rows) {
    List<Row> expected = new ArrayList<>();
    for (Row row : rows) {
      expected.add(
          RowFactory.create(
              row.get(1), row.get(0), row.get(4), row.get(5), row.getDouble(2) * row.getDouble(3)));
    }
    return expected;
  }

  /** Positions with a null book, desk, limit, struct, tag array or tag every few rows. */
  private static List<Row> positions(int count, Random random) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Row meta =
          i % 11 == 0
              ? null
              : RowFactory.create(
                  i % 7 == 0 ? null : "desk-" + random.nextInt(5),
                  i % 5 == 0 ? null : BigDecimal.valueOf(random.nextInt(1_000_000), 2));
      List<Integer> tags = new ArrayList<>();
      tags.add(i);
      tags.add(i % 3 == 0 ? null : random.nextInt(100));
      rows.add(
          RowFactory.create(
              (long) i,
              i % 9 == 0 ? null : "book-" + random.nextInt(8),
              random.nextDouble() * 100,
              random.nextDouble() * 50,
              meta,
              i % 13 == 0 ? null : CollectionConverters.asScala(tags).toSeq()));
    }
    return rows;
  }
}
