package dev.l0.kernels.ir;

import dev.l0.ir.ScalarType;

/**
 * A per-block shared-memory array of {@code elementsPerThread * blockDim.x + elementsPerBlock}
 * elements of {@code elementType}: sized by the block (a tree over the block's threads) or fixed (a
 * tile). Its contents are undefined when the block starts.
 */
public record SharedArray(
    String name, ScalarType elementType, int elementsPerThread, int elementsPerBlock) {
  public SharedArray {
    if (elementsPerThread < 0
        || elementsPerBlock < 0
        || elementsPerThread + (long) elementsPerBlock < 1) {
      throw new IllegalArgumentException(
          "a shared array needs a non-negative size of at least one element: "
              + name
              + " has "
              + elementsPerThread
              + " per thread and "
              + elementsPerBlock
              + " per block");
    }
  }

  /** An array of {@code elementsPerThread} elements for each thread of the block. */
  public SharedArray(String name, ScalarType elementType, int elementsPerThread) {
    this(name, elementType, elementsPerThread, 0);
  }

  /** An array of {@code elements} elements whatever the block size. */
  public static SharedArray ofFixedSize(String name, ScalarType elementType, int elements) {
    return new SharedArray(name, elementType, 0, elements);
  }

  /** Whether the size does not depend on the block size. */
  public boolean isFixedSize() {
    return elementsPerThread == 0;
  }

  /** The array's elements in a block of {@code blockDim} threads. */
  public long elements(long blockDim) {
    return elementsPerThread * blockDim + elementsPerBlock;
  }
}
