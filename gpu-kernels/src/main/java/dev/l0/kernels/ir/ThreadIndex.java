package dev.l0.kernels.ir;

/** CUDA's index registers in the x dimension, the only one kernels use. */
public enum ThreadIndex {
  /** the thread's index within its block, {@code 0 <= threadIdx.x < blockDim.x} */
  THREAD_IDX("threadIdx.x"),
  /** the block's index within the grid, {@code 0 <= blockIdx.x < gridDim.x} */
  BLOCK_IDX("blockIdx.x"),
  /** threads per block (the launch's block size, a power of two) */
  BLOCK_DIM("blockDim.x"),
  /** blocks in the grid (the launch's grid size) */
  GRID_DIM("gridDim.x");

  private final String cudaName;

  ThreadIndex(String cudaName) {
    this.cudaName = cudaName;
  }

  /** The register as CUDA C writes it. */
  public String cudaName() {
    return cudaName;
  }
}
