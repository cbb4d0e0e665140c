package dev.l0.spark.parquet;

import java.io.IOException;
import java.util.Arrays;

/**
 * Decodes Parquet's RLE / bit-packed hybrid encoding (used for definition levels, dictionary
 * indices and RLE booleans) from a slice of a byte array: runs, each behind a ULEB128 header whose
 * low bit tells a repeated value (stored in whole little-endian bytes) from groups of 8 values
 * packed least significant bit first.
 */
final class RleBitPackedHybridDecoder {
  private byte[] bytes = new byte[0];
  private int position;
  private int end;
  private int bitWidth;
  private long valueMask;
  private int repeatedLeft;
  private int repeatedValue;
  private int packedLeft;
  private long packedBit;

  /** Starts decoding {@code bytes[from, to)} as values of {@code bitWidth} bits (0 to 32). */
  void reset(byte[] bytes, int from, int to, int bitWidth) throws IOException {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IOException("bit width " + bitWidth + " is outside 0..32");
    }
    if (from > to || to > bytes.length) {
      throw new IOException("encoded values [" + from + ", " + to + ") lie outside the page");
    }
    this.bytes = bytes;
    this.position = from;
    this.end = to;
    this.bitWidth = bitWidth;
    this.valueMask = (1L << bitWidth) - 1;
    this.repeatedLeft = 0;
    this.packedLeft = 0;
  }

  /** Decodes the next {@code count} values into {@code target[offset, offset + count)}. */
  void readInts(int[] target, int offset, int count) throws IOException {
    while (count > 0) {
      if (repeatedLeft == 0 && packedLeft == 0) {
        readRunHeader();
      }
      if (repeatedLeft > 0) {
        int run = Math.min(count, repeatedLeft);
        Arrays.fill(target, offset, offset + run, repeatedValue);
        repeatedLeft -= run;
        offset += run;
        count -= run;
      } else {
        int run = Math.min(count, packedLeft);
        unpack(target, offset, run);
        packedLeft -= run;
        offset += run;
        count -= run;
      }
    }
  }

  private void unpack(int[] target, int offset, int count) {
    long bit = packedBit;
    for (int i = 0; i < count; i++) {
      int index = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      int byteCount = (shift + bitWidth + 7) >>> 3;
      long word = 0;
      for (int b = 0; b < byteCount; b++) {
        word |= (bytes[index + b] & 0xffL) << (8 * b);
      }
      target[offset + i] = (int) ((word >>> shift) & valueMask);
      bit += bitWidth;
    }
    packedBit = bit;
  }

  private void readRunHeader() throws IOException {
    long header = readUleb128();
    long length = header >>> 1;
    if ((header & 1) == 0) {
      int byteWidth = (bitWidth + 7) >>> 3;
      if (byteWidth > end - position) {
        throw new IOException("a repeated run's value lies past the end of the encoded values");
      }
      long value = 0;
      for (int b = 0; b < byteWidth; b++) {
        value |= (bytes[position++] & 0xffL) << (8 * b);
      }
      if ((value & ~valueMask) != 0) {
        throw new IOException("repeated value " + value + " does not fit " + bitWidth + " bits");
      }
      repeatedValue = (int) value;
      repeatedLeft = (int) Math.min(length, Integer.MAX_VALUE);
    } else {
      long values = length * 8;
      long byteCount = length * bitWidth;
      int available = end - position;
      // A writer may leave out the padding of the last group: only whole values that are there
      // count.
      long present =
          bitWidth == 0
              ? values
              : Math.min(values, (long) Math.min(byteCount, available) * 8 / bitWidth);
      packedLeft = (int) Math.min(present, Integer.MAX_VALUE);
      packedBit = (long) position * 8;
      position += (int) Math.min(byteCount, available);
    }
  }

  private long readUleb128() throws IOException {
    long value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (position >= end) {
        throw new IOException("the encoded values end before all values were read");
      }
      int b = bytes[position++];
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException("a run header is longer than 5 bytes");
  }
}
