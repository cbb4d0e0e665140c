package dev.l0.kernels.runtime;

/** The grid and block dimensions of one kernel launch; each at least 1. */
public record LaunchShape(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ) {
  public LaunchShape {
    if (gridX < 1 || gridY < 1 || gridZ < 1 || blockX < 1 || blockY < 1 || blockZ < 1) {
      throw new IllegalArgumentException(
          "launch dimensions must be positive: grid "
              + gridX
              + "x"
              + gridY
              + "x"
              + gridZ
              + ", block "
              + blockX
              + "x"
              + blockY
              + "x"
              + blockZ);
    }
  }

  /** One thread per element in one-dimensional blocks of {@code threadsPerBlock}. */
  public static LaunchShape linear(long elements, int threadsPerBlock) {
    if (elements < 1 || threadsPerBlock < 1) {
      throw new IllegalArgumentException(
          "a linear launch needs elements and threads: " + elements + ", " + threadsPerBlock);
    }
    long blocks = (elements + threadsPerBlock - 1) / threadsPerBlock;
    if (blocks > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          elements + " elements need more than 2^31-1 blocks of " + threadsPerBlock);
    }
    return new LaunchShape((int) blocks, 1, 1, threadsPerBlock, 1, 1);
  }
}
