package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.cuda.NvccCompiler;
import org.junit.jupiter.api.Test;

/**
 * {@link PtxCompilers}: NVRTC first, else nvcc, else none with both reasons; and the choice on this
 * machine.
 */
class PtxCompilersTest {
  private static final PtxCompiler NVRTC = new CountingCompiler("nvrtc 12.6");
  private static final PtxCompiler NVCC = new CountingCompiler("nvcc 13.0");

  @Test
  void nvrtcIsPreferredAndNvccIsNotAsked() {
    Availability<PtxCompiler> nvrtc = Availability.available(NVRTC, "nvrtc 12.6");
    Availability<PtxCompiler> chosen =
        PtxCompilers.choose(
            nvrtc,
            () -> {
              throw new AssertionError("nvcc was asked although NVRTC loads");
            });
    assertSame(nvrtc, chosen);
  }

  @Test
  void withoutNvrtcNvccIsChosenAndTheReasonKept() {
    Availability<PtxCompiler> chosen =
        PtxCompilers.choose(
            Availability.unavailable("NVRTC does not load (libnvrtc.so.12 missing)"),
            () -> Availability.available(NVCC, "nvcc 13.0 at /usr/bin/nvcc"));
    assertSame(NVCC, chosen.value().orElseThrow());
    assertEquals(
        "nvcc 13.0 at /usr/bin/nvcc; NVRTC does not load (libnvrtc.so.12 missing)",
        chosen.description());
  }

  @Test
  void withNeitherThereIsNoneWithBothReasons() {
    Availability<PtxCompiler> chosen =
        PtxCompilers.choose(
            Availability.unavailable("NVRTC does not load"),
            () -> Availability.unavailable("no nvcc on the PATH"));
    assertFalse(chosen.isAvailable());
    assertEquals(
        "no CUDA compiler: NVRTC does not load; no nvcc on the PATH", chosen.description());
  }

  @Test
  void withoutLibnvrtcThisMachineUsesNvcc() {
    assumeFalse(NvrtcCompiler.onThisMachine().isAvailable(), "NVRTC loads here");
    assumeTrue(NvccCompiler.onThisMachine().isPresent(), "no nvcc here");
    Availability<PtxCompiler> chosen = PtxCompilers.onThisMachine();
    assertInstanceOf(NvccPtxCompiler.class, chosen.value().orElseThrow());
    assertTrue(chosen.description().contains("NVRTC does not load"), chosen.description());
    assertSame(chosen, PtxCompilers.onThisMachine());
  }
}
