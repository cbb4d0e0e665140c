package dev.l0.spark.parquet;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;

/**
 * Decodes one flat column (BOOLEAN, INT32, INT64, FLOAT or DOUBLE; required or optional) of a
 * split, one column chunk at a time, from its pages into Spark column vectors: reads the chunk into
 * a reused window of at least {@value #WINDOW_BYTES} bytes (a page that does not fit grows it), one
 * positioned read per window, parses page headers in place, decompresses each page once into a
 * reused buffer, and writes PLAIN, dictionary and RLE-boolean values, with nulls where the
 * definition level is 0; where asked, it checks each page's CRC first. The window, not the whole
 * chunk, bounds the memory a column takes (a chunk of a 128 MB row group would be tens of MB, fresh
 * memory for every split); a page header that claims more bytes than the file holds is an error
 * before any memory is taken for the page.
 */
final class ColumnChunkDecoder {
  /** The bytes of a column chunk read at once (fewer where the chunk has fewer left). */
  static final int WINDOW_BYTES = 4 << 20;

  /** The bytes loaded before a page header is parsed (fewer where the chunk has fewer left). */
  private static final int HEADER_BYTES = 64 << 10;

  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** How the values of the current data page are stored. */
  private enum ValueEncoding {
    PLAIN,
    DICTIONARY,
    RLE_BOOLEAN
  }

  private final String file;
  private final long fileLength;
  private final String column;
  private final PrimitiveTypeName type;
  private final int plainWidth;
  private final boolean optional;
  private final boolean verifyChecksums;
  private final PageDecompressor decompressor;
  private final ChunkInputStream headerInput = new ChunkInputStream();
  private final RleBitPackedHybridDecoder levels = new RleBitPackedHybridDecoder();
  private final RleBitPackedHybridDecoder encodedValues = new RleBitPackedHybridDecoder();

  private FSDataInputStream input;

  /** The window: bytes of the chunk from {@link #windowOffset}, up to {@link #chunkEnd}. */
  private byte[] chunk = new byte[0];

  private int chunkPosition;
  private int chunkEnd;
  private long chunkFileOffset;
  private long chunkSize;

  /** Where in the chunk {@code chunk[0]} is. */
  private long windowOffset;

  private CompressionCodecName codec;
  private int rowGroup = -1;
  private long rowsLeftInChunk;

  private byte[] pageBuffer = new byte[0];
  private byte[] values;
  private int valuesPosition;
  private int valuesEnd;
  private long booleanBit;
  private int pageRowsLeft;
  private boolean pageHasLevels;
  private ValueEncoding valueEncoding;

  /** The chunk's dictionary as raw bits (ints sign-extended), or none while size is -1. */
  private long[] dictionary = new long[0];

  private int dictionarySize = -1;

  private int[] levelScratch = new int[0];
  private int[] valueScratch = new int[0];

  ColumnChunkDecoder(
      String file,
      long fileLength,
      String column,
      PrimitiveTypeName type,
      boolean optional,
      boolean verifyChecksums,
      PageDecompressor decompressor) {
    this.file = file;
    this.fileLength = fileLength;
    this.column = column;
    this.type = type;
    this.plainWidth = plainWidth(type);
    this.optional = optional;
    this.verifyChecksums = verifyChecksums;
    this.decompressor = decompressor;
  }

  private static int plainWidth(PrimitiveTypeName type) {
    switch (type) {
      case BOOLEAN:
        return 0;
      case INT32:
      case FLOAT:
        return 4;
      case INT64:
      case DOUBLE:
        return 8;
      default:
        throw new IllegalArgumentException("not a flat column type this reader decodes: " + type);
    }
  }

  /**
   * Reads the column chunk {@code chunkMeta} of row group {@code rowGroupOrdinal} (of {@code
   * rowCount} rows) from {@code input} and makes it the one {@link #read} decodes.
   */
  void startChunk(
      FSDataInputStream input, ColumnChunkMetaData chunkMeta, int rowGroupOrdinal, long rowCount)
      throws IOException {
    rowGroup = rowGroupOrdinal;
    long start = chunkMeta.getStartingPos();
    long size = chunkMeta.getTotalSize();
    if (start < 0 || size < 0) {
      throw malformed("the column chunk's position " + start + " or size " + size + " is invalid");
    }
    this.input = input;
    chunkFileOffset = start;
    chunkSize = size;
    windowOffset = 0;
    chunkPosition = 0;
    chunkEnd = 0;
    codec = chunkMeta.getCodec();
    rowsLeftInChunk = rowCount;
    pageRowsLeft = 0;
    dictionarySize = -1;
  }

