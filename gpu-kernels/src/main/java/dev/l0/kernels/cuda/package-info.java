/**
 * CUDA C support shared by the CUDA backend: the device math library with StrictMath's results
 * ({@code l0_math.cuh}), the nvcc compiler driver, and the device check of that library.
 */
package dev.l0.kernels.cuda;
