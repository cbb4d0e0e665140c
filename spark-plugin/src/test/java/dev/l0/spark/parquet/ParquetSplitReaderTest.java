package dev.l0.spark.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks ParquetSplitReader against values this test generated and wrote with parquet-java (page v1
 * and v2, three codecs, dictionary on, off and falling back mid-chunk, nulls in runs, many pages
 * and row groups, odd batch sizes) and against Spark's own reader; checks that it declines the
 * files it cannot read as Spark would, that splits share out row groups, and that corrupt pages are
 * errors naming the file, column and row group.
 */
class ParquetSplitReaderTest {
  private static final Configuration CONF = new Configuration();
  private static final int ROWS = 30_000;
  private static final int[] BATCH_SIZES = {4096, 1000, 7};
  private static final PrimitiveTypeName[] TYPES = {
    PrimitiveTypeName.BOOLEAN,
    PrimitiveTypeName.INT32,
    PrimitiveTypeName.INT64,
    PrimitiveTypeName.FLOAT,
    PrimitiveTypeName.DOUBLE
  };

  @TempDir File dir;

  /** How the writer is told to use dictionaries. */
  enum Dictionary {
    OFF,
    ON,
    /** A dictionary page too small for the chunk's values: it falls back to PLAIN mid-chunk. */
    FALLS_BACK
  }

  /** A column of the written file with the values written into it (null for null). */
  private static final class Column {
    final String name;
    final PrimitiveTypeName type;
    final boolean optional;
    final Object[] values;

    Column(String name, PrimitiveTypeName type, boolean optional, Object[] values) {
      this.name = name;
      this.type = type;
      this.optional = optional;
      this.values = values;
    }

    String declaration() {
      return (optional ? "optional " : "required ") + type.name().toLowerCase() + " " + name + ";";
    }

    DataType sparkType() {
      switch (type) {
        case BOOLEAN:
          return DataTypes.BooleanType;
        case INT32:
          return DataTypes.IntegerType;
        case INT64:
          return DataTypes.LongType;
        case FLOAT:
          return DataTypes.FloatType;
        default:
          return DataTypes.DoubleType;
      }
    }
  }

  static Stream<Arguments> fileFormats() {
    List<Arguments> formats = new ArrayList<>();
    for (WriterVersion version : WriterVersion.values()) {
      for (CompressionCodecName codec :
          List.of(
              CompressionCodecName.UNCOMPRESSED,
              CompressionCodecName.SNAPPY,
              CompressionCodecName.GZIP)) {
        for (Dictionary dictionary : Dictionary.values()) {
          formats.add(Arguments.of(version, codec, dictionary));
        }
      }
    }
    return formats.stream();
  }

  @ParameterizedTest
  @MethodSource("fileFormats")
  void readsBackEveryValueBitForBit(
      WriterVersion version, CompressionCodecName codec, Dictionary dictionary) throws IOException {
    List<Column> columns =
        generateColumns(new Random(version.ordinal() * 31L + codec.ordinal()), dictionary);
    File file = write(columns, version, codec, dictionary);
    ParquetMetadata footer = footer(file);
    assertTrue(footer.getBlocks().size() >= 3, "row groups: " + footer.getBlocks().size());
    if (dictionary == Dictionary.FALLS_BACK) {
      assertTrue(
          someChunkMixesDictionaryAndPlainPages(footer, "double_required"),
          "no chunk falls back from dictionary to plain");
    }
    // The v2 writer encodes ints DELTA_BINARY_PACKED when they are not dictionary encoded.
    boolean intsAreDelta = version == WriterVersion.PARQUET_2_0 && dictionary != Dictionary.ON;
    List<Column> readable = new ArrayList<>();
    for (Column column : columns) {
      boolean isInt =
          column.type == PrimitiveTypeName.INT32 || column.type == PrimitiveTypeName.INT64;
      if (intsAreDelta && isInt) {
        assertTrue(open(file, schemaOf(List.of(column)), true).isEmpty(), column.name);
      } else {
        readable.add(column);
      }
    }
    for (int batch : BATCH_SIZES) {
      try (ParquetSplitReader reader = open(file, schemaOf(readable), true).orElseThrow()) {
        assertEquals(ROWS, readAll(reader, readable, batch, 0));
      }
    }
  }