  /**
   * Writes the next {@code count} rows of the current chunk into {@code vector} from row {@code
   * row}; throws, naming the file, column and row group, when the chunk is malformed.
   */
  void read(OnHeapColumnVector vector, int row, int count) throws IOException {
    try {
      while (count > 0) {
        if (pageRowsLeft == 0) {
          nextDataPage();
          continue;
        }
        int slice = Math.min(count, pageRowsLeft);
        if (pageHasLevels) {
          readWithLevels(vector, row, slice);
        } else {
          readValues(vector, row, slice);
        }
        pageRowsLeft -= slice;
        rowsLeftInChunk -= slice;
        row += slice;
        count -= slice;
      }
    } catch (RuntimeException e) {
      throw malformed("undecodable page data (" + e + ")", e);
    }
  }

  private void readWithLevels(OnHeapColumnVector vector, int row, int count) throws IOException {
    if (levelScratch.length < count) {
      levelScratch = new int[count];
    }
    int[] definition = levelScratch;
    try {
      levels.readInts(definition, 0, count);
    } catch (IOException e) {
      throw malformed("bad definition levels: " + e.getMessage(), e);
    }
    int i = 0;
    while (i < count) {
      int start = i;
      int level = definition[i];
      while (i < count && definition[i] == level) {
        i++;
      }
      if (level == 0) {
        vector.putNulls(row + start, i - start);
      } else {
        readValues(vector, row + start, i - start);
      }
    }
  }

  private void readValues(OnHeapColumnVector vector, int row, int count) throws IOException {
    switch (valueEncoding) {
      case PLAIN:
        readPlain(vector, row, count);
        break;
      case DICTIONARY:
        readDictionaryEncoded(vector, row, count);
        break;
      case RLE_BOOLEAN:
        readRleBooleans(vector, row, count);
        break;
    }
  }

  private void readPlain(OnHeapColumnVector vector, int row, int count) throws IOException {
    if (type == PrimitiveTypeName.BOOLEAN) {
      long firstBit = booleanBit;
      if (((firstBit + count + 7) >>> 3) > valuesEnd - valuesPosition) {
        throw malformed("a data page holds fewer booleans than its header counts");
      }
      int i = 0;
      // Bit by bit up to a byte boundary, then 8 booleans per byte, then the last bits.
      for (; i < count && ((firstBit + i) & 7) != 0; i++) {
        putPlainBoolean(vector, row + i, firstBit + i);
      }
      for (; i + 8 <= count; i += 8) {
        vector.putBooleans(row + i, values[valuesPosition + (int) ((firstBit + i) >>> 3)]);
      }
      for (; i < count; i++) {
        putPlainBoolean(vector, row + i, firstBit + i);
      }
      booleanBit = firstBit + count;
      return;
    }
    long bytes = (long) count * plainWidth;
    if (bytes > valuesEnd - valuesPosition) {
      throw malformed("a data page holds fewer values than its header counts");
    }
    switch (type) {
      case INT32:
        vector.putIntsLittleEndian(row, count, values, valuesPosition);
        break;
      case INT64:
        vector.putLongsLittleEndian(row, count, values, valuesPosition);
        break;
      case FLOAT:
        vector.putFloatsLittleEndian(row, count, values, valuesPosition);
        break;
      default:
        vector.putDoublesLittleEndian(row, count, values, valuesPosition);
        break;
    }
    valuesPosition += (int) bytes;
  }

  private void putPlainBoolean(OnHeapColumnVector vector, int row, long bit) {
    int b = values[valuesPosition + (int) (bit >>> 3)];
    vector.putBoolean(row, ((b >>> (bit & 7)) & 1) != 0);
  }

  private int[] decodeValues(int count, String what) throws IOException {
    if (valueScratch.length < count) {
      valueScratch = new int[count];
    }
    try {
      encodedValues.readInts(valueScratch, 0, count);
    } catch (IOException e) {
      throw malformed("bad " + what + ": " + e.getMessage(), e);
    }
    return valueScratch;
  }

