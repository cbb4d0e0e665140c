package dev.l0.spark.parquet;

import java.io.ByteArrayInputStream;

/**
 * A {@link ByteArrayInputStream} over a slice of an array that can be pointed at another slice and
 * tells how far it has read, so that a page header can be parsed in place and the page body found
 * right after it.
 */
final class ChunkInputStream extends ByteArrayInputStream {
  ChunkInputStream() {
    super(new byte[0]);
  }

  /** Makes the stream read {@code bytes[from, to)}. */
  void reset(byte[] bytes, int from, int to) {
    buf = bytes;
    pos = from;
    mark = from;
    count = to;
  }

  /** The index in the array of the next byte to read. */
  int position() {
    return pos;
  }
}
