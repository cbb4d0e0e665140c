package dev.l0.spark.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the flat primitive columns of one split of a Parquet file into Spark's on-heap column
 * vectors, batch by batch, across the split's row groups; {@link #open} declines (returns empty)
 * any file it cannot read exactly as Spark's own reader would, judging from the footer alone.
 */
public final class ParquetSplitReader implements Closeable {
  private static final Set<Encoding> DECODED_ENCODINGS =
      EnumSet.of(
          Encoding.PLAIN,
          Encoding.PLAIN_DICTIONARY,
          Encoding.RLE_DICTIONARY,
          Encoding.RLE,
          Encoding.BIT_PACKED);

  private final FSDataInputStream input;
  private final PageDecompressor decompressor;
  private final List<BlockMetaData> rowGroups;
  private final ColumnChunkMetaData[][] chunks;
  private final ColumnChunkDecoder[] columns;
  private int nextRowGroup;
  private long rowsLeftInRowGroup;

  private ParquetSplitReader(
      FSDataInputStream input,
      PageDecompressor decompressor,
      List<BlockMetaData> rowGroups,
      ColumnChunkMetaData[][] chunks,
      ColumnChunkDecoder[] columns) {
    this.input = input;
    this.decompressor = decompressor;
    this.rowGroups = rowGroups;
    this.chunks = chunks;
    this.columns = columns;
  }

