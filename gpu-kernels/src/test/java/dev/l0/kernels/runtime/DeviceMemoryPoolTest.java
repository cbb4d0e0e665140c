package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.Test;

/** {@link DeviceMemoryPool} over an allocator that simulates a device of fixed size. */
class DeviceMemoryPoolTest {
  /** A device of {@code capacity} bytes: allocations beyond it are out of memory. */
  private static final class SimulatedDevice implements DeviceAllocator {
    private final long capacity;
    private final Map<CUdeviceptr, Long> live =
        Collections.synchronizedMap(new IdentityHashMap<>());
    private final List<Long> allocations = new ArrayList<>();
    private long used;

    SimulatedDevice(long capacity) {
      this.capacity = capacity;
    }

    @Override
    public synchronized CUdeviceptr allocate(long bytes) {
      if (used + bytes > capacity) {
        throw new OutOfDeviceMemoryException("cuMemAlloc of " + bytes + " bytes");
      }
      used += bytes;
      allocations.add(bytes);
      CUdeviceptr pointer = new CUdeviceptr();
      live.put(pointer, bytes);
      return pointer;
    }

    @Override
    public synchronized void free(CUdeviceptr pointer) {
      Long bytes = live.remove(pointer);
      if (bytes == null) {
        throw new AssertionError("freed twice or never allocated");
      }
      used -= bytes;
    }
  }

  @Test
  void sizeClassesArePowersOfTwoThenTwoMebibyteSteps() {
    assertEquals(256, DeviceMemoryPool.capacityFor(1));
    assertEquals(256, DeviceMemoryPool.capacityFor(256));
    assertEquals(512, DeviceMemoryPool.capacityFor(257));
    assertEquals(1 << 20, DeviceMemoryPool.capacityFor((1 << 19) + 1));
    assertEquals(1 << 20, DeviceMemoryPool.capacityFor(1 << 20));
    assertEquals(2 << 20, DeviceMemoryPool.capacityFor((1 << 20) + 1));
    assertEquals(6L << 20, DeviceMemoryPool.capacityFor((4L << 20) + 1));
  }

  @Test
  void aReleasedBufferIsReusedForARequestOfItsClass() {
    SimulatedDevice device = new SimulatedDevice(1 << 30);
    try (DeviceMemoryPool pool = new DeviceMemoryPool(device)) {
      DeviceBuffer first = pool.allocate(1000);
      CUdeviceptr address = first.pointer();
      assertEquals(1024, first.capacity());
      assertEquals(1024, pool.bytesInUse());
      first.close();
      assertEquals(0, pool.bytesInUse());
      assertEquals(1024, pool.bytesWaiting());
      DeviceBuffer second = pool.allocate(900);
      assertSame(address, second.pointer());
      assertEquals(900, second.bytes());
      DeviceBuffer third = pool.allocate(5000);
      assertNotSame(address, third.pointer());
      assertEquals(List.of(1024L, 8192L), device.allocations);
      assertEquals(1024 + 8192, pool.bytesInUse());
    }
  }

  @Test
  void closingABufferTwiceGivesItBackOnce() {
    SimulatedDevice device = new SimulatedDevice(1 << 30);
    try (DeviceMemoryPool pool = new DeviceMemoryPool(device)) {
      DeviceBuffer buffer = pool.allocate(300);
      buffer.close();
      buffer.close();
      assertEquals(512, pool.bytesWaiting());
      assertThrows(IllegalStateException.class, buffer::pointer);
      DeviceBuffer a = pool.allocate(300);
      DeviceBuffer b = pool.allocate(300);
      assertNotSame(a.pointer(), b.pointer(), "one waiting buffer was lent twice");
    }
  }

  @Test
  void outOfMemoryFreesWaitingBuffersAndRetries() {
    SimulatedDevice device = new SimulatedDevice(4 << 20);
    try (DeviceMemoryPool pool = new DeviceMemoryPool(device)) {
      pool.allocate(2 << 20).close();
      pool.allocate(1 << 20).close();
      assertEquals(3 << 20, pool.bytesWaiting());
      DeviceBuffer large = pool.allocate(4 << 20);
      assertEquals(4 << 20, large.capacity());
      assertEquals(0, pool.bytesWaiting());
      assertEquals(4L << 20, device.used);
    }
  }

  @Test
  void outOfMemoryWithNothingToFreeReachesTheCaller() {
    SimulatedDevice device = new SimulatedDevice(4 << 20);
    try (DeviceMemoryPool pool = new DeviceMemoryPool(device)) {
      DeviceBuffer held = pool.allocate(3 << 20);
      OutOfDeviceMemoryException error =
          assertThrows(OutOfDeviceMemoryException.class, () -> pool.allocate(2 << 20));
      assertEquals("CUDA_ERROR_OUT_OF_MEMORY", error.resultName());
      assertEquals(4L << 20, pool.bytesInUse());
      held.close();
    }
  }

  @Test
  void closingThePoolFreesEverythingOnce() {
    SimulatedDevice device = new SimulatedDevice(1 << 30);
    DeviceMemoryPool pool = new DeviceMemoryPool(device);
    DeviceBuffer lent = pool.allocate(10_000);
    pool.allocate(3 << 20).close();
    pool.close();
    assertEquals(0, device.used);
    assertTrue(device.live.isEmpty());
    lent.close();
    pool.close();
    assertEquals(0, pool.bytesInUse());
    assertThrows(IllegalStateException.class, () -> pool.allocate(1));
  }

  @Test
  void nonPositiveSizesAreRejected() {
    try (DeviceMemoryPool pool = new DeviceMemoryPool(new SimulatedDevice(1 << 20))) {
      assertThrows(IllegalArgumentException.class, () -> pool.allocate(0));
    }
  }
}
