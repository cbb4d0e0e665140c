package dev.l0.kernels.runtime;

import java.util.concurrent.atomic.AtomicBoolean;
import jcuda.driver.CUdeviceptr;

/**
 * Device memory lent by a {@link DeviceMemoryPool}: at least {@link #bytes()} usable bytes in an
 * allocation of {@link #capacity()} bytes. Closing it gives the memory back to the pool, once.
 */
public final class DeviceBuffer implements AutoCloseable {
  private final DeviceMemoryPool pool;
  private final CUdeviceptr pointer;
  private final long bytes;
  private final long capacity;
  private final AtomicBoolean released = new AtomicBoolean();

  DeviceBuffer(DeviceMemoryPool pool, CUdeviceptr pointer, long bytes, long capacity) {
    this.pool = pool;
    this.pointer = pointer;
    this.bytes = bytes;
    this.capacity = capacity;
  }

  /** The device address, for copies and kernel arguments; only while the buffer is held. */
  public CUdeviceptr pointer() {
    if (released.get()) {
      throw new IllegalStateException(
          "device buffer of " + bytes + " bytes was already given back");
    }
    return pointer;
  }

  public long bytes() {
    return bytes;
  }

  public long capacity() {
    return capacity;
  }

  @Override
  public void close() {
    if (released.compareAndSet(false, true)) {
      pool.giveBack(pointer, capacity);
    }
  }
}
