package dev.l0.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.spark.parquet.L0ParquetFileFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L0's own Parquet reader against Spark's, on the same files, through a pipeline that passes every
 * boolean and number column through its kernel (nulls replaced) and carries every column (nulls
 * kept): files Spark writes with every codec, with and without dictionaries, pages v1 and v2, tiny
 * pages and row groups (dictionary fallback mid-chunk, nulls at page boundaries), special values,
 * booleans around bit-packing boundaries, empty and many small files, schemas that differ between
 * files, other column types beside, odd names, files split across many tasks, and broken files with
 * and without {@code spark.sql.files.ignoreCorruptFiles}. Rows (floats as raw bits) or the failure
 * must be the same with either reader.
 */
class OwnParquetReaderAgainstSparksTest {
  private static SparkSession spark;

  @TempDir static Path folder;

  @BeforeAll
  static void start() {
    spark =
        SparkTestSupport.startSession(
            OwnParquetReaderAgainstSparksTest.class,
            Map.of(
                "spark.sql.files.maxPartitionBytes",
                "4096",
                "spark.sql.files.openCostInBytes",
                "0"));
  }

  @AfterAll
  static void stop() {
    SparkTestSupport.stopSession(spark);
  }

  private static String l0Type(DataType type) {
    if (type.equals(DataTypes.BooleanType)) {
      return "bool";
    }
    if (type.equals(DataTypes.IntegerType)) {
      return "i32";
    }
    if (type.equals(DataTypes.LongType)) {
      return "i64";
    }
    if (type.equals(DataTypes.FloatType)) {
      return "f32";
    }
    if (type.equals(DataTypes.DoubleType)) {
      return "f64";
    }
    return null;
  }

  private static Object replacement(DataType type) {
    if (type.equals(DataTypes.BooleanType)) {
      return Boolean.TRUE;
    }
    if (type.equals(DataTypes.IntegerType)) {
      return -7;
    }
    if (type.equals(DataTypes.LongType)) {
      return -7L;
    }
    if (type.equals(DataTypes.FloatType)) {
      return -7.0f;
    }
    return -7.0;
  }

  /**
   * The scan of {@code path} through a pipeline that passes every supported column through (nulls
   * replaced) and carries every column (nulls kept).
   */
  static Dataset<Row> passThrough(Dataset<Row> scan) {
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    List<String> carried = new ArrayList<>();
    for (StructField field : scan.schema().fields()) {
      carried.add(field.name());
      String type = l0Type(field.dataType());
      if (type != null) {
        names.add(field.name());
        types.add(type);
      }
    }
    String tuple = types.size() == 1 ? types.get(0) : "{" + String.join(",", types) + "}";
    String program =
        "fun "
            + tuple
            + " same("
            + tuple
            + " r) = r\n"
            + "fun ["
            + tuple
            + "] main(["
            + tuple
            + "] rs) = map(same, rs)";
    List<String> outs = new ArrayList<>();
    for (String name : names) {
      outs.add("out_" + name);
    }
    L0Pipeline pipeline =
        L0.pipeline(program)
            .on(names.toArray(String[]::new))
            .as(outs.toArray(String[]::new))
            .carry(carried.toArray(String[]::new));
    for (StructField field : scan.schema().fields()) {
      if (l0Type(field.dataType()) != null && field.nullable()) {
        pipeline = pipeline.nullAs(field.name(), replacement(field.dataType()));
      }
    }
    return scan.transform(pipeline);
  }

  /** A value as text, a float or double as its raw bits (NaN payloads and -0.0 kept apart). */
  static String render(Object value) {
    if (value instanceof Double d) {
      return "d" + Long.toHexString(Double.doubleToRawLongBits(d));
    }
    if (value instanceof Float f) {
      return "f" + Integer.toHexString(Float.floatToRawIntBits(f));
    }
    return String.valueOf(value);
  }

