package dev.l0.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.parquet.L0ParquetFileFormat;
import dev.l0.spark.parquet.L0ParquetFileFormat.FilesRead;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L0's own Parquet reader ({@code spark.l0.parquet.ownReader}): a Parquet scan straight under a
 * pipeline reads with it, every file it can read is read by it (counted where it ran), files it
 * cannot read (a v2 writer's delta-encoded longs, without a dictionary) go to Spark's reader, also
 * within one scan, and the pipeline's results are Spark's reader's bit for bit (NaN, -0.0 and
 * infinities among them); with the key off, or with a filter between scan and pipeline, Spark's
 * reader reads.
 */
class L0ParquetReadingTest {
  /** Each input type in one per-row formula, so that a wrong value of any column shows. */
  private static final String MIXED =
      "fun f64 mixed({f64,i64,i32,f32,bool} r) =\n"
          + "  let {x, y, z, w, c} = r in\n"
          + "  if c then x * 3.0 + f64(y) else x - f64(z) * f64(w)\n"
          + "fun [f64] main([{f64,i64,i32,f32,bool}] rs) = map(mixed, rs)";

  private static SparkSession spark;

  @TempDir static Path folder;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            L0ParquetReadingTest.class, Map.of("spark.sql.files.maxPartitionBytes", "65536"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  private static Dataset<Row> options(long rows) {
    return spark
        .range(0, rows, 1, 3)
        .selectExpr(
            "case when id % 97 = 0 then double('NaN') when id % 89 = 0 then -0.0d"
                + " when id % 83 = 0 then double('-Infinity') else id * 0.37 - 1500.125 end as d",
            "id * 7919 - 100000 as l",
            "cast(id % 1013 - 500 as int) as i",
            "cast(cast(id as float) / 7 as float) as f",
            "id % 3 = 0 as b");
  }

  private static String written(String name, long rows, String writerVersion) {
    String path = folder.resolve(name).toString();
    options(rows).write().option("parquet.writer.version", writerVersion).parquet(path);
    return path;
  }

  private static Dataset<Row> priced(String path) {
    return spark
        .read()
        .parquet(path)
        .transform(L0.pipeline(MIXED).on("d", "l", "i", "f", "b").as("v").carry("l"));
  }

  /** The values by {@code l} (unique per row), as raw bits. */
  private static List<String> valuesByKey(Dataset<Row> priced) {
    return priced.orderBy(col("l")).collectAsList().stream()
        .map(row -> row.<Long>getAs("l") + ":" + Double.doubleToRawLongBits(row.<Double>getAs("v")))
        .toList();
  }

  private static List<String> withSparksReader(String path) {
    spark.conf().set(L0Settings.PARQUET_OWN_READER, "false");
    try {
      Dataset<Row> priced = priced(path);
      List<String> values = valuesByKey(priced);
      assertSame(ParquetFileFormat.class, formatUnderPipeline(priced).getClass());
      return values;
    } finally {
      spark.conf().unset(L0Settings.PARQUET_OWN_READER);
    }
  }

  private static Object formatUnderPipeline(Dataset<Row> df) {
    List<FileSourceScanExec> scans = SparkTestSupport.execs(df, FileSourceScanExec.class);
    assertEquals(1, scans.size(), "one file scan");
    return scans.get(0).relation().fileFormat();
  }

  @Test
  void aPipelineOverParquetReadsEveryFileWithL0sReaderAndGivesSparksValues() {
    String path = written("v1", 30_000, "v1");
    List<String> expected = withSparksReader(path);
    FilesRead before = L0ParquetFileFormat.filesReadInThisJvm();
    Dataset<Row> priced = priced(path);
    List<String> actual = valuesByKey(priced);
    FilesRead after = L0ParquetFileFormat.filesReadInThisJvm();
    assertTrue(formatUnderPipeline(priced) instanceof L0ParquetFileFormat);
    assertEquals(30_000, actual.size());
    assertEquals(expected, actual);
    assertTrue(
        after.byL0Reader() - before.byL0Reader() >= 3,
        "every split of the three files is read by L0's reader: " + before + " -> " + after);
    assertEquals(before.bySparkReader(), after.bySparkReader(), "no split went to Spark's reader");
  }

  @Test
  void filesItsReaderCannotReadGoToSparksReaderWithinTheSameScan() {
    String path = written("mixed", 6_000, "v1");
    options(6_000)
        .selectExpr("d", "l + 1000000000000 as l", "i", "f", "b")
        .write()
        .mode("append")
        .option("parquet.writer.version", "v2")
        .option("parquet.enable.dictionary", "false")
        .parquet(path);
    List<String> expected = withSparksReader(path);
    FilesRead before = L0ParquetFileFormat.filesReadInThisJvm();
    List<String> actual = valuesByKey(priced(path));
    FilesRead after = L0ParquetFileFormat.filesReadInThisJvm();
    assertEquals(12_000, actual.size());
    assertEquals(expected, actual);
    assertTrue(after.byL0Reader() > before.byL0Reader(), "the v1 files: " + after);
    assertTrue(after.bySparkReader() > before.bySparkReader(), "the v2 files: " + after);
  }

  /**
   * A file deleted after the scan listed it is skipped under {@code
   * spark.sql.files.ignoreMissingFiles}, as Spark's reader skips it: L0's reader throws the file
   * system's own {@code FileNotFoundException}, which Spark's file scan tells by its type.
   */
  @Test
  void aFileDeletedAfterListingIsSkippedUnderIgnoreMissingFiles() throws Exception {
    String path = written("missing", 9_000, "v1");
    Dataset<Row> listed = spark.read().parquet(path);
    long rows = listed.count();
    Path deleted;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of(path))) {
      deleted =
          files.filter(file -> file.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    long deletedRows = spark.read().parquet(deleted.toString()).count();
    java.nio.file.Files.delete(deleted);
    spark.conf().set("spark.sql.files.ignoreMissingFiles", "true");
    try {
      Dataset<Row> priced =
          listed.transform(L0.pipeline(MIXED).on("d", "l", "i", "f", "b").as("v"));
      assertEquals(rows - deletedRows, priced.collectAsList().size());
      assertTrue(formatUnderPipeline(priced) instanceof L0ParquetFileFormat);
    } finally {
      spark.conf().unset("spark.sql.files.ignoreMissingFiles");
    }
  }

  /**
   * The reader function's iterator over a file read by L0's reader is {@code Closeable}, as Spark's
   * file scan needs to close each file's reader when it moves to the next: closed halfway, it ends.
   */
  @Test
  void aFilesBatchesCloseWhenSparkMovesOn() throws Exception {
    String path = written("closing", 10_000, "v1");
    Path file;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of(path))) {
      file = files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    StructType schema = spark.read().parquet(path).schema();
    scala.Function1<PartitionedFile, scala.collection.Iterator<InternalRow>> readFile =
        new L0ParquetFileFormat()
            .buildReaderWithPartitionValues(
                spark,
                schema,
                new StructType(),
                schema,
                scala.collection.immutable.List$.MODULE$.empty(),
                scala.collection.immutable.Map$.MODULE$
                    .<String, String>empty()
                    .updated("returning_batch", "true"),
                spark.sessionState().newHadoopConf());
    long length = java.nio.file.Files.size(file);
    FilesRead before = L0ParquetFileFormat.filesReadInThisJvm();
    scala.collection.Iterator<InternalRow> batches =
        readFile.apply(
            PartitionedFile.apply(
                InternalRow.empty(),
                SparkPath.fromPath(new org.apache.hadoop.fs.Path(file.toUri())),
                0,
                length,
                new String[0],
                0,
                length,
                scala.collection.immutable.Map$.MODULE$.empty()));
    assertEquals(before.byL0Reader() + 1, L0ParquetFileFormat.filesReadInThisJvm().byL0Reader());
    assertTrue(batches.hasNext());
    assertTrue(((Object) batches.next()) instanceof ColumnarBatch);
    assertTrue(batches instanceof Closeable, batches.getClass().getName());
    ((Closeable) batches).close();
    assertFalse(batches.hasNext());
  }

