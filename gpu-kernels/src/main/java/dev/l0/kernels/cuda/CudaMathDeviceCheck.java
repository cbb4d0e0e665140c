package dev.l0.kernels.cuda;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * Runs every routine of {@code l0_math.cuh} on GPU 0 over {@link CudaMathInputs} and compares the
 * result bits with the JVM's, printing one JSON line per routine: {@code {"device": ...,
 * "function": ..., "inputs": n, "mismatches": m}}.
 *
 * <p>Usage: {@code CudaMathDeviceCheck [kernel.ptx] [inputs-per-routine]}. The PTX is that of
 * {@link CudaMathCheckSource#kernel()}; without it the kernel is compiled with this machine's nvcc.
 * On a machine without a CUDA driver or device it prints one line saying so and exits 0; it exits 1
 * when any result differs, 2 when it cannot get PTX.
 */
public final class CudaMathDeviceCheck {
  private static final int DEFAULT_INPUTS = 200_000;
  private static final int THREADS_PER_BLOCK = 256;
  private static final int MAX_BLOCKS = 1024;

  private CudaMathDeviceCheck() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args));
  }

  static int run(String[] args) throws IOException {
    String device;
    try {
      device = openDevice();
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      System.out.println(
          "CudaMathDeviceCheck: no CUDA driver on this machine ("
              + firstLine(e)
              + "); nothing checked");
      return 0;
    } catch (CudaException e) {
      System.out.println(
          "CudaMathDeviceCheck: no usable CUDA device (" + firstLine(e) + "); nothing checked");
      return 0;
    }
    Optional<String> ptx =
        args.length > 0
            ? Optional.of(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8))
            : compileHere();
    if (ptx.isEmpty()) {
      System.out.println(
          "CudaMathDeviceCheck: give the PTX of CudaMathCheckSource.kernel() as the first argument (no nvcc here)");
      return 2;
    }
    int count = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_INPUTS;
    CUmodule module = new CUmodule();
    cuModuleLoadData(module, ptx.get());
    CUfunction kernel = new CUfunction();
    cuModuleGetFunction(kernel, module, CudaMathCheckSource.KERNEL_NAME);
    boolean allEqual = true;
    for (CudaMathRoutine routine : CudaMathRoutine.ALL) {
      CudaMathInputs inputs = CudaMathInputs.forRoutine(routine, count);
      CudaMathComparison comparison =
          CudaMathComparison.of(routine, inputs, runOnDevice(kernel, routine, inputs));
      System.out.println(comparison.toJson(device));
      allEqual &= comparison.mismatches() == 0;
    }
    return allEqual ? 0 : 1;
  }

  /** Initialises the driver, makes a context current on device 0 and returns the device's name. */
  private static String openDevice() {
    JCudaDriver.setExceptionsEnabled(true);
    cuInit(0);
    CUdevice device = new CUdevice();
    cuDeviceGet(device, 0);
    byte[] name = new byte[256];
    cuDeviceGetName(name, name.length, device);
    cuCtxCreate(new CUcontext(), 0, device);
    int length = 0;
    while (length < name.length && name[length] != 0) {
      length++;
    }
    return new String(name, 0, length, StandardCharsets.US_ASCII);
  }

  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage()).strip();
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end).strip();
  }

  private static Optional<String> compileHere() {
    return NvccCompiler.onThisMachine()
        .map(
            nvcc ->
                nvcc.compileToPtx(CudaMathCheckSource.kernel(), CudaMathCheckSource.KERNEL_NAME));
  }

  private static long[] runOnDevice(
      CUfunction kernel, CudaMathRoutine routine, CudaMathInputs inputs) {
    int n = inputs.size();
    long bytes = (long) n * Sizeof.LONG;
    CUdeviceptr first = new CUdeviceptr();
    CUdeviceptr second = new CUdeviceptr();
    CUdeviceptr result = new CUdeviceptr();
    cuMemAlloc(first, bytes);
    cuMemAlloc(second, bytes);
    cuMemAlloc(result, bytes);
    try {
      cuMemcpyHtoD(first, Pointer.to(inputs.firstBits()), bytes);
      cuMemcpyHtoD(second, Pointer.to(inputs.secondBits()), bytes);
      Pointer parameters =
          Pointer.to(
              Pointer.to(new int[] {routine.id()}),
              Pointer.to(first),
              Pointer.to(second),
              Pointer.to(result),
              Pointer.to(new int[] {n}));
      int blocks =
          Math.max(1, Math.min(MAX_BLOCKS, (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK));
      cuLaunchKernel(kernel, blocks, 1, 1, THREADS_PER_BLOCK, 1, 1, 0, null, parameters, null);
      cuCtxSynchronize();
      long[] results = new long[n];
      cuMemcpyDtoH(Pointer.to(results), result, bytes);
      return results;
    } finally {
      cuMemFree(first);
      cuMemFree(second);
      cuMemFree(result);
    }
  }
}
