package dev.l0.kernels.runtime;

import jcuda.driver.CUdeviceptr;

/**
 * Raw device allocations under a {@link DeviceMemoryPool}: {@code cuMemAlloc}/{@code cuMemFree} on
 * a {@link CudaContext}.
 */
public interface DeviceAllocator {
  /**
   * @throws OutOfDeviceMemoryException when the device has no room for {@code bytes}
   */
  CUdeviceptr allocate(long bytes);

  void free(CUdeviceptr pointer);
}