  @Test
  void aScanUnderAFilterKeepsSparksReader() {
    String path = written("filtered", 1_000, "v1");
    Dataset<Row> priced =
        spark
            .read()
            .parquet(path)
            .where(col("i").gt(0))
            .transform(L0.pipeline(MIXED).on("d", "l", "i", "f", "b").as("v"));
    assertEquals(spark.read().parquet(path).where(col("i").gt(0)).count(), priced.count());
    assertFalse(formatUnderPipeline(priced) instanceof L0ParquetFileFormat);
  }

  /**
   * A file with columns the pipeline does not use (a string among them, which L0's reader does not
   * read): the scan under the pipeline reads only the columns it reads and carries, with L0's
   * reader, and the values are Spark's.
   */
  @Test
  void aScanUnderAPipelineReadsOnlyTheColumnsThePipelineUses() {
    String path = folder.resolve("wide").toString();
    options(5_000)
        .selectExpr("*", "concat('row ', l) as name", "d * 2.0d as unused")
        .write()
        .parquet(path);
    List<String> expected = withSparksReader(path);
    Dataset<Row> priced = priced(path);
    assertEquals(expected, valuesByKey(priced));
    List<FileSourceScanExec> scans = SparkTestSupport.execs(priced, FileSourceScanExec.class);
    assertEquals(
        List.of("d", "l", "i", "f", "b"),
        List.of(scans.get(0).requiredSchema().fieldNames()),
        "the scan's columns");
    assertTrue(formatUnderPipeline(priced) instanceof L0ParquetFileFormat);
  }
}
