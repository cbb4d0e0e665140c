package dev.l0.kernels.cudaexec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.ir.L0ConfigurationError;
import dev.l0.kernels.lower.LaunchConfiguration;
import dev.l0.kernels.runtime.Availability;
import dev.l0.kernels.runtime.ComputeCapability;
import dev.l0.kernels.runtime.CudaContext;
import dev.l0.kernels.runtime.CudaDevice;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The executor lowers for its device: as many blocks as the device's multiprocessors keep resident
 * at the executor's block size (by threads and by blocks), a block per row below twice that, and
 * the default configuration where there is no device.
 */
class CudaKernelExecutorLaunchConfigurationTest {
  private static final IntFunction<CudaContext> NO_CONTEXT =
      ordinal -> {
        throw new AssertionError("no context is needed to choose the launch configuration");
      };

  private static CudaDevice device(int multiprocessors, int maxThreadsPerMultiprocessor) {
    return device(multiprocessors, maxThreadsPerMultiprocessor, 32);
  }

  private static CudaDevice device(
      int multiprocessors, int maxThreadsPerMultiprocessor, int maxBlocksPerMultiprocessor) {
    return new CudaDevice(
        "Fake GPU",
        new ComputeCapability(9, 0),
        1L << 30,
        13000,
        multiprocessors,
        maxThreadsPerMultiprocessor,
        maxBlocksPerMultiprocessor,
        1000000,
        256);
  }

  private static LaunchConfiguration configurationOf(
      Availability<CudaDevice> device, int blockSize) {
    try (CudaKernelExecutor executor =
        new CudaKernelExecutor(
            0, device, Availability.unavailable("no compiler: test"), NO_CONTEXT, blockSize)) {
      return executor.launchConfiguration();
    }
  }

  private static LaunchConfiguration configurationOf(CudaDevice device, int blockSize) {
    return configurationOf(Availability.available(device, device.describe()), blockSize);
  }

  @Test
  void anH100AtTheDefaultBlockSizeHoldsEightBlocksOnEachOfItsMultiprocessors() {
    LaunchConfiguration h100 =
        configurationOf(device(132, 2048), CudaKernelExecutor.DEFAULT_BLOCK_SIZE);
    assertEquals(132 * 8, h100.maxBlocks());
    assertEquals(2 * 132 * 8, h100.segmentedRowsBelow());
    assertEquals(LaunchConfiguration.forDevice(132, 8), h100);
  }

  @Test
  void theBlocksPerMultiprocessorFollowTheBlockSize() {
    assertEquals(LaunchConfiguration.forDevice(40, 48), configurationOf(device(40, 1536, 64), 32));
    assertEquals(LaunchConfiguration.forDevice(40, 3), configurationOf(device(40, 1536), 512));
  }

  /**
   * Small blocks are held by the blocks a multiprocessor keeps resident, not by its threads: an
   * H100 holds 32 blocks of 32 threads, not 64; an sm_86 GPU 16 blocks of 64 threads, not 24.
   */
  @Test
  void theResidentBlocksLimitSmallBlocks() {
    assertEquals(LaunchConfiguration.forDevice(132, 32), configurationOf(device(132, 2048), 32));
    assertEquals(LaunchConfiguration.forDevice(132, 32), configurationOf(device(132, 2048), 64));
    assertEquals(LaunchConfiguration.forDevice(84, 16), configurationOf(device(84, 1536, 16), 64));
  }

  @Test
  void aBlockLargerThanAMultiprocessorHoldsStillRunsOneBlockOnEach() {
    assertEquals(LaunchConfiguration.forDevice(16, 1), configurationOf(device(16, 512), 1024));
  }

  @Test
  void withoutADeviceTheDefaultConfigurationIsUsed() {
    assertEquals(
        LaunchConfiguration.DEFAULT,
        configurationOf(
            Availability.unavailable("no CUDA driver (test)"),
            CudaKernelExecutor.DEFAULT_BLOCK_SIZE));
  }

  /**
   * {@code l0.cuda.blockRowsBelow} sets the rows below which rows that run loops run a block each,
   * the rest of the device's configuration unchanged; unset it is four rows per resident block; a
   * bad value is refused.
   */
  @Test
  void theBlockRowsPropertySetsTheBlockPerRowThreshold() {
    CudaDevice h100 = device(132, 2048);
    String before = System.getProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY);
    try {
      System.clearProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY);
      assertEquals(4 * 132 * 8, configurationOf(h100, 256).blockRowsBelow());
      for (long rows : new long[] {0, 100_000}) {
        System.setProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY, Long.toString(rows));
        assertEquals(
            LaunchConfiguration.forDevice(132, 8).withBlockRowsBelow(rows),
            configurationOf(h100, 256));
      }
      for (String bad : List.of("-1", "many")) {
        System.setProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY, bad);
        L0ConfigurationError error =
            assertThrows(L0ConfigurationError.class, () -> configurationOf(h100, 256), bad);
        assertTrue(error.getMessage().contains("l0.cuda.blockRowsBelow"), error.getMessage());
      }
    } finally {
      if (before == null) {
        System.clearProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY);
      } else {
        System.setProperty(CudaKernelExecutor.BLOCK_ROWS_BELOW_PROPERTY, before);
      }
    }
  }

  /** {@code l0.cuda.blockSize} sets the executor's threads per block; a bad value is refused. */
  @Test
  void theBlockSizePropertySetsTheThreadsPerBlock() {
    String before = System.getProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY);
    try {
      System.clearProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY);
      try (CudaKernelExecutor unset = CudaKernelExecutor.onThisMachine()) {
        assertEquals(CudaKernelExecutor.DEFAULT_BLOCK_SIZE, unset.blockSize());
      }
      System.setProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY, "64");
      try (CudaKernelExecutor set = CudaKernelExecutor.onThisMachine()) {
        assertEquals(64, set.blockSize());
      }
      for (String bad : List.of("48", "16", "2048", "many")) {
        System.setProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY, bad);
        L0ConfigurationError error =
            assertThrows(L0ConfigurationError.class, CudaKernelExecutor::onThisMachine, bad);
        assertTrue(
            error.getMessage().contains("l0.cuda.blockSize must be")
                && error.getMessage().endsWith("not '" + bad + "'"),
            error.getMessage());
      }
    } finally {
      if (before == null) {
        System.clearProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY);
      } else {
        System.setProperty(CudaKernelExecutor.BLOCK_SIZE_PROPERTY, before);
      }
    }
  }
}
