package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.kernels.cuda.CudaCompileException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link JvmFallback}: GPU failures give the JVM's result and one log line with the reason; others
 * pass through.
 */
class JvmFallbackTest {
  @Test
  void aWorkingGpuPathIsUsedAndNothingIsLogged() {
    try (LogRecorder log = new LogRecorder(JvmFallback.class)) {
      assertEquals("gpu", JvmFallback.run("map", () -> "gpu", () -> "jvm"));
      assertEquals(List.of(), log.lines());
    }
  }

  @Test
  void eachGpuFailureFallsBackWithOneLineSayingWhy() {
    List<Supplier<String>> failures =
        List.of(
            () -> {
              throw new UnsatisfiedLinkError(
                  "x: libcuda.so.1: cannot open shared object file: No such file");
            },
            () -> {
              throw new CudaCompileException("nvcc failed (exit 2)\nl0_kernel.cu(3): error");
            },
            () -> {
              throw new OutOfDeviceMemoryException("cuMemAlloc of 1024 bytes");
            },
            () -> {
              throw CudaDriverException.of(
                  "cuModuleLoadData", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
            });
    List<String> reasons =
        List.of(
            "no CUDA driver (UnsatisfiedLinkError: libcuda.so.1",
            "kernel compilation failed",
            "out of device memory",
            "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
    for (int i = 0; i < failures.size(); i++) {
      try (LogRecorder log = new LogRecorder(JvmFallback.class)) {
        assertEquals("jvm", JvmFallback.run("map", failures.get(i), () -> "jvm"));
        assertEquals(1, log.lines().size(), log.lines().toString());
        String line = log.lines().get(0);
        assertTrue(
            line.startsWith("map: running on the JVM: ")
                && line.contains(reasons.get(i))
                && !line.contains("\n"),
            line);
      }
    }
  }

  @Test
  void aFailureOfTheProgramItselfIsNotHidden() {
    assertThrows(
        ArithmeticException.class,
        () ->
            JvmFallback.run(
                "map",
                () -> {
                  throw new ArithmeticException("division by zero");
                },
                () -> "jvm"));
  }
}
