package dev.l0.spark.parquet;

import java.io.InputStream;

/**
 * An unsynchronised input stream over a slice of a byte array that tells how far it has read, so
 * that a page header can be parsed in place and the page body found right after it.
 */
final class ChunkInputStream extends InputStream {
  private byte[] bytes = new byte[0];
  private int position;
  private int end;

  /** Makes the stream read {@code bytes[from, to)}. */
  void reset(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.position = from;
    this.end = to;
  }

  /** The index in the array of the next byte to read. */
  int position() {
    return position;
  }

  @Override
  public int read() {
    return position < end ? bytes[position++] & 0xff : -1;
  }

  @Override
  public int read(byte[] target, int offset, int length) {
    if (length == 0) {
      return 0;
    }
    if (position >= end) {
      return -1;
    }
    int count = Math.min(length, end - position);
    System.arraycopy(bytes, position, target, offset, count);
    position += count;
    return count;
  }

  @Override
  public long skip(long count) {
    int skipped = (int) Math.max(0, Math.min(count, end - position));
    position += skipped;
    return skipped;
  }

  @Override
  public int available() {
    return end - position;
  }
}