  private void readDictionaryEncoded(OnHeapColumnVector vector, int row, int count)
      throws IOException {
    int[] indices = decodeValues(count, "dictionary indices");
    for (int i = 0; i < count; i++) {
      if (Integer.compareUnsigned(indices[i], dictionarySize) >= 0) {
        throw malformed(
            "dictionary index "
                + Integer.toUnsignedString(indices[i])
                + " is out of range (the dictionary holds "
                + dictionarySize
                + " values)");
      }
    }
    long[] entries = dictionary;
    switch (type) {
      case BOOLEAN:
        for (int i = 0; i < count; i++) {
          vector.putBoolean(row + i, entries[indices[i]] != 0);
        }
        break;
      case INT32:
        for (int i = 0; i < count; i++) {
          vector.putInt(row + i, (int) entries[indices[i]]);
        }
        break;
      case INT64:
        for (int i = 0; i < count; i++) {
          vector.putLong(row + i, entries[indices[i]]);
        }
        break;
      case FLOAT:
        for (int i = 0; i < count; i++) {
          vector.putFloat(row + i, Float.intBitsToFloat((int) entries[indices[i]]));
        }
        break;
      default:
        for (int i = 0; i < count; i++) {
          vector.putDouble(row + i, Double.longBitsToDouble(entries[indices[i]]));
        }
        break;
    }
  }

  private void readRleBooleans(OnHeapColumnVector vector, int row, int count) throws IOException {
    int[] booleans = decodeValues(count, "RLE booleans");
    for (int i = 0; i < count; i++) {
      vector.putBoolean(row + i, booleans[i] != 0);
    }
  }

  /** Reads page headers (taking in a dictionary page, skipping index pages) up to a data page. */
  private void nextDataPage() throws IOException {
    while (true) {
      if (bytesLeftInChunk() == 0) {
        throw malformed(
            "the column chunk ends before its last " + rowsLeftInChunk + " rows were read");
      }
      load((int) Math.min(HEADER_BYTES, bytesLeftInChunk()));
      long headerOffset = chunkFileOffset + windowOffset + chunkPosition;
      headerInput.reset(chunk, chunkPosition, chunkEnd);
      PageHeader header;
      try {
        header = Util.readPageHeader(headerInput);
      } catch (IOException | RuntimeException e) {
        throw malformed("bad page header at byte " + headerOffset + " (" + e.getMessage() + ")", e);
      }
      chunkPosition = headerInput.position();
      int compressedSize = header.getCompressed_page_size();
      int uncompressedSize = header.getUncompressed_page_size();
      if (compressedSize < 0 || uncompressedSize < 0) {
        throw malformed(
            "the page at byte "
                + headerOffset
                + " has negative sizes (compressed "
                + compressedSize
                + ", uncompressed "
                + uncompressedSize
                + ")");
      }
      long pageEnd = chunkFileOffset + windowOffset + chunkPosition + compressedSize;
      if (pageEnd > fileLength) {
        throw malformed(
            "the page at byte "
                + headerOffset
                + " claims "
                + compressedSize
                + " bytes, past the file's end at byte "
                + fileLength);
      }
      if (compressedSize > bytesLeftInChunk()) {
        // Early parquet-mr writers under-reported a chunk's size by a few bytes of its last page;
        // parquet-java reads on past the chunk's end for them, and so does this reader.
        chunkSize = windowOffset + chunkPosition + compressedSize;
      }
      load(compressedSize);
      int body = chunkPosition;
      chunkPosition = body + compressedSize;
      if (verifyChecksums && header.isSetCrc()) {
        checkCrc(header.getCrc(), body, compressedSize, headerOffset);
      }
      PageType pageType = header.getType();
      if (pageType == PageType.DICTIONARY_PAGE) {
        readDictionaryPage(header, body, compressedSize, uncompressedSize);
      } else if (pageType == PageType.DATA_PAGE) {
        startDataPageV1(header, body, compressedSize, uncompressedSize);
        return;
      } else if (pageType == PageType.DATA_PAGE_V2) {
        startDataPageV2(header, body, compressedSize, uncompressedSize);
        return;
      } else if (pageType != PageType.INDEX_PAGE) {
        throw malformed("the page at byte " + headerOffset + " has an unknown type " + pageType);
      }
    }
  }

