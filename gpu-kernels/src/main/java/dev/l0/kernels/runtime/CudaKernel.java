package dev.l0.kernels.runtime;

import static jcuda.driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuFuncSetAttribute;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;

import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUfunction;

/** One kernel of a loaded {@link CudaModule}. */
public final class CudaKernel {
  /**
   * The dynamic shared memory a launch may ask for without the kernel opting in to more ({@code
   * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}); up to the device's opt-in limit after it
   * does (a launch beyond that fails, and the call runs on the JVM backend).
   */
  static final int DEFAULT_DYNAMIC_SHARED_BYTES = 48 * 1024;

  private final CudaContext context;
  private final CUfunction function;
  private final String name;

  CudaKernel(CudaContext context, CUfunction function, String name) {
    this.context = context;
    this.function = function;
    this.name = name;
  }

  /**
   * Launches the kernel ({@code cuLaunchKernel} on the default stream) and waits for it, so that a
   * failure in the kernel surfaces here as a {@link CudaDriverException}. A launch asking for more
   * than {@value #DEFAULT_DYNAMIC_SHARED_BYTES} bytes of dynamic shared memory (a reduction's tree
   * of eight f64 accumulators in blocks of 1024) first opts the kernel in to them.
   */
  public void launch(LaunchShape shape, int sharedMemoryBytes, List<KernelArgument> arguments) {
    if (sharedMemoryBytes < 0) {
      throw new IllegalArgumentException("shared memory cannot be negative: " + sharedMemoryBytes);
    }
    Pointer parameters =
        Pointer.to(arguments.stream().map(KernelArgument::pointer).toArray(Pointer[]::new));
    context.bindToCurrentThread();
    if (sharedMemoryBytes > DEFAULT_DYNAMIC_SHARED_BYTES) {
      CudaDriverCall.run(
          "cuFuncSetAttribute " + name + " MAX_DYNAMIC_SHARED_SIZE_BYTES " + sharedMemoryBytes,
          () ->
              cuFuncSetAttribute(
                  function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sharedMemoryBytes));
    }
    CudaDriverCall.run(
        "cuLaunchKernel " + name,
        () ->
            cuLaunchKernel(
                function,
                shape.gridX(),
                shape.gridY(),
                shape.gridZ(),
                shape.blockX(),
                shape.blockY(),
                shape.blockZ(),
                sharedMemoryBytes,
                null,
                parameters,
                null));
    CudaDriverCall.run("cuCtxSynchronize after " + name, () -> cuCtxSynchronize());
  }
}
