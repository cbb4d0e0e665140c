package dev.l0.kernels.runtime;

import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import java.util.concurrent.atomic.AtomicBoolean;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/** PTX loaded into a {@link CudaContext} ({@code cuModuleLoadData}); closing it unloads it. */
public final class CudaModule implements AutoCloseable {
  private final CudaContext context;
  private final CUmodule module;
  private final AtomicBoolean unloaded = new AtomicBoolean();

  CudaModule(CudaContext context, CUmodule module) {
    this.context = context;
    this.module = module;
  }

  /** The {@code extern "C" __global__} function {@code name} of this module. */
  public CudaKernel kernel(String name) {
    context.bindToCurrentThread();
    CUfunction function = new CUfunction();
    CudaDriverCall.run(
        "cuModuleGetFunction " + name, () -> cuModuleGetFunction(function, module, name));
    return new CudaKernel(context, function, name);
  }

  @Override
  public void close() {
    if (unloaded.compareAndSet(false, true)) {
      context.bindToCurrentThread();
      CudaDriverCall.run("cuModuleUnload", () -> cuModuleUnload(module));
    }
  }
}
