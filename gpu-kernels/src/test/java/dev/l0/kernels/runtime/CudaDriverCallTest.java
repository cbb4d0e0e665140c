package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jcuda.CudaException;
import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;

/** {@link CudaDriverCall}: failed driver calls become exceptions carrying the CUresult name. */
class CudaDriverCallTest {
  @Test
  void successIsSilent() {
    assertDoesNotThrow(() -> CudaDriverCall.run("cuInit", () -> CUresult.CUDA_SUCCESS));
  }

  @Test
  void aFailureCodeCarriesItsName() {
    CudaDriverException error =
        assertThrows(
            CudaDriverException.class,
            () ->
                CudaDriverCall.run(
                    "cuModuleLoadData", () -> CUresult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION));
    assertEquals("CUDA_ERROR_UNSUPPORTED_PTX_VERSION", error.resultName());
    assertEquals("cuModuleLoadData", error.operation());
    assertEquals("cuModuleLoadData failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION", error.getMessage());
  }

  @Test
  void outOfMemoryIsItsOwnType() {
    CudaDriverException error =
        assertThrows(
            CudaDriverException.class,
            () -> CudaDriverCall.run("cuMemAlloc", () -> CUresult.CUDA_ERROR_OUT_OF_MEMORY));
    assertInstanceOf(OutOfDeviceMemoryException.class, error);
  }

  @Test
  void jcudasOwnExceptionIsMappedTheSameWay() {
    CudaDriverException error =
        assertThrows(
            CudaDriverException.class,
            () ->
                CudaDriverCall.run(
                    "cuMemAlloc",
                    () -> {
                      throw new CudaException(
                          CUresult.stringFor(CUresult.CUDA_ERROR_OUT_OF_MEMORY));
                    }));
    assertInstanceOf(OutOfDeviceMemoryException.class, error);
    CudaDriverException launch =
        assertThrows(
            CudaDriverException.class,
            () ->
                CudaDriverCall.run(
                    "cuLaunchKernel",
                    () -> {
                      throw new CudaException("CUDA_ERROR_LAUNCH_FAILED");
                    }));
    assertEquals("CUDA_ERROR_LAUNCH_FAILED", launch.resultName());
  }
}