  /**
   * Opens the row groups of the Parquet file at {@code path} (a Hadoop path string, e.g. {@code
   * file:/tmp/x.parquet}) that belong to the split [start, start + length) (a row group belongs to
   * the split whose range holds its midpoint, as parquet-java's {@code
   * ParquetReadOptions.withRange} and Spark decide), for reading the columns of {@code
   * requiredSchema} (top-level fields, matched to the file's columns by name, exactly when {@code
   * caseSensitive}, else in lower case ({@code Locale.ROOT}, as Spark matches them)).
   *
   * <p>Returns empty when this reader cannot read the file exactly as Spark would, decided from the
   * footer alone before reading any row: a requested field absent from the file, or matching more
   * than one column in lower case, or nested/repeated; a Spark type other than BooleanType,
   * IntegerType, LongType, FloatType, DoubleType; a Parquet type that is not the plain counterpart
   * (BOOLEAN, INT32 without a logical type annotation or annotated INT(32, signed), INT64 likewise
   * INT(64, signed), FLOAT, DOUBLE); an encrypted column chunk; an encoding in a chunk's encodings
   * other than PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY, RLE, BIT_PACKED; a max definition level
   * above 1 or any repetition level; a native byte order that is not little-endian.
   *
   * <p>Where {@code conf} sets {@code parquet.page.verify-checksum.enabled}, every page that
   * carries a CRC is checked against it before it is decoded, as Spark's reader checks it.
   */
  public static Optional<ParquetSplitReader> open(
      Configuration conf,
      String path,
      long start,
      long length,
      StructType requiredSchema,
      boolean caseSensitive)
      throws IOException {
    if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      return Optional.empty();
    }
    Path file = new Path(path);
    ParquetMetadata footer;
    List<BlockMetaData> rowGroups;
    ParquetReadOptions options =
        HadoopReadOptions.builder(conf, file).withRange(start, start + length).build();
    HadoopInputFile inputFile = HadoopInputFile.fromPath(file, conf);
    try (ParquetFileReader reader = ParquetFileReader.open(inputFile, options)) {
      footer = reader.getFooter();
      rowGroups = new ArrayList<>(reader.getRowGroups());
    }
    MessageType fileSchema = footer.getFileMetaData().getSchema();
    StructField[] fields = requiredSchema.fields();
    List<PrimitiveType> fileColumns = new ArrayList<>();
    for (StructField field : fields) {
      Optional<PrimitiveType> column = readableColumn(fileSchema, field, caseSensitive);
      if (column.isEmpty()) {
        return Optional.empty();
      }
      fileColumns.add(column.get());
    }
    ColumnChunkMetaData[][] chunks = new ColumnChunkMetaData[rowGroups.size()][fields.length];
    for (int g = 0; g < rowGroups.size(); g++) {
      for (int c = 0; c < fields.length; c++) {
        Optional<ColumnChunkMetaData> chunk =
            readableChunk(
                rowGroups.get(g),
                fileColumns.get(c).getName(),
                fileColumns.get(c).getRepetition() == Type.Repetition.OPTIONAL);
        if (chunk.isEmpty()) {
          return Optional.empty();
        }
        chunks[g][c] = chunk.get();
      }
    }
    PageDecompressor decompressor = new PageDecompressor(conf);
    ColumnChunkDecoder[] columns = new ColumnChunkDecoder[fields.length];
    for (int c = 0; c < fields.length; c++) {
      PrimitiveType column = fileColumns.get(c);
      columns[c] =
          new ColumnChunkDecoder(
              path,
              inputFile.getLength(),
              column.getName(),
              column.getPrimitiveTypeName(),
              column.getRepetition() == Type.Repetition.OPTIONAL,
              options.usePageChecksumVerification(),
              decompressor);
    }
    FSDataInputStream input = file.getFileSystem(conf).open(file);
    return Optional.of(new ParquetSplitReader(input, decompressor, rowGroups, chunks, columns));
  }

  /**
   * The file's top-level column that {@code field} names, when it is one this reader decodes into
   * {@code field}'s Spark type exactly as Spark would.
   */
  private static Optional<PrimitiveType> readableColumn(
      MessageType fileSchema, StructField field, boolean caseSensitive) {
    List<Type> matches = new ArrayList<>();
    for (Type candidate : fileSchema.getFields()) {
      if (caseSensitive
          ? candidate.getName().equals(field.name())
          : candidate
              .getName()
              .toLowerCase(Locale.ROOT)
              .equals(field.name().toLowerCase(Locale.ROOT))) {
        matches.add(candidate);
      }
    }
    if (matches.size() != 1 || !matches.get(0).isPrimitive()) {
      return Optional.empty();
    }
    PrimitiveType column = matches.get(0).asPrimitiveType();
    ColumnDescriptor descriptor = fileSchema.getColumnDescription(new String[] {column.getName()});
    if (column.getRepetition() == Type.Repetition.REPEATED
        || descriptor.getMaxRepetitionLevel() != 0
        || descriptor.getMaxDefinitionLevel() > 1
        || !isPlainCounterpart(column, field.dataType())) {
      return Optional.empty();
    }
    return Optional.of(column);
  }

  private static boolean isPlainCounterpart(PrimitiveType column, DataType sparkType) {
    LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
    PrimitiveTypeName physical = column.getPrimitiveTypeName();
    if (sparkType.equals(DataTypes.IntegerType)) {
      return physical == PrimitiveTypeName.INT32 && isNoneOrSignedInt(annotation, 32);
    }
    if (sparkType.equals(DataTypes.LongType)) {
      return physical == PrimitiveTypeName.INT64 && isNoneOrSignedInt(annotation, 64);
    }
    if (annotation != null) {
      return false;
    }
    return (sparkType.equals(DataTypes.BooleanType) && physical == PrimitiveTypeName.BOOLEAN)
        || (sparkType.equals(DataTypes.FloatType) && physical == PrimitiveTypeName.FLOAT)
        || (sparkType.equals(DataTypes.DoubleType) && physical == PrimitiveTypeName.DOUBLE);
  }

  private static boolean isNoneOrSignedInt(LogicalTypeAnnotation annotation, int bitWidth) {
    if (annotation == null) {
      return true;
    }
    if (!(annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
      return false;
    }
    LogicalTypeAnnotation.IntLogicalTypeAnnotation intType =
        (LogicalTypeAnnotation.IntLogicalTypeAnnotation) annotation;
    return intType.isSigned() && intType.getBitWidth() == bitWidth;
  }

  /**
   * The chunk of column {@code name} in {@code rowGroup}, unless encrypted or oddly encoded. An
   * {@code optional} column's definition levels are RLE in every page this reader decodes: always
   * in v2 pages (whose level encodings writers do not list), and in v1 pages where the chunk's
   * encodings list RLE; a chunk of v1 pages without RLE has them in the deprecated BIT_PACKED
   * encoding (writers of before 2014, which also wrote no page statistics), which this reader
   * leaves to Spark's reader (whose vectorized reader fails on them with "Unsupported encoding").
   */
  static Optional<ColumnChunkMetaData> readableChunk(
      BlockMetaData rowGroup, String name, boolean optional) {
    ColumnPath path = ColumnPath.get(name);
    for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
      if (chunk.getPath().equals(path)) {
        Set<Encoding> encodings = chunk.getEncodings();
        return chunk.isEncrypted()
                || !DECODED_ENCODINGS.containsAll(encodings)
                || (optional
                    && !encodings.contains(Encoding.RLE)
                    && (chunk.getEncodingStats() == null
                        || !chunk.getEncodingStats().usesV2Pages()))
            ? Optional.empty()
            : Optional.of(chunk);
      }
    }
    return Optional.empty();
  }

  /**
   * Reads the next rows, at most {@code maxRows}, into {@code vectors} (one per required field, in
   * order, each an OnHeapColumnVector of that field's type with capacity at least {@code maxRows},
   * reset by the caller), from row 0, and returns how many rows it read: {@code maxRows} on every
   * call but the last, 0 when the split has no more rows. A batch may span row groups.
   */
  public int read(OnHeapColumnVector[] vectors, int maxRows) throws IOException {
    if (vectors.length != columns.length) {
      throw new IllegalArgumentException(
          vectors.length + " vectors given for " + columns.length + " columns");
    }
    int filled = 0;
    while (filled < maxRows) {
      if (rowsLeftInRowGroup == 0) {
        if (nextRowGroup == rowGroups.size()) {
          break;
        }
        startRowGroup();
        continue;
      }
      int count = (int) Math.min(maxRows - filled, rowsLeftInRowGroup);
      for (int c = 0; c < columns.length; c++) {
        columns[c].read(vectors[c], filled, count);
      }
      filled += count;
      rowsLeftInRowGroup -= count;
    }
    return filled;
  }

  private void startRowGroup() throws IOException {
    BlockMetaData rowGroup = rowGroups.get(nextRowGroup);
    for (int c = 0; c < columns.length; c++) {
      columns[c].startChunk(
          input, chunks[nextRowGroup][c], rowGroup.getOrdinal(), rowGroup.getRowCount());
    }
    rowsLeftInRowGroup = rowGroup.getRowCount();
    nextRowGroup++;
  }

  @Override
  public void close() throws IOException {
    try {
      input.close();
    } finally {
      decompressor.close();
    }
  }
}