  /**
   * A column chunk of several windows ({@link ColumnChunkDecoder#WINDOW_BYTES}): uncompressed pages
   * of a size that does not divide the window straddle its refills (required longs), beside a chunk
   * of one window (optional doubles, mostly null).
   */
  @Test
  void chunksLargerThanTheReadWindowReadBackBitForBit() throws IOException {
    int rows = 1_200_000;
    List<Column> columns =
        List.of(
            new Column(
                "x",
                PrimitiveTypeName.DOUBLE,
                true,
                randomValues(new Random(5), PrimitiveTypeName.DOUBLE, true, rows, Dictionary.OFF)),
            new Column(
                "n",
                PrimitiveTypeName.INT64,
                false,
                randomValues(new Random(6), PrimitiveTypeName.INT64, false, rows, Dictionary.OFF)));
    File file = new File(dir, "large-chunks.parquet");
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { "
                + columns.get(0).declaration()
                + " "
                + columns.get(1).declaration()
                + " }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        writerBuilder(file, schema)
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withDictionaryEncoding(false)
            .withPageSize(300_001)
            .withRowGroupSize(256L << 20)
            .build()) {
      for (int row = 0; row < rows; row++) {
        Group group = groups.newGroup();
        if (columns.get(0).values[row] != null) {
          group.append("x", (Double) columns.get(0).values[row]);
        }
        group.append("n", (Long) columns.get(1).values[row]);
        writer.write(group);
      }
    }
    ColumnChunkMetaData longs = footer(file).getBlocks().get(0).getColumns().get(1);
    assertTrue(
        longs.getTotalSize() > 2L * ColumnChunkDecoder.WINDOW_BYTES,
        "a chunk of " + longs.getTotalSize() + " bytes");
    try (ParquetSplitReader reader = open(file, schemaOf(columns), true).orElseThrow()) {
      assertEquals(rows, readAll(reader, columns, 4096, 0));
    }
  }

  @Test
  void twoSplitsReadEveryRowGroupOnce() throws IOException {
    List<Column> columns = generateColumns(new Random(7), Dictionary.ON);
    File file =
        write(columns, WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, Dictionary.ON);
    assertTrue(footer(file).getBlocks().size() >= 3);
    long half = file.length() / 2;
    StructType schema = schemaOf(columns);
    try (ParquetSplitReader first = open(file, 0, half, schema).orElseThrow();
        ParquetSplitReader second = open(file, half, file.length() - half, schema).orElseThrow()) {
      int firstRows = readAll(first, columns, 1000, 0);
      int secondRows = readAll(second, columns, 1000, firstRows);
      assertTrue(firstRows > 0 && secondRows > 0, firstRows + " and " + secondRows);
      assertEquals(ROWS, firstRows + secondRows);
    }
    try (ParquetSplitReader noColumns =
        open(file, 0, file.length(), new StructType()).orElseThrow()) {
      int rows = 0;
      for (int n = noColumns.read(new OnHeapColumnVector[0], 4096);
          n > 0;
          n = noColumns.read(new OnHeapColumnVector[0], 4096)) {
        rows += n;
      }
      assertEquals(ROWS, rows);
    }
    try (ParquetSplitReader noMidpoint = open(file, 0, 1, schema).orElseThrow()) {
      assertEquals(0, noMidpoint.read(vectors(schema, 10), 10));
    }
  }

