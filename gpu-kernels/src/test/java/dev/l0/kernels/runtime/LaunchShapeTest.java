package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link LaunchShape} and {@link ComputeCapability}: launch geometry and architecture names. */
class LaunchShapeTest {
  @Test
  void linearLaunchesCoverEveryElement() {
    assertEquals(new LaunchShape(4, 1, 1, 256, 1, 1), LaunchShape.linear(1000, 256));
    assertEquals(new LaunchShape(1, 1, 1, 256, 1, 1), LaunchShape.linear(1, 256));
    assertEquals(new LaunchShape(4, 1, 1, 256, 1, 1), LaunchShape.linear(1024, 256));
  }

  @Test
  void impossibleShapesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> LaunchShape.linear(0, 256));
    assertThrows(IllegalArgumentException.class, () -> LaunchShape.linear(1L << 40, 1));
    assertThrows(IllegalArgumentException.class, () -> new LaunchShape(1, 0, 1, 1, 1, 1));
  }

  @Test
  void capabilitiesNameTheirArchitectures() {
    ComputeCapability hopper = new ComputeCapability(9, 0);
    assertEquals("sm_90", hopper.smArchitecture());
    assertEquals("compute_90", hopper.computeArchitecture());
    assertEquals("sm_86", new ComputeCapability(8, 6).toString());
    assertThrows(IllegalArgumentException.class, () -> new ComputeCapability(0, 0));
  }
}
