package dev.l0.kernels.api;

/**
 * What one run of a {@link CompiledProgram} spent: {@code kernelNanos} in its kernels (on the JVM
 * the generated kernel code, on a GPU the kernel groups without their copies), and the bytes and
 * nanoseconds of its copies between host and device memory ({@code transferBytes}, {@code
 * transferNanos}; both zero on the JVM). Host code between kernels (sizes, assertions) is in
 * neither.
 */
public record RunMeasurements(long kernelNanos, long transferBytes, long transferNanos) {
  public RunMeasurements {
    if (kernelNanos < 0 || transferBytes < 0 || transferNanos < 0) {
      throw new IllegalArgumentException(
          "measurements cannot be negative: kernelNanos "
              + kernelNanos
              + ", transferBytes "
              + transferBytes
              + ", transferNanos "
              + transferNanos);
    }
  }
}
