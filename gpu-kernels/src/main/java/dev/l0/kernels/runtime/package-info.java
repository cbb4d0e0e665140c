/**
 * The CUDA runtime under the GPU backend: probes the driver once per JVM, compiles and caches PTX,
 * pools device memory, loads modules and launches kernels, and picks CUDA or the JVM with a reason.
 */
package dev.l0.kernels.runtime;
