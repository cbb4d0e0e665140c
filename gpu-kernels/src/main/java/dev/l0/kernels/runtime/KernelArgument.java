package dev.l0.kernels.runtime;

import jcuda.Pointer;

/**
 * One argument of a kernel launch, as the pointer to its value that {@code cuLaunchKernel} takes.
 */
public final class KernelArgument {
  private final Pointer pointer;

  private KernelArgument(Pointer pointer) {
    this.pointer = pointer;
  }

  /** The device address of {@code buffer} (a {@code T *} parameter). */
  public static KernelArgument of(DeviceBuffer buffer) {
    return new KernelArgument(Pointer.to(buffer.pointer()));
  }

  /** A C++ {@code bool} parameter: one byte, 1 for true. */
  public static KernelArgument ofBoolean(boolean value) {
    return new KernelArgument(Pointer.to(new byte[] {(byte) (value ? 1 : 0)}));
  }

  public static KernelArgument ofInt(int value) {
    return new KernelArgument(Pointer.to(new int[] {value}));
  }

  public static KernelArgument ofLong(long value) {
    return new KernelArgument(Pointer.to(new long[] {value}));
  }

  public static KernelArgument ofFloat(float value) {
    return new KernelArgument(Pointer.to(new float[] {value}));
  }

  public static KernelArgument ofDouble(double value) {
    return new KernelArgument(Pointer.to(new double[] {value}));
  }

  Pointer pointer() {
    return pointer;
  }
}