  /**
   * Checks the CRC-32 that a page header stores against the page's stored (compressed) bytes,
   * {@code chunk[body, body + size)}: a page whose bytes changed since it was written is an error,
   * not values.
   */
  private void checkCrc(int expected, int body, int size, long headerOffset) throws IOException {
    CRC32 crc = new CRC32();
    crc.update(chunk, body, size);
    if ((int) crc.getValue() != expected) {
      throw malformed(
          "the page at byte "
              + headerOffset
              + " fails its CRC checksum (stored "
              + Integer.toHexString(expected)
              + ", computed "
              + Long.toHexString(crc.getValue())
              + ")");
    }
  }

  /** The bytes of the chunk after {@link #chunkPosition}, loaded or not. */
  private long bytesLeftInChunk() {
    return chunkSize - windowOffset - chunkPosition;
  }

  /**
   * Makes {@code chunk[chunkPosition, chunkPosition + needed)} hold the chunk's next {@code needed}
   * bytes (at most {@link #bytesLeftInChunk}): where the window holds fewer, its unread bytes move
   * to its start and the rest of it is read from the file. Only between pages: the page before no
   * longer reads the window. The file system's own errors pass as they are (Spark's file scan tells
   * a missing file, a denied read or a missing block by their types).
   */
  private void load(int needed) throws IOException {
    if (chunkEnd - chunkPosition >= needed) {
      return;
    }
    int kept = chunkEnd - chunkPosition;
    int wanted =
        (int) Math.max(needed, Math.min(WINDOW_BYTES, chunkSize - windowOffset - chunkPosition));
    byte[] window = chunk.length >= wanted ? chunk : new byte[wanted];
    System.arraycopy(chunk, chunkPosition, window, 0, kept);
    chunk = window;
    windowOffset += chunkPosition;
    chunkPosition = 0;
    chunkEnd = kept;
    int length = (int) Math.min(window.length - kept, chunkSize - windowOffset - kept);
    input.readFully(chunkFileOffset + windowOffset + kept, window, kept, length);
    chunkEnd = kept + length;
  }

  /**
   * Makes the decompressed bytes of {@code chunk[offset, offset + length)} the page's values. An
   * uncompressed page's values are its stored bytes, whatever its header's uncompressed size says
   * (as parquet-java, and so Spark's reader, takes them).
   */
  private void decompress(int offset, int length, int uncompressedSize, boolean compressed)
      throws IOException {
    if (!compressed || codec == CompressionCodecName.UNCOMPRESSED) {
      values = chunk;
      valuesPosition = offset;
      valuesEnd = offset + length;
      return;
    }
    try {
      pageBuffer =
          decompressor.decompress(codec, chunk, offset, length, uncompressedSize, pageBuffer);
    } catch (IOException | RuntimeException e) {
      throw malformed("cannot decompress a " + codec + " page: " + e.getMessage(), e);
    }
    values = pageBuffer;
    valuesPosition = 0;
    valuesEnd = uncompressedSize;
  }

