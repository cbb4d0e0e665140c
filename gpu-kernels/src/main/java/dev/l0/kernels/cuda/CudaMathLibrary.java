package dev.l0.kernels.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The CUDA math library {@code l0_math.cuh}: device functions {@code l0_exp}, {@code l0_log},
 * {@code l0_pow}, {@code l0_sin}, {@code l0_cos}, {@code l0_erf}, {@code l0_sqrt}, {@code l0_floor}
 * and their f32 versions ({@code l0_expf}, ...), which compute fdlibm's algorithms step for step so
 * that kernels produce {@link StrictMath}'s (and {@code dev.l0.math.L0Math}'s) results bit for bit
 * (ARCHITECTURE.md, "Kernels").
 *
 * <p>Code generators paste {@link #header()} in front of a kernel's source; the result must be
 * compiled without FMA contraction ({@code nvcc -fmad=false}, see {@link NvccCompiler}).
 */
public final class CudaMathLibrary {
  /** Class-path location of the header. */
  public static final String RESOURCE = "/dev/l0/kernels/cuda/l0_math.cuh";

  private static final String HEADER = load();

  private CudaMathLibrary() {}

  /** The header's text: CUDA C++ that also compiles as host C99/C++. */
  public static String header() {
    return HEADER;
  }

  private static String load() {
    try (InputStream in = CudaMathLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
