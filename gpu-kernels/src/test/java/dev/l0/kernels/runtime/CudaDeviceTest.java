package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link CudaDevice}'s derived figures: peak memory bandwidth and the driver version text. */
class CudaDeviceTest {
  @Test
  void peakBandwidthIsTwoTransfersPerMemoryClockOverTheBus() {
    CudaDevice h100 =
        new CudaDevice(
            "NVIDIA H100 80GB HBM3",
            new ComputeCapability(9, 0),
            85L << 30,
            13000,
            132,
            2048,
            32,
            2619000,
            5120);
    assertEquals(2 * 2.619e9 * 5120 / 8, h100.peakMemoryBytesPerSecond(), 1.0);
    assertEquals(3.352e12, h100.peakMemoryBytesPerSecond(), 1e9);
    assertEquals("13.0", h100.driverVersionText());
  }
}