  /** The rows of {@code df}, rendered and sorted. */
  static List<String> rows(Dataset<Row> df) {
    List<String> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        s.append(render(row.get(i))).append('|');
      }
      rows.add(s.toString());
    }
    rows.sort(null);
    return rows;
  }

  /** What a read gives with the one reader or the other: its rows, sorted, or its error. */
  static String outcome(Function<SparkSession, Dataset<Row>> read, boolean own) {
    spark.conf().set(L0Settings.PARQUET_OWN_READER, Boolean.toString(own));
    try {
      List<String> rows = rows(passThrough(read.apply(spark)));
      return rows.size() + " rows\n" + String.join("\n", rows);
    } catch (Exception e) {
      return "ERROR " + SparkTestSupport.messages(e);
    } finally {
      spark.conf().unset(L0Settings.PARQUET_OWN_READER);
    }
  }

  /**
   * Asserts that the read gives the same with both readers; returns how many splits L0's reader
   * read (files it declines go to Spark's reader).
   */
  static long compare(String label, Function<SparkSession, Dataset<Row>> read) {
    String expected = outcome(read, false);
    long before = L0ParquetFileFormat.filesReadInThisJvm().byL0Reader();
    String actual = outcome(read, true);
    long byL0 = L0ParquetFileFormat.filesReadInThisJvm().byL0Reader() - before;
    assertEquals(expected, actual, label);
    return byL0;
  }

  /**
   * A check that {@link #compare}s a read and, where the readers differ, adds the difference to
   * {@code failures}, so one test reports every case that fails, not only the first.
   */
  private static BiConsumer<String, Function<SparkSession, Dataset<Row>>> comparingInto(
      List<String> failures) {
    return (label, read) -> {
      try {
        compare(label, read);
      } catch (AssertionError e) {
        failures.add(failure(label, e));
      }
    };
  }

  /** A failed case as a test reports it: its label and the start of the assertion's message. */
  private static String failure(String label, AssertionError e) {
    String message = String.valueOf(e.getMessage());
    return label + ": " + message.substring(0, Math.min(1500, message.length()));
  }

  /**
   * {@code rows} rows of every readable type with nulls, extremes, NaN, infinities, -0.0 and
   * subnormals, a column whose values turn from few to many halfway (dictionary fallback), an
   * all-null column and a nullable column without nulls.
   */
  static Dataset<Row> values(long rows, int partitions) {
    return spark
        .range(0, rows, 1, partitions)
        .selectExpr(
            "id as k",
            "case when id % 7 = 0 then null else id % 3 = 0 end as b",
            "id % 5 = 1 as bb",
            "case when id % 11 = 0 then null when id % 13 = 0 then 2147483647"
                + " when id % 17 = 0 then -2147483648 else cast(id * 37 - 900 as int) end as i",
            "case when id % 19 = 0 then null when id % 23 = 0 then 9223372036854775807L"
                + " when id % 29 = 0 then -9223372036854775808L else id * 1000003 end as l",
            "case when id % 31 = 0 then null when id % 37 = 0 then float('NaN')"
                + " when id % 41 = 0 then cast(-0.0 as float) when id % 43 = 0 then float('Infinity')"
                + " when id % 47 = 0 then cast(1.4e-45 as float) when id % 53 = 0"
                + " then float('-Infinity') else cast(id / 7.0 as float) end as f",
            "case when id % 59 = 0 then null when id % 61 = 0 then double('NaN')"
                + " when id % 67 = 0 then -0.0d when id % 71 = 0 then double('-Infinity')"
                + " when id % 73 = 0 then 4.9e-324d when id % 79 = 0 then double('Infinity')"
                + " else id * 0.37 - 1500.125 end as d",
            "case when id < " + rows / 2 + " then id % 5 else id * 7 end as fallback",
            "cast(case when id < " + rows / 2 + " then id % 3 else id * 1.5 end as double) as dfb",
            "cast(null as int) as nulls",
            "cast(id % 4 as int) as nonull");
  }

  /** Every codec, dictionary on and off, pages v1 and v2, default and tiny pages and row groups. */
  @Test
  void writerOptionMatrix() {
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (String codec : List.of("none", "snappy", "gzip", "zstd", "lz4", "lz4_raw")) {
      for (String dictionary : List.of("true", "false")) {
        for (String version : List.of("v1", "v2")) {
          for (boolean tiny : List.of(false, true)) {
            String path = dir("m" + n++);
            var writer =
                values(3000, 2)
                    .write()
                    .option("compression", codec)
                    .option("parquet.enable.dictionary", dictionary)
                    .option("parquet.writer.version", version);
            if (tiny) {
              writer =
                  writer
                      .option("parquet.block.size", "4096")
                      .option("parquet.page.size", "256")
                      .option("parquet.dictionary.page.size", "512")
                      .option("parquet.page.row.count.limit", "37")
                      .option("parquet.page.size.row.check.min", "1")
                      .option("parquet.block.size.row.check.min", "1");
            }
            writer.parquet(path);
            String label = codec + "/dict=" + dictionary + "/" + version + "/tiny=" + tiny;
            try {
              compare(label, s -> s.read().parquet(path));
              long byL0 =
                  compare(
                      label + " without ints",
                      s ->
                          s.read()
                              .schema("b boolean, bb boolean, f float, d double, dfb double")
                              .parquet(path));
              assertTrue(byL0 > 0, label + ": L0's reader read the files");
            } catch (AssertionError e) {
              failures.add(failure(label, e));
            }
          }
        }
      }
    }
    assertEquals(List.of(), failures);
  }

  /** A new folder of the test's temporary folder. */
  private static String dir(String name) {
    return folder.resolve(name).toString();
  }

  /** Booleans, empty and many files, schemas, column order, other types, paths, splits. */
  @Test
  void edgeCases() throws Exception {
    List<String> failures = new ArrayList<>();
    BiConsumer<String, Function<SparkSession, Dataset<Row>>> check = comparingInto(failures);
    for (String version : List.of("v1", "v2")) {
      for (long rows : List.of(1L, 7L, 8L, 9L, 4095L, 4096L, 4097L, 10000L)) {
        String path = dir("bool" + version + rows);
        spark
            .range(0, rows, 1, 1)
            .selectExpr(
                "id as k",
                "id % 3 = 0 as b",
                "true as t",
                "case when id % 9 = 4 then null else id % 2 = 0 end as bn",
                "case when id > 4094 then null else id < 4096 end as edge")
            .write()
            .option("parquet.writer.version", version)
            .parquet(path);
        check.accept("booleans " + version + " " + rows, s -> s.read().parquet(path));
      }
    }
    String empty = dir("empty");
    values(0, 1).write().parquet(empty);
    check.accept("empty", s -> s.read().parquet(empty));
    values(100, 1).write().mode("append").parquet(empty);
    check.accept("empty and not", s -> s.read().parquet(empty));
    String many = dir("many");
    values(1000, 60).write().parquet(many);
    check.accept("many small files", s -> s.read().parquet(many));
    String merged =
        twoSchemas(
            "merged",
            new String[] {"id as k", "cast(id as int) as x"},
            new String[] {"id as k", "id * 3 as x", "id % 2 = 0 as extra"});
    check.accept("merged schemas", s -> s.read().option("mergeSchema", "true").parquet(merged));
    String missing =
        twoSchemas(
            "missingcol",
            new String[] {"id as k", "id * 0.5d as x"},
            new String[] {"id as k", "id * 0.5d as x", "cast(id as float) as y"});
    check.accept(
        "a column missing from some files",
        s -> s.read().option("mergeSchema", "true").parquet(missing));
    check.accept(
        "user schema with a column no file has",
        s -> s.read().schema("k bigint, x double, zz int").parquet(missing));
    check.accept(
        "user schema widening", s -> s.read().schema("k bigint, x bigint").parquet(merged));
    String ordered = dir("ordered");
    values(2000, 2).write().parquet(ordered);
    check.accept(
        "columns in another order", s -> s.read().parquet(ordered).select("d", "l", "k", "b", "i"));
    check.accept(
        "user schema in another order",
        s -> s.read().schema("f float, k bigint, b boolean").parquet(ordered));
    check.accept(
        "case-insensitive user schema",
        s -> s.read().schema("F float, K bigint, B boolean").parquet(ordered));
    String typed = dir("typed");
    values(2000, 2)
        .selectExpr(
            "*",
            "cast(k as decimal(10,2)) as dec",
            "timestamp_seconds(k) as ts",
            "concat('s', k) as str",
            "array(k, k) as arr",
            "cast(k % 30000 as short) as sh",
            "cast(k % 100 as byte) as by",
            "date_add(date'2020-01-01', cast(k as int)) as dt")
        .write()
        .parquet(typed);
    check.accept("unsupported types carried", s -> s.read().parquet(typed));
    check.accept(
        "unsupported types in the file only",
        s -> s.read().parquet(typed).select("k", "d", "i", "b"));
    check.accept(
        "short and byte read as int",
        s -> s.read().schema("k bigint, sh int, by int").parquet(typed));
    spark.conf().set("spark.sql.parquet.outputTimestampType", "INT96");
    String int96 = dir("int96");
    values(500, 1).selectExpr("*", "timestamp_seconds(k) as ts").write().parquet(int96);
    spark.conf().unset("spark.sql.parquet.outputTimestampType");
    check.accept("int96 beside", s -> s.read().parquet(int96).drop("ts"));
    String odd = dir("odd name %20 #x y");
    values(500, 2).write().parquet(odd);
    check.accept("odd path", s -> s.read().parquet(odd));
    for (String version : List.of("v1", "v2")) {
      String intact = dir("intact" + version);
      values(3000, 2)
          .write()
          .option("parquet.writer.version", version)
          .option("compression", "gzip")
          .option("parquet.page.size", "1024")
          .parquet(intact);
      check.accept(
          "checksums verified on intact pages " + version,
          s -> s.read().option("parquet.page.verify-checksum.enabled", "true").parquet(intact));
    }
    String bss = dir("bss");
    values(1000, 1)
        .write()
        .option("parquet.enable.dictionary", "false")
        .option("parquet.column.byte.stream.split", "true")
        .option("parquet.bloom.filter.enabled", "true")
        .parquet(bss);
    check.accept("byte stream split and bloom filters", s -> s.read().parquet(bss));
    for (String batch : List.of("1", "7", "4097")) {
      spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", batch);
      check.accept("batch size " + batch, s -> s.read().parquet(ordered));
      spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
    }
    String parted = dir("parted");
    values(1000, 2).selectExpr("*", "k % 3 as p").write().partitionBy("p").parquet(parted);
    check.accept("partitioned", s -> s.read().parquet(parted));
    check.accept("partition folder read directly", s -> s.read().parquet(parted + "/p=1"));
    String big = dir("big");
    values(200_000, 1).write().option("parquet.block.size", "300000").parquet(big);
    spark.conf().set("spark.sql.files.maxPartitionBytes", "100000");
    check.accept("one file, many splits", s -> s.read().parquet(big));
    spark.conf().set("spark.sql.files.maxPartitionBytes", "4096");
    assertEquals(List.of(), failures);
  }

  /** The first data file of {@code dir}, its Hadoop checksum file deleted (so it can be broken). */
  private static java.io.File firstFile(String dir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> crcs = java.nio.file.Files.list(Path.of(dir))) {
      for (Path crc : crcs.filter(f -> f.toString().endsWith(".crc")).toList()) {
        java.nio.file.Files.delete(crc);
      }
    }
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of(dir))) {
      return files
          .filter(f -> f.toString().endsWith(".parquet"))
          .sorted()
          .findFirst()
          .orElseThrow()
          .toFile();
    }
  }

  /** Errors must be errors on both sides, L0's naming the file; rows must be equal. */
  static void compareBroken(String label, Function<SparkSession, Dataset<Row>> read, String file) {
    String expected = outcome(read, false);
    String actual = outcome(read, true);
    if (expected.startsWith("ERROR")) {
      assertTrue(actual.startsWith("ERROR"), label + ": " + actual);
      assertTrue(actual.contains(file), label + " names " + file + ": " + actual);
    } else {
      assertEquals(expected, actual, label);
    }
  }

  /** Truncated, overwritten, empty and non-Parquet files fail or are skipped as with Spark's. */
  @Test
  void brokenFiles() throws Exception {
    List<String> failures = new ArrayList<>();
    String[] kinds = {"truncated", "middle", "zero", "text", "tail"};
    for (String kind : kinds) {
      for (boolean ignore : List.of(false, true)) {
        String path = dir("broken-" + kind + ignore);
        values(3000, 3).write().parquet(path);
        java.io.File file = firstFile(path);
        byte[] bytes = java.nio.file.Files.readAllBytes(file.toPath());
        byte[] broken;
        switch (kind) {
          case "truncated":
            broken = java.util.Arrays.copyOf(bytes, bytes.length / 2);
            break;
          case "middle":
            broken = bytes.clone();
            java.util.Arrays.fill(broken, bytes.length / 3, bytes.length / 3 + 40, (byte) 0x5f);
            break;
          case "zero":
            broken = new byte[0];
            break;
          case "text":
            broken = "hello, not parquet at all".getBytes();
            break;
          default:
            broken = bytes.clone();
            broken[broken.length - 6] ^= 0x7f;
            break;
        }
        java.nio.file.Files.write(file.toPath(), broken);
        spark.conf().set("spark.sql.files.ignoreCorruptFiles", Boolean.toString(ignore));
        String label = kind + " ignoreCorrupt=" + ignore;
        try {
          compareBroken(
              label, s -> s.read().schema(values(1, 1).schema()).parquet(path), file.getName());
        } catch (AssertionError e) {
          failures.add(failure(label, e));
        } finally {
          spark.conf().unset("spark.sql.files.ignoreCorruptFiles");
        }
      }
    }
    assertEquals(List.of(), failures);
  }

  /**
   * With {@code parquet.page.verify-checksum.enabled}, Spark's reader checks each page's CRC and
   * fails on a corrupt page; L0's reader must not read the corrupt value silently.
   */
  @Test
  void aCorruptPageFailsItsChecksumWhenChecksumsAreVerified() throws Exception {
    String path = dir("checksummed");
    spark
        .range(0, 3000, 1, 1)
        .selectExpr("id as k", "id + 0.5d as d")
        .write()
        .option("compression", "none")
        .option("parquet.enable.dictionary", "false")
        .parquet(path);
    java.io.File file = firstFile(path);
    byte[] bytes = java.nio.file.Files.readAllBytes(file.toPath());
    byte[] value = new byte[8];
    java.nio.ByteBuffer.wrap(value).order(java.nio.ByteOrder.LITTLE_ENDIAN).putDouble(1000.5);
    int at = -1;
    for (int p = 0; p + 8 <= bytes.length && at < 0; p++) {
      if (java.util.Arrays.equals(bytes, p, p + 8, value, 0, 8)) {
        at = p;
      }
    }
    assertTrue(at > 0, "the value's bytes are in the file");
    bytes[at + 7] ^= 0x01;
    java.nio.file.Files.write(file.toPath(), bytes);
    compareBroken(
        "checksum verified",
        s -> s.read().option("parquet.page.verify-checksum.enabled", "true").parquet(path),
        file.getName());
  }

  /** All-null columns, long null runs, names with dots, spaces and accents, pages over 4 MiB. */
  @Test
  void nullRunsAndOddNames() {
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (String version : List.of("v1", "v2")) {
      for (String codec : List.of("none", "snappy", "zstd")) {
        for (String dictionary : List.of("true", "false")) {
          String path = dir("nullruns" + n++);
          spark
              .range(0, 5000, 1, 1)
              .selectExpr(
                  "id as k",
                  "cast(null as boolean) as nb",
                  "cast(null as int) as ni",
                  "cast(null as bigint) as nl",
                  "cast(null as float) as nf",
                  "cast(null as double) as nd",
                  "case when id < 2500 then null else id % 2 = 0 end as hb",
                  "case when id < 2500 then null else cast(id as int) end as hi",
                  "case when id >= 2500 then null else id * 0.5d end as hd",
                  "case when id % 1000 < 900 then null else cast(id as float) end as rf",
                  "id * 2 as `a.b`",
                  "id % 2 = 1 as `x y`",
                  "cast(id as int) as `ünï`")
              .write()
              .option("parquet.writer.version", version)
              .option("compression", codec)
              .option("parquet.enable.dictionary", dictionary)
              .option("parquet.page.row.count.limit", "100")
              .parquet(path);
          String label = "null runs " + version + "/" + codec + "/dict=" + dictionary;
          try {
            compare(label, s -> s.read().parquet(path));
          } catch (AssertionError e) {
            failures.add(failure(label, e));
          }
        }
      }
    }
    String big = dir("bigpages");
    spark
        .range(0, 1_200_000, 1, 1)
        .selectExpr("id as k", "id * 1.25d as d", "id % 3 = 0 as b", "id * 7 as l")
        .write()
        .option("compression", "none")
        .option("parquet.page.size", "33554432")
        .option("parquet.dictionary.page.size", "33554432")
        .option("parquet.block.size", "268435456")
        .parquet(big);
    spark.conf().set("spark.sql.files.maxPartitionBytes", "134217728");
    try {
      compare("big pages and dictionaries", s -> s.read().parquet(big));
    } catch (AssertionError e) {
      failures.add(failure("big pages", e));
    } finally {
      spark.conf().set("spark.sql.files.maxPartitionBytes", "4096");
    }
    assertEquals(List.of(), failures);
  }

  /**
   * The writer version by its enum name, names that differ in case, a batch spanning many row
   * groups, one file of one row group split across many tasks.
   */
  @Test
  void namesBatchesAndSplits() {
    List<String> failures = new ArrayList<>();
    BiConsumer<String, Function<SparkSession, Dataset<Row>>> check = comparingInto(failures);
    String v2 = dir("parquet20");
    values(3000, 2).write().option("parquet.writer.version", "PARQUET_2_0").parquet(v2);
    check.accept("PARQUET_2_0", s -> s.read().schema("b boolean, f float, d double").parquet(v2));
    String cased = dir("cased");
    spark.conf().set("spark.sql.caseSensitive", "true");
    spark.range(0, 500, 1, 1).selectExpr("id as k", "id * 2 as K").write().parquet(cased);
    check.accept("two columns differing in case, case-sensitive", s -> s.read().parquet(cased));
    check.accept(
        "a user schema in another case, case-sensitive",
        s -> s.read().schema("K bigint").parquet(v2));
    spark.conf().unset("spark.sql.caseSensitive");
    check.accept(
        "two columns differing in case, case-insensitive",
        s -> s.read().schema("k bigint").parquet(cased));
    String spanning = dir("spanning");
    values(200_000, 1)
        .write()
        .option("parquet.block.size", "65536")
        .option("parquet.block.size.row.check.min", "1")
        .parquet(spanning);
    spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", "65536");
    check.accept("a batch spanning row groups", s -> s.read().parquet(spanning));
    spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
    String single = dir("single");
    values(100_000, 1).coalesce(1).write().parquet(single);
    check.accept("one row group, many splits", s -> s.read().parquet(single));
    assertEquals(List.of(), failures);
  }

  /**
   * A folder of Parquet files whose rows 0-499 have the columns {@code first} selects and rows
   * 500-999 those {@code second} selects (files of two schemas, as appends over time write them).
   */
  private static String twoSchemas(String name, String[] first, String[] second) {
    String folder = dir(name);
    spark.range(0, 500, 1, 2).selectExpr(first).write().parquet(folder);
    spark.range(500, 1000, 1, 2).selectExpr(second).write().mode("append").parquet(folder);
    return folder;
  }
}