  @Test
  void declinesWhatItCannotReadAsSparkWould() throws IOException {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required int32 i; required int32 d (DATE); required int32 u (INTEGER(32,false));"
                + " required int64 ts (TIMESTAMP(MILLIS,true)); optional group g { required int32 x; }"
                + " repeated int32 r; required int32 a; required int32 A; required double Mixed; }");
    File file = new File(dir, "kinds.parquet");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer = writerBuilder(file, schema).build()) {
      for (int row = 0; row < 3; row++) {
        Group group = groups.newGroup();
        group.append("i", row).append("d", row).append("u", row).append("ts", (long) row);
        group.addGroup("g").append("x", row);
        group.append("r", row).append("r", row + 1).append("a", row).append("A", -row);
        group.append("Mixed", row + 0.5);
        writer.write(group);
      }
    }
    assertDeclined(file, "nope", DataTypes.IntegerType, true);
    assertDeclined(file, "d", DataTypes.IntegerType, true);
    assertDeclined(file, "u", DataTypes.IntegerType, true);
    assertDeclined(file, "ts", DataTypes.LongType, true);
    assertDeclined(file, "g", DataTypes.IntegerType, true);
    assertDeclined(file, "g", new StructType().add("x", DataTypes.IntegerType), true);
    assertDeclined(file, "r", DataTypes.IntegerType, true);
    assertDeclined(file, "a", DataTypes.IntegerType, false);
    assertDeclined(file, "i", DataTypes.LongType, true);
    assertDeclined(file, "i", DataTypes.StringType, true);
    assertDeclined(file, "mixed", DataTypes.DoubleType, true);
    // Spark compares names in Locale.ROOT lower case, where the long s is not an s.
    assertDeclined(file, "\u017Fixed", DataTypes.DoubleType, false);

    assertEquals(List.of(0, 1, 2), readInts(file, "i", true));
    assertEquals(List.of(0, 1, 2), readInts(file, "a", true));
    assertEquals(List.of(0, -1, -2), readInts(file, "A", true));
    StructType mixed = new StructType().add("mixed", DataTypes.DoubleType);
    try (ParquetSplitReader reader = open(file, mixed, false).orElseThrow()) {
      OnHeapColumnVector[] vectors = vectors(mixed, 10);
      assertEquals(3, reader.read(vectors, 10));
      assertEquals(2.5, vectors[0].getDouble(2));
    }
  }

  @Test
  void declinesDeltaBinaryPackedInts() throws IOException {
    Column ints =
        new Column(
            "i",
            PrimitiveTypeName.INT32,
            false,
            randomValues(new Random(3), PrimitiveTypeName.INT32, false, ROWS, Dictionary.OFF));
    File file =
        write(
            List.of(ints),
            WriterVersion.PARQUET_2_0,
            CompressionCodecName.UNCOMPRESSED,
            Dictionary.OFF);
    assertTrue(
        footer(file)
            .getBlocks()
            .get(0)
            .getColumns()
            .get(0)
            .getEncodings()
            .contains(Encoding.DELTA_BINARY_PACKED));
    assertTrue(open(file, schemaOf(List.of(ints)), true).isEmpty());
  }

  /**
   * An optional column's chunk of v1 pages (no page statistics saying otherwise) without RLE among
   * its encodings has its definition levels in the deprecated BIT_PACKED encoding: declined
   * (Spark's reader reads it); with RLE, read. (Files of v2 pages without RLE listed are read:
   * {@link #readsBackEveryValueBitForBit}.)
   */
  @Test
  void declinesDefinitionLevelsOfTheDeprecatedBitPackedEncoding() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.OFF);
    ColumnChunkMetaData written = chunk(file, 0);
    String name = written.getPath().toDotString();
    BlockMetaData bitPacked = rowGroupListing(written, Set.of(Encoding.BIT_PACKED, Encoding.PLAIN));
    assertTrue(ParquetSplitReader.readableChunk(bitPacked, name, true).isEmpty());
    assertTrue(ParquetSplitReader.readableChunk(bitPacked, name, false).isPresent());
    BlockMetaData withRle =
        rowGroupListing(written, Set.of(Encoding.BIT_PACKED, Encoding.RLE, Encoding.PLAIN));
    assertTrue(ParquetSplitReader.readableChunk(withRle, name, true).isPresent());
  }

  /**
   * A row group of one chunk, {@code written} but with {@code encodings} and no page statistics.
   */
  private static BlockMetaData rowGroupListing(
      ColumnChunkMetaData written, Set<Encoding> encodings) {
    BlockMetaData rowGroup = new BlockMetaData();
    rowGroup.addColumn(
        ColumnChunkMetaData.get(
            written.getPath(),
            written.getPrimitiveType(),
            written.getCodec(),
            null,
            encodings,
            written.getStatistics(),
            written.getFirstDataPageOffset(),
            written.getDictionaryPageOffset(),
            written.getValueCount(),
            written.getTotalSize(),
            written.getTotalUncompressedSize()));
    return rowGroup;
  }

  /**
   * A page of no bytes (a v2 page of only nulls, marked compressed with an empty body by writers
   * before the fix of apache/parquet-java#3122) decompresses to nothing with any codec, as
   * parquet-java reads it; Snappy itself rejects an empty input.
   */
  @Test
  void anEmptyPageDecompressesToNothingWithAnyCodec() throws IOException {
    byte[] target = new byte[8];
    try (PageDecompressor decompressor = new PageDecompressor(CONF)) {
      for (CompressionCodecName codec :
          new CompressionCodecName[] {CompressionCodecName.SNAPPY, CompressionCodecName.GZIP}) {
        assertSame(target, decompressor.decompress(codec, new byte[0], 0, 0, 0, target));
      }
    }
    assertThrows(
        IOException.class, () -> org.xerial.snappy.Snappy.uncompressedLength(new byte[0], 0, 0));
  }

  /**
   * A footer that under-reports a chunk's size by a few bytes of its last page (early parquet-mr
   * writers): the decoder reads on past the chunk's end, as parquet-java does, and every value
   * comes back.
   */
  @Test
  void aChunkWhoseSizeIsUnderReportedIsReadOnPastItsEnd() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.OFF);
    ColumnChunkMetaData written = chunk(file, 0);
    ColumnChunkMetaData shortened =
        ColumnChunkMetaData.get(
            written.getPath(),
            written.getPrimitiveType(),
            written.getCodec(),
            written.getEncodingStats(),
            written.getEncodings(),
            written.getStatistics(),
            written.getFirstDataPageOffset(),
            written.getDictionaryPageOffset(),
            written.getValueCount(),
            written.getTotalSize() - 3,
            written.getTotalUncompressedSize());
    int rows = (int) footer(file).getBlocks().get(0).getRowCount();
    OnHeapColumnVector vector = new OnHeapColumnVector(rows, DataTypes.DoubleType);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toURI());
    try (PageDecompressor decompressor = new PageDecompressor(CONF);
        org.apache.hadoop.fs.FSDataInputStream input = path.getFileSystem(CONF).open(path)) {
      ColumnChunkDecoder decoder =
          new ColumnChunkDecoder(
              file.toString(),
              file.length(),
              "x",
              PrimitiveTypeName.DOUBLE,
              true,
              false,
              decompressor);
      decoder.startChunk(input, shortened, 0, rows);
      decoder.read(vector, 0, rows);
    }
    Column doubles = doubleColumn(Dictionary.OFF);
    for (int row = 0; row < rows; row++) {
      checkValue(doubles, row, vector, row, rows);
    }
  }

  @Test
  void badPageHeaderIsAnErrorNamingFileColumnAndRowGroup() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.OFF);
    long chunkStart = chunk(file, 1).getStartingPos();
    byte[] bytes = Files.readAllBytes(file.toPath());
    Arrays.fill(bytes, (int) chunkStart, (int) chunkStart + 8, (byte) 0xff);
    overwrite(file, bytes);
    assertCorruptionReported(file, 1, "bad page header");
  }

  @Test
  void pageOfTheWrongDecompressedSizeIsAnError() throws IOException {
    File file = writeDoubles(CompressionCodecName.SNAPPY, Dictionary.OFF);
    long chunkStart = chunk(file, 1).getStartingPos();
    byte[] bytes = Files.readAllBytes(file.toPath());
    ByteArrayInputStream in =
        new ByteArrayInputStream(bytes, (int) chunkStart, bytes.length - (int) chunkStart);
    Util.readPageHeader(in);
    int body = bytes.length - in.available();
    bytes[body] ^= 0x01; // the low bits of Snappy's uncompressed length
    overwrite(file, bytes);
    assertCorruptionReported(file, 1, "decompresses to");
  }

  /**
   * An uncompressed page whose header overstates its uncompressed size: parquet-java (Spark's
   * reader) takes the stored bytes as they are, and so does this reader, every value coming back.
   */
  @Test
  void anUncompressedPageIsReadAsStoredWhateverItsHeaderSaysItsSizeIs() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.OFF);
    rewriteFirstPageHeader(
        file,
        0,
        header -> header.setUncompressed_page_size(header.getUncompressed_page_size() + 1));
    List<Column> x = List.of(doubleColumn(Dictionary.OFF));
    try (ParquetSplitReader reader = open(file, schemaOf(x), true).orElseThrow()) {
      assertEquals(ROWS, readAll(reader, x, 1000, 0));
    }
  }

  /**
   * A corrupt header whose page claims far more bytes than the file holds is an error naming the
   * page, before any memory is taken for the page (it was a 2 GB array: an OutOfMemoryError that
   * kills the executor, which no {@code ignoreCorruptFiles} skips).
   */
  @Test
  void aPageClaimingMoreBytesThanTheFileHoldsIsAnError() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.OFF);
    rewriteFirstPageHeader(file, 1, header -> header.setCompressed_page_size(0x7ff00000));
    assertCorruptionReported(file, 1, "past the file's end");
  }

  @Test
  void dictionaryIndexOutOfRangeIsAnError() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.ON);
    rewriteFirstPageHeader(file, 0, header -> header.getDictionary_page_header().setNum_values(1));
    assertCorruptionReported(file, 0, "out of range");
  }

  @Test
  void dataPageUsingAMissingDictionaryIsAnError() throws IOException {
    File file = writeDoubles(CompressionCodecName.UNCOMPRESSED, Dictionary.ON);
    rewriteFirstPageHeader(file, 0, header -> header.setType(PageType.INDEX_PAGE));
    assertCorruptionReported(file, 0, "before any dictionary page");
  }

  @Test
  void readsWhatSparkReadsFromAFileSparkWrote() throws IOException {
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .appName(getClass().getSimpleName())
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    try {
      String out = new File(dir, "spark").getPath();
      spark
          .range(0, 40_000, 1, 2)
          .selectExpr(
              "id",
              "rand(1) * 1e6 - 5e5 as d",
              "cast(rand(2) * 1000 as int) as i",
              "cast(rand(3) as float) as f",
              "rand(4) < 0.5 as b",
              "case when rand(5) < 0.2 then null else rand(6) end as nd",
              "case when rand(7) < 0.3 then null else id % 7 end as nl",
              "case when rand(8) < 0.1 then null else rand(9) < 0.3 end as nb")
          .write()
          .option("parquet.block.size", 64 * 1024)
          .option("parquet.page.size", 4096)
          .parquet(out);
      File[] parts = new File(out).listFiles((d, name) -> name.endsWith(".parquet"));
      assertEquals(2, parts.length);
      Configuration conf = spark.sparkContext().hadoopConfiguration();
      for (File part : parts) {
        assertTrue(footer(part).getBlocks().size() >= 2, part + " has one row group");
        var frame = spark.read().parquet(part.getPath());
        StructType schema = frame.schema();
        List<Row> expected = frame.collectAsList();
        List<Row> actual = new ArrayList<>();
        try (ParquetSplitReader reader =
            ParquetSplitReader.open(conf, part.toURI().toString(), 0, part.length(), schema, false)
                .orElseThrow()) {
          OnHeapColumnVector[] vectors = vectors(schema, 1000);
          for (int n = reader.read(vectors, 1000); n > 0; n = reader.read(vectors, 1000)) {
            for (int row = 0; row < n; row++) {
              actual.add(rowOf(vectors, row));
            }
            resetAll(vectors);
          }
        }
        assertEquals(expected.size(), actual.size());
        for (int row = 0; row < expected.size(); row++) {
          assertEquals(expected.get(row), actual.get(row), part + " row " + row);
        }
      }
    } finally {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
  }

  private static Row rowOf(OnHeapColumnVector[] vectors, int row) {
    Object[] values = new Object[vectors.length];
    for (int c = 0; c < vectors.length; c++) {
      values[c] = valueAt(vectors[c], row);
    }
    return org.apache.spark.sql.RowFactory.create(values);
  }

  private static Object valueAt(OnHeapColumnVector vector, int row) {
    if (vector.isNullAt(row)) {
      return null;
    }
    DataType type = vector.dataType();
    if (type.equals(DataTypes.BooleanType)) {
      return vector.getBoolean(row);
    } else if (type.equals(DataTypes.IntegerType)) {
      return vector.getInt(row);
    } else if (type.equals(DataTypes.LongType)) {
      return vector.getLong(row);
    } else if (type.equals(DataTypes.FloatType)) {
      return vector.getFloat(row);
    }
    return vector.getDouble(row);
  }

  // ---- writing ----

  private List<Column> generateColumns(Random random, Dictionary dictionary) {
    List<Column> columns = new ArrayList<>();
    for (PrimitiveTypeName type : TYPES) {
      for (boolean optional : new boolean[] {false, true}) {
        String name = type.name().toLowerCase() + (optional ? "_optional" : "_required");
        columns.add(
            new Column(
                name, type, optional, randomValues(random, type, optional, ROWS, dictionary)));
      }
    }
    return columns;
  }

  /**
   * Values of {@code type} with the special values of the type among them; nulls (when {@code
   * optional}) at random places and in runs up to a few pages long. With the dictionary on, few
   * distinct values; falling back, the number of distinct values grows with the row.
   */
  private static Object[] randomValues(
      Random random, PrimitiveTypeName type, boolean optional, int rows, Dictionary dictionary) {
    Object[] pool = new Object[dictionary == Dictionary.ON ? 50 : 5000];
    for (int k = 0; k < pool.length; k++) {
      pool[k] = randomValue(random, type, k);
    }
    Object[] values = new Object[rows];
    int nullRun = 0;
    for (int row = 0; row < rows; row++) {
      if (optional && nullRun > 0) {
        nullRun--;
        continue;
      }
      int draw = random.nextInt(100);
      if (optional && draw < 2) {
        nullRun = random.nextInt(600);
        continue;
      }
      if (optional && draw < 15) {
        continue;
      }
      if (dictionary == Dictionary.OFF) {
        values[row] = randomValue(random, type, random.nextInt(200));
      } else {
        int distinct =
            dictionary == Dictionary.ON ? pool.length : Math.min(pool.length, 8 + row / 16);
        values[row] = pool[random.nextInt(distinct)];
      }
    }
    return values;
  }

  /** The {@code k}th special value of {@code type} for small k, else a random one. */
  private static Object randomValue(Random random, PrimitiveTypeName type, int k) {
    switch (type) {
      case BOOLEAN:
        return random.nextBoolean();
      case INT32:
        int[] ints = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1};
        return k < ints.length ? ints[k] : random.nextInt();
      case INT64:
        long[] longs = {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L};
        return k < longs.length ? longs[k] : random.nextLong();
      case FLOAT:
        float[] floats = {
          Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE
        };
        if (k < floats.length) {
          return floats[k];
        }
        float f = Float.intBitsToFloat(random.nextInt());
        return Float.isNaN(f) ? Float.NaN : f;
      default:
        double[] doubles = {
          Double.NaN,
          -0.0,
          0.0,
          Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY,
          Double.MIN_VALUE
        };
        if (k < doubles.length) {
          return doubles[k];
        }
        double d = Double.longBitsToDouble(random.nextLong());
        return Double.isNaN(d) ? Double.NaN : d;
    }
  }

  private File write(
      List<Column> columns,
      WriterVersion version,
      CompressionCodecName codec,
      Dictionary dictionary)
      throws IOException {
    StringBuilder declarations = new StringBuilder("message m {");
    for (Column column : columns) {
      declarations.append(' ').append(column.declaration());
    }
    MessageType schema = MessageTypeParser.parseMessageType(declarations.append(" }").toString());
    File file = new File(dir, version + "-" + codec + "-" + dictionary + ".parquet");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        writerBuilder(file, schema)
            .withWriterVersion(version)
            .withCompressionCodec(codec)
            .withDictionaryEncoding(dictionary != Dictionary.OFF)
            .withDictionaryPageSize(dictionary == Dictionary.FALLS_BACK ? 1000 : 1 << 20)
            .withPageSize(2048)
            .withRowGroupSize(16L * 1024)
            .build()) {
      for (int row = 0; row < columns.get(0).values.length; row++) {
        Group group = groups.newGroup();
        for (Column column : columns) {
          Object value = column.values[row];
          if (value instanceof Boolean) {
            group.append(column.name, (Boolean) value);
          } else if (value instanceof Integer) {
            group.append(column.name, (Integer) value);
          } else if (value instanceof Long) {
            group.append(column.name, (Long) value);
          } else if (value instanceof Float) {
            group.append(column.name, (Float) value);
          } else if (value instanceof Double) {
            group.append(column.name, (Double) value);
          }
        }
        writer.write(group);
      }
    }
    return file;
  }

  private File writeDoubles(CompressionCodecName codec, Dictionary dictionary) throws IOException {
    return write(List.of(doubleColumn(dictionary)), WriterVersion.PARQUET_1_0, codec, dictionary);
  }

  /** The optional double column {@code x} that {@link #writeDoubles} writes. */
  private static Column doubleColumn(Dictionary dictionary) {
    return new Column(
        "x",
        PrimitiveTypeName.DOUBLE,
        true,
        randomValues(new Random(11), PrimitiveTypeName.DOUBLE, true, ROWS, dictionary));
  }

  private static ExampleParquetWriter.Builder writerBuilder(File file, MessageType schema) {
    return ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toURI()))
        .withConf(CONF)
        .withType(schema)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE);
  }

  // ---- reading ----

  private static Optional<ParquetSplitReader> open(
      File file, StructType schema, boolean caseSensitive) throws IOException {
    return ParquetSplitReader.open(
        CONF, file.toURI().toString(), 0, file.length(), schema, caseSensitive);
  }

  private static Optional<ParquetSplitReader> open(
      File file, long start, long length, StructType schema) throws IOException {
    return ParquetSplitReader.open(CONF, file.toURI().toString(), start, length, schema, true);
  }

  private static StructType schemaOf(List<Column> columns) {
    StructType schema = new StructType();
    for (Column column : columns) {
      schema =
          schema.add(
              new StructField(
                  column.name,
                  column.sparkType(),
                  column.optional,
                  org.apache.spark.sql.types.Metadata.empty()));
    }
    return schema;
  }

  private static OnHeapColumnVector[] vectors(StructType schema, int capacity) {
    OnHeapColumnVector[] vectors = new OnHeapColumnVector[schema.fields().length];
    for (int c = 0; c < vectors.length; c++) {
      vectors[c] = new OnHeapColumnVector(capacity, schema.fields()[c].dataType());
    }
    return vectors;
  }

  private static void resetAll(OnHeapColumnVector[] vectors) {
    for (OnHeapColumnVector vector : vectors) {
      vector.reset();
    }
  }

  /**
   * Reads {@code reader} to its end in batches of {@code batch} rows, checking every value against
   * {@code columns}' values from row {@code firstRow} on and that every batch but the last is full;
   * returns the rows read.
   */
  private static int readAll(
      ParquetSplitReader reader, List<Column> columns, int batch, int firstRow) throws IOException {
    OnHeapColumnVector[] vectors = vectors(schemaOf(columns), batch);
    int read = 0;
    boolean lastBatchSeen = false;
    for (int n = reader.read(vectors, batch); n > 0; n = reader.read(vectors, batch)) {
      assertFalse(lastBatchSeen, "a batch of fewer than " + batch + " rows came before the end");
      lastBatchSeen = n < batch;
      for (int c = 0; c < columns.size(); c++) {
        for (int row = 0; row < n; row++) {
          checkValue(columns.get(c), firstRow + read + row, vectors[c], row, batch);
        }
      }
      read += n;
      resetAll(vectors);
    }
    return read;
  }

  private static void checkValue(
      Column column, int fileRow, OnHeapColumnVector vector, int row, int batch) {
    Object expected = column.values[fileRow];
    Object actual = valueAt(vector, row);
    boolean same;
    if (expected instanceof Double && actual instanceof Double) {
      same =
          Double.doubleToRawLongBits((Double) expected)
              == Double.doubleToRawLongBits((Double) actual);
    } else if (expected instanceof Float && actual instanceof Float) {
      same = Float.floatToRawIntBits((Float) expected) == Float.floatToRawIntBits((Float) actual);
    } else {
      same = expected == null ? actual == null : expected.equals(actual);
    }
    if (!same) {
      fail(
          column.name
              + " row "
              + fileRow
              + " (batch size "
              + batch
              + "): expected "
              + expected
              + ", read "
              + actual);
    }
  }

  private static List<Integer> readInts(File file, String name, boolean caseSensitive)
      throws IOException {
    StructType schema = new StructType().add(name, DataTypes.IntegerType);
    try (ParquetSplitReader reader = open(file, schema, caseSensitive).orElseThrow()) {
      OnHeapColumnVector[] vectors = vectors(schema, 10);
      int n = reader.read(vectors, 10);
      List<Integer> values = new ArrayList<>();
      for (int row = 0; row < n; row++) {
        values.add(vectors[0].getInt(row));
      }
      return values;
    }
  }

  private static void assertDeclined(File file, String name, DataType type, boolean caseSensitive)
      throws IOException {
    Optional<ParquetSplitReader> reader =
        open(file, new StructType().add(name, type), caseSensitive);
    reader.ifPresent(r -> fail(name + " as " + type + " was not declined"));
  }

  /**
   * Reading {@code file}'s column x to the end throws, naming file, column and row group {@code
   * rowGroup}, and saying {@code what}.
   */
  private static void assertCorruptionReported(File file, int rowGroup, String what)
      throws IOException {
    List<Column> x = List.of(new Column("x", PrimitiveTypeName.DOUBLE, true, null));
    StructType schema = schemaOf(x);
    try (ParquetSplitReader reader = open(file, schema, true).orElseThrow()) {
      OnHeapColumnVector[] vectors = vectors(schema, 1000);
      IOException error =
          assertThrows(
              IOException.class,
              () -> {
                while (reader.read(vectors, 1000) > 0) {
                  resetAll(vectors);
                }
              });
      String message = error.getMessage();
      assertTrue(message.contains(file.toURI().toString()), message);
      assertTrue(message.contains("column x, row group " + rowGroup + ":"), message);
      assertTrue(message.contains(what), message);
    }
  }

  // ---- footers and corruption ----

  private static ParquetMetadata footer(File file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toURI()), CONF))) {
      return reader.getFooter();
    }
  }

  private static ColumnChunkMetaData chunk(File file, int rowGroup) throws IOException {
    return footer(file).getBlocks().get(rowGroup).getColumns().get(0);
  }

  private static boolean someChunkMixesDictionaryAndPlainPages(
      ParquetMetadata footer, String column) {
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (chunk.getPath().toDotString().equals(column)
            && chunk.getEncodingStats().hasDictionaryEncodedPages()
            && chunk.getEncodingStats().hasNonDictionaryEncodedPages()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Changes the header of the first page of {@code rowGroup}'s first chunk; a header that grows
   * overwrites the first bytes of the page's body.
   */
  private static void rewriteFirstPageHeader(File file, int rowGroup, Consumer<PageHeader> change)
      throws IOException {
    int chunkStart = (int) chunk(file, rowGroup).getStartingPos();
    byte[] bytes = Files.readAllBytes(file.toPath());
    ByteArrayInputStream in =
        new ByteArrayInputStream(bytes, chunkStart, bytes.length - chunkStart);
    PageHeader header = Util.readPageHeader(in);
    int headerLength = bytes.length - in.available() - chunkStart;
    change.accept(header);
    ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
    Util.writePageHeader(header, rewritten);
    assertTrue(rewritten.size() >= headerLength, "the rewritten header is not shorter");
    System.arraycopy(rewritten.toByteArray(), 0, bytes, chunkStart, rewritten.size());
    overwrite(file, bytes);
  }

  /**
   * Replaces {@code file}'s bytes and drops the local file system's checksum file beside it, as if
   * the corruption had happened where no such checksum exists.
   */
  private static void overwrite(File file, byte[] bytes) throws IOException {
    Files.write(file.toPath(), bytes);
    Files.deleteIfExists(new File(file.getParentFile(), "." + file.getName() + ".crc").toPath());
  }
}
