package dev.l0.kernels.runtime;

import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;

import java.nio.charset.StandardCharsets;
import jcuda.driver.CUdevice;

/**
 * What the driver says about one GPU: its name, compute capability, memory, the driver's CUDA
 * version (e.g. 13000 for 13.0), its multiprocessors and the threads and blocks each keeps resident
 * (2,048 and 32 on an H100), and its memory clock (kHz) and bus width (bits), from which {@link
 * #peakMemoryBytesPerSecond} follows.
 */
public record CudaDevice(
    String name,
    ComputeCapability computeCapability,
    long totalMemoryBytes,
    int driverVersion,
    int multiprocessors,
    int maxThreadsPerMultiprocessor,
    int maxBlocksPerMultiprocessor,
    int memoryClockKhz,
    int memoryBusWidthBits) {
  /** Reads the description of {@code device} from an initialised driver. */
  static CudaDevice read(CUdevice device) {
    byte[] name = new byte[256];
    CudaDriverCall.run("cuDeviceGetName", () -> cuDeviceGetName(name, name.length, device));
    long[] memory = new long[1];
    CudaDriverCall.run("cuDeviceTotalMem", () -> cuDeviceTotalMem(memory, device));
    int[] version = new int[1];
    CudaDriverCall.run("cuDriverGetVersion", () -> cuDriverGetVersion(version));
    int length = 0;
    while (length < name.length && name[length] != 0) {
      length++;
    }
    return new CudaDevice(
        new String(name, 0, length, StandardCharsets.US_ASCII).strip(),
        new ComputeCapability(
            attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)),
        memory[0],
        version[0],
        attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
        attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
        attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
        attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
        attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
  }

  private static int attribute(CUdevice device, int attribute) {
    int[] value = new int[1];
    CudaDriverCall.run(
        "cuDeviceGetAttribute", () -> cuDeviceGetAttribute(value, attribute, device));
    return value[0];
  }

  /** The peak memory bandwidth: two transfers per memory clock over the whole bus. */
  public double peakMemoryBytesPerSecond() {
    return 2.0 * memoryClockKhz * 1000.0 * memoryBusWidthBits / 8.0;
  }

  /** The driver's CUDA version as {@code major.minor}, e.g. {@code 13.0}. */
  public String driverVersionText() {
    return driverVersion / 1000 + "." + driverVersion % 1000 / 10;
  }

  /** The device as the chosen-device line names it: {@code NVIDIA H100 80GB HBM3 (sm_90)}. */
  public String describe() {
    return name + " (" + computeCapability + ")";
  }
}
