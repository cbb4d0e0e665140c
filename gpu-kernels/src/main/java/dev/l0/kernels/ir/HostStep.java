package dev.l0.kernels.ir;

/** One step the host runs for a kernel group, in order; expressions read host scalars only. */
public sealed interface HostStep {

  /** Computes host scalar {@code variable} (for sizes, chunk counts, grid sizes). */
  record Define(KernelExpr.Var variable, KernelExpr value) implements HostStep {}

  /**
   * Allocates global {@code buffer} with {@code elements} (an {@code i64}) zero-filled elements;
   * for a {@link Buffer.Space#THREAD_PRIVATE} buffer, {@code elements} is the size of each thread's
   * own array, made for every thread of the launches that follow (contents undefined).
   */
  record Allocate(Buffer buffer, KernelExpr elements) implements HostStep {}

  /**
   * Launches {@code kernel} on {@code gridSize} blocks (an {@code i64}, at least 1) of the
   * executor's block size (a power of two, available to host expressions as {@link
   * KernelGroup#BLOCK_SIZE}); then checks the error word.
   */
  record Launch(Kernel kernel, KernelExpr gridSize) implements HostStep {}

  /** Reads element {@code index} of {@code buffer} back into host scalar {@code variable}. */
  record ReadScalar(KernelExpr.Var variable, Buffer buffer, KernelExpr index) implements HostStep {}
}
