/**
 * The CUDA kernel executor: lowers each kernel, compiles its CUDA C to cached PTX, runs its kernel
 * group's host steps on the GPU, and falls back to the JVM backend, with one logged line, for GPU
 * failures.
 */
package dev.l0.kernels.cudaexec;
