package dev.l0.kernels.runtime;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;

import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUfunction;

/** One kernel of a loaded {@link CudaModule}. */
public final class CudaKernel {
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
   * failure in the kernel surfaces here as a {@link CudaDriverException}.
   */
  public void launch(LaunchShape shape, int sharedMemoryBytes, List<KernelArgument> arguments) {
    if (sharedMemoryBytes < 0) {
      throw new IllegalArgumentException("shared memory cannot be negative: " + sharedMemoryBytes);
    }
    Pointer parameters =
        Pointer.to(arguments.stream().map(KernelArgument::pointer).toArray(Pointer[]::new));
    context.bindToCurrentThread();
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
