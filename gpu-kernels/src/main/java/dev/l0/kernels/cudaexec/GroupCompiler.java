package dev.l0.kernels.cudaexec;

import dev.l0.kernels.cuda.CudaPrinter;
import dev.l0.kernels.cuda.NvccCompiler;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.KernelCache;
import dev.l0.kernels.runtime.Ptx;

/**
 * Compiles a kernel group for one GPU: its CUDA C ({@link CudaPrinter}) to PTX for {@code target}
 * through {@code cache}, with the arithmetic options that keep device rounding equal to the JVM's
 * ({@link NvccCompiler#ARITHMETIC_OPTIONS}: no FMA contraction), for launches of at most {@code
 * threadsPerBlock} threads per block (the kernels' {@code __launch_bounds__}: a launch of more
 * fails).
 */
record GroupCompiler(KernelCache cache, ComputeCapability target, int threadsPerBlock) {
  /** The PTX of {@code group}; a {@code CudaCompileException} where the compiler rejects it. */
  Ptx compile(KernelGroup group) {
    return cache.compile(
        CudaPrinter.print(group, threadsPerBlock), NvccCompiler.ARITHMETIC_OPTIONS, target);
  }
}
