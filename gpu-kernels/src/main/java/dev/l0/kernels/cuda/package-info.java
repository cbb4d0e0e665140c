/**
 * CUDA C for the CUDA backend: the printer from kernel IR to CUDA C ({@code CudaPrinter}), the
 * device math library with StrictMath's results ({@code l0_math.cuh}), the nvcc driver, and the
 * device check of that library.
 */
package dev.l0.kernels.cuda;
