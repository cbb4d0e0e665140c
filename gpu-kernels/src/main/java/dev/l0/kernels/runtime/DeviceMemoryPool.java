package dev.l0.kernels.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import jcuda.driver.CUdeviceptr;

/**
 * Reuses device allocations (ARCHITECTURE.md, "Runtime": a device buffer pool). A request is
 * rounded up to its size class: powers of two up to 1 MiB, then whole 2 MiB steps (the driver's
 * allocation granularity); a buffer given back waits for the next request of its class. When the
 * device is out of memory, the waiting buffers are freed and the allocation tried once more; if it
 * still fails, {@link OutOfDeviceMemoryException} tells the caller to split its work. Closing the
 * pool frees all its memory, lent or waiting. Thread-safe.
 */
public final class DeviceMemoryPool implements AutoCloseable {
  static final long SMALLEST_CLASS = 256;
  static final long POWER_OF_TWO_LIMIT = 1L << 20;
  static final long LARGE_STEP = 2L << 20;

  private final DeviceAllocator allocator;
  private final Map<Long, Deque<CUdeviceptr>> waitingByCapacity = new HashMap<>();
  private final Map<CUdeviceptr, Long> lent = new IdentityHashMap<>();
  private long bytesInUse;
  private long bytesWaiting;
  private boolean closed;

  public DeviceMemoryPool(DeviceAllocator allocator) {
    this.allocator = allocator;
  }

  /** The size class of a request of {@code bytes}. */
  static long capacityFor(long bytes) {
    if (bytes <= SMALLEST_CLASS) {
      return SMALLEST_CLASS;
    }
    if (bytes <= POWER_OF_TWO_LIMIT) {
      long power = Long.highestOneBit(bytes);
      return power == bytes ? bytes : power << 1;
    }
    return (bytes + LARGE_STEP - 1) / LARGE_STEP * LARGE_STEP;
  }

  /** A buffer of at least {@code bytes} bytes, reused where one of its class waits. */
  public synchronized DeviceBuffer allocate(long bytes) {
    if (closed) {
      throw new IllegalStateException("the device memory pool is closed");
    }
    if (bytes <= 0) {
      throw new IllegalArgumentException("a device buffer needs a positive size: " + bytes);
    }
    long capacity = capacityFor(bytes);
    Deque<CUdeviceptr> waiting = waitingByCapacity.get(capacity);
    CUdeviceptr pointer;
    if (waiting != null && !waiting.isEmpty()) {
      pointer = waiting.pop();
      bytesWaiting -= capacity;
    } else {
      pointer = allocateFresh(capacity);
    }
    lent.put(pointer, capacity);
    bytesInUse += capacity;
    return new DeviceBuffer(this, pointer, bytes, capacity);
  }

  private CUdeviceptr allocateFresh(long capacity) {
    try {
      return allocator.allocate(capacity);
    } catch (OutOfDeviceMemoryException e) {
      if (bytesWaiting == 0) {
        throw e;
      }
      freeWaiting();
      return allocator.allocate(capacity);
    }
  }

  synchronized void giveBack(CUdeviceptr pointer, long capacity) {
    if (lent.remove(pointer) == null) {
      return;
    }
    bytesInUse -= capacity;
    waitingByCapacity.computeIfAbsent(capacity, unused -> new ArrayDeque<>()).push(pointer);
    bytesWaiting += capacity;
  }

  /** Bytes of the buffers lent out now (their capacities). */
  public synchronized long bytesInUse() {
    return bytesInUse;
  }

  /** Bytes allocated on the device and waiting for reuse. */
  public synchronized long bytesWaiting() {
    return bytesWaiting;
  }

  /** Frees the buffers waiting for reuse. */
  public synchronized void freeWaiting() {
    for (Deque<CUdeviceptr> waiting : waitingByCapacity.values()) {
      waiting.forEach(allocator::free);
    }
    waitingByCapacity.clear();
    bytesWaiting = 0;
  }

  /** Frees all device memory of the pool, including buffers still lent out. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    freeWaiting();
    List<CUdeviceptr> stillLent = new ArrayList<>(lent.keySet());
    lent.clear();
    bytesInUse = 0;
    stillLent.forEach(allocator::free);
  }
}
