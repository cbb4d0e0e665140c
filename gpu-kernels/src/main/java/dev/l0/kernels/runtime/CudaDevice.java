package dev.l0.kernels.runtime;

import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;

import java.nio.charset.StandardCharsets;
import jcuda.driver.CUdevice;

/**
 * What the driver says about one GPU: its name, compute capability, memory and the driver's
 * CUDA version (e.g. 13000 for 13.0).
 */
public record CudaDevice(String name, ComputeCapability computeCapability, long totalMemoryBytes, int driverVersion) {
  /** Reads the description of {@code device} from an initialised driver. */
  static CudaDevice read(CUdevice device) {
    byte[] name = new byte[256];
    CudaDriverCall.run("cuDeviceGetName", () -> cuDeviceGetName(name, name.length, device));
    int[] major = new int[1];
    int[] minor = new int[1];
    CudaDriverCall.run("cuDeviceGetAttribute",
        () -> cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CudaDriverCall.run("cuDeviceGetAttribute",
        () -> cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    long[] memory = new long[1];
    CudaDriverCall.run("cuDeviceTotalMem", () -> cuDeviceTotalMem(memory, device));
    int[] version = new int[1];
    CudaDriverCall.run("cuDriverGetVersion", () -> cuDriverGetVersion(version));
    int length = 0;
    while (length < name.length && name[length] != 0) {
      length++;
    }
    return new CudaDevice(new String(name, 0, length, StandardCharsets.US_ASCII).strip(),
        new ComputeCapability(major[0], minor[0]), memory[0], version[0]);
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