  private void readDictionaryPage(
      PageHeader header, int body, int compressedSize, int uncompressedSize) throws IOException {
    DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
    if (dictionaryHeader == null) {
      throw malformed("a dictionary page has no dictionary page header");
    }
    Encoding encoding = dictionaryHeader.getEncoding();
    if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
      throw malformed("a dictionary page is encoded " + encoding + ", not PLAIN");
    }
    int size = dictionaryHeader.getNum_values();
    decompress(body, compressedSize, uncompressedSize, true);
    long available = valuesEnd - valuesPosition;
    long needed = type == PrimitiveTypeName.BOOLEAN ? (size + 7L) / 8 : (long) size * plainWidth;
    if (size < 0 || needed > available) {
      throw malformed(
          "a dictionary page of " + available + " bytes cannot hold " + size + " values");
    }
    if (dictionary.length < size) {
      dictionary = new long[size];
    }
    for (int i = 0; i < size; i++) {
      dictionary[i] = plainValueBits(i);
    }
    dictionarySize = size;
  }

  private long plainValueBits(int index) {
    switch (plainWidth) {
      case 0:
        return (values[valuesPosition + (index >>> 3)] >>> (index & 7)) & 1;
      case 4:
        return (int) INT_LE.get(values, valuesPosition + index * 4);
      default:
        return (long) LONG_LE.get(values, valuesPosition + index * 8);
    }
  }

  private void startDataPageV1(
      PageHeader header, int body, int compressedSize, int uncompressedSize) throws IOException {
    DataPageHeader pageHeader = header.getData_page_header();
    if (pageHeader == null) {
      throw malformed("a data page has no data page header");
    }
    startPageRows(pageHeader.getNum_values());
    decompress(body, compressedSize, uncompressedSize, true);
    pageHasLevels = optional;
    if (optional) {
      Encoding levelEncoding = pageHeader.getDefinition_level_encoding();
      if (levelEncoding != Encoding.RLE) {
        throw malformed("definition levels encoded " + levelEncoding + ", this reader reads RLE");
      }
      int length = lengthPrefix("definition levels");
      startLevels(values, valuesPosition, valuesPosition + length);
      valuesPosition += length;
    }
    startValues(pageHeader.getEncoding());
  }

  private void startDataPageV2(
      PageHeader header, int body, int compressedSize, int uncompressedSize) throws IOException {
    DataPageHeaderV2 pageHeader = header.getData_page_header_v2();
    if (pageHeader == null) {
      throw malformed("a data page v2 has no data page v2 header");
    }
    startPageRows(pageHeader.getNum_values());
    int repetitionLength = pageHeader.getRepetition_levels_byte_length();
    int definitionLength = pageHeader.getDefinition_levels_byte_length();
    if (repetitionLength != 0) {
      throw malformed("a data page v2 has repetition levels in a column without repetition");
    }
    if (definitionLength < 0
        || definitionLength > compressedSize
        || definitionLength > uncompressedSize
        || (!optional && definitionLength != 0)) {
      throw malformed("a data page v2 has " + definitionLength + " bytes of definition levels");
    }
    pageHasLevels = optional;
    if (optional) {
      startLevels(chunk, body, body + definitionLength);
    }
    decompress(
        body + definitionLength,
        compressedSize - definitionLength,
        uncompressedSize - definitionLength,
        pageHeader.isIs_compressed());
    startValues(pageHeader.getEncoding());
  }

  private void startPageRows(int pageValues) throws IOException {
    if (pageValues < 0 || pageValues > rowsLeftInChunk) {
      throw malformed(
          "a data page counts "
              + pageValues
              + " values where the row group has "
              + rowsLeftInChunk
              + " rows left");
    }
    pageRowsLeft = pageValues;
  }

  private void startLevels(byte[] bytes, int from, int to) throws IOException {
    try {
      levels.reset(bytes, from, to, 1);
    } catch (IOException e) {
      throw malformed("bad definition levels: " + e.getMessage(), e);
    }
  }

  /** Reads a 4-byte little-endian length at the values position and checks it fits the page. */
  private int lengthPrefix(String what) throws IOException {
    if (valuesEnd - valuesPosition < 4) {
      throw malformed("a data page ends before the length of its " + what);
    }
    int length = (int) INT_LE.get(values, valuesPosition);
    valuesPosition += 4;
    if (length < 0 || length > valuesEnd - valuesPosition) {
      throw malformed("the " + what + " of a data page claim " + length + " bytes");
    }
    return length;
  }

  private void startValues(Encoding encoding) throws IOException {
    if (encoding == Encoding.PLAIN) {
      valueEncoding = ValueEncoding.PLAIN;
      booleanBit = 0;
    } else if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
      if (dictionarySize < 0) {
        throw malformed("a data page uses a dictionary before any dictionary page");
      }
      valueEncoding = ValueEncoding.DICTIONARY;
      int bitWidth = valuesPosition < valuesEnd ? values[valuesPosition] & 0xff : 0;
      startEncodedValues(Math.min(valuesPosition + 1, valuesEnd), valuesEnd, bitWidth);
    } else if (encoding == Encoding.RLE && type == PrimitiveTypeName.BOOLEAN) {
      valueEncoding = ValueEncoding.RLE_BOOLEAN;
      int length = lengthPrefix("RLE booleans");
      startEncodedValues(valuesPosition, valuesPosition + length, 1);
    } else {
      throw malformed(
          "a data page's values are encoded " + encoding + ", which this reader does not decode");
    }
  }

  private void startEncodedValues(int from, int to, int bitWidth) throws IOException {
    try {
      encodedValues.reset(values, from, to, bitWidth);
    } catch (IOException e) {
      throw malformed("bad encoded values: " + e.getMessage(), e);
    }
  }

  /** An error about the current chunk that names the file, the column and the row group. */
  private IOException malformed(String what) {
    return malformed(what, null);
  }

  private IOException malformed(String what, Throwable cause) {
    return new IOException(
        "Parquet file " + file + ", column " + column + ", row group " + rowGroup + ": " + what,
        cause);
  }
}
