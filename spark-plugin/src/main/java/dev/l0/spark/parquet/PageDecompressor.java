package dev.l0.spark.parquet;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Decompresses page bodies of one split into caller-owned buffers: SNAPPY straight from array to
 * array, any other codec through parquet-java's codec factory (created on first need, released on
 * close).
 */
final class PageDecompressor implements AutoCloseable {
  private final Configuration conf;
  private CodecFactory codecs;
  private final Map<CompressionCodecName, CodecFactory.BytesDecompressor> decompressors =
      new EnumMap<>(CompressionCodecName.class);

  PageDecompressor(Configuration conf) {
    this.conf = conf;
  }

  /**
   * Decompresses {@code source[offset, offset + length)}, compressed with {@code codec} (not
   * UNCOMPRESSED), into {@code target} (or a larger array when it is too small) from index 0, and
   * returns the array that holds the {@code uncompressedSize} bytes; throws when the page does not
   * decompress to exactly that size. A page of no bytes (a v2 page of only nulls, which writers
   * before the fix of apache/parquet-java#3122 mark compressed with an empty body) is empty
   * whatever its codec, as parquet-java reads it: no codec is asked.
   */
  byte[] decompress(
      CompressionCodecName codec,
      byte[] source,
      int offset,
      int length,
      int uncompressedSize,
      byte[] target)
      throws IOException {
    if (uncompressedSize == 0) {
      return target;
    }
    if (codec == CompressionCodecName.SNAPPY) {
      int size = Snappy.uncompressedLength(source, offset, length);
      checkSize(size, uncompressedSize);
      byte[] output = target.length >= size ? target : new byte[grownSize(target.length, size)];
      checkSize(Snappy.uncompress(source, offset, length, output, 0), uncompressedSize);
      return output;
    }
    byte[] decompressed =
        decompressor(codec)
            .decompress(BytesInput.from(source, offset, length), uncompressedSize)
            .toByteArray();
    checkSize(decompressed.length, uncompressedSize);
    return decompressed;
  }

  /** A new capacity of at least {@code needed} that grows geometrically from {@code current}. */
  private static int grownSize(int current, int needed) {
    return (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, (long) current * 3 / 2));
  }

  private static void checkSize(int actual, int expected) throws IOException {
    if (actual != expected) {
      throw new IOException(
          "a page decompresses to " + actual + " bytes, its header says " + expected);
    }
  }

  private CodecFactory.BytesDecompressor decompressor(CompressionCodecName codec) {
    if (codecs == null) {
      codecs = new CodecFactory(conf, 0);
    }
    return decompressors.computeIfAbsent(codec, codecs::getDecompressor);
  }

  @Override
  public void close() {
    if (codecs != null) {
      codecs.release();
      codecs = null;
      decompressors.clear();
    }
  }
}
