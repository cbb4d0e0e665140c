package dev.l0.kernels.runtime;

/**
 * Processes elements {@code [0, total)} on the device in consecutive pieces (ARCHITECTURE.md,
 * "Runtime": inputs larger than device memory are split; out-of-memory means split and retry). A
 * piece that runs out of device memory is retried at half the size, down to a smallest piece; later
 * pieces keep the reduced size. Every element is processed exactly once by a piece that succeeded.
 * When even the smallest piece does not fit, the {@link OutOfDeviceMemoryException} goes to the
 * caller, whose answer is the JVM path ({@link JvmFallback}).
 */
public final class SplitAndRetry {
  /**
   * The work on one piece; it may throw {@link OutOfDeviceMemoryException}, and must then have had
   * no effect.
   */
  @FunctionalInterface
  public interface Piece {
    void process(long start, long count);
  }

  /** How a run went: the pieces that succeeded and the piece size it ended with. */
  public record Outcome(int pieces, long finalPieceSize) {}

  private SplitAndRetry() {}

  public static Outcome run(long total, long firstPieceSize, long smallestPieceSize, Piece piece) {
    if (total < 0 || smallestPieceSize < 1 || firstPieceSize < smallestPieceSize) {
      throw new IllegalArgumentException(
          "cannot split "
              + total
              + " elements into pieces of "
              + firstPieceSize
              + " down to "
              + smallestPieceSize);
    }
    long pieceSize = firstPieceSize;
    long start = 0;
    int pieces = 0;
    while (start < total) {
      long count = Math.min(pieceSize, total - start);
      try {
        piece.process(start, count);
      } catch (OutOfDeviceMemoryException e) {
        if (count <= smallestPieceSize) {
          throw e;
        }
        pieceSize = Math.max(smallestPieceSize, count / 2);
        continue;
      }
      start += count;
      pieces++;
    }
    return new Outcome(pieces, pieceSize);
  }
}
