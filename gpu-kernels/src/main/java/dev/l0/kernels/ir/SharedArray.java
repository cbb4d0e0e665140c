package dev.l0.kernels.ir;

import dev.l0.ir.ScalarType;

/**
 * A per-block shared-memory array of {@code elementsPerThread * blockDim.x} elements of
 * {@code elementType}. Its contents are undefined when the block starts.
 */
public record SharedArray(String name, ScalarType elementType, int elementsPerThread) {
  public SharedArray {
    if (elementsPerThread < 1) {
      throw new IllegalArgumentException("a shared array needs at least one element per thread: " + name);
    }
  }
}
