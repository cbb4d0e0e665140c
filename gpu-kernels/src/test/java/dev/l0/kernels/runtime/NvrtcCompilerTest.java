package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.cuda.NvccCompiler;
import org.junit.jupiter.api.Test;

/**
 * {@link NvrtcCompiler}: where {@code libnvrtc.so.12} is missing, the probe answers with that
 * reason, twice, without throwing; where it loads, it compiles PTX and reports compile errors.
 */
class NvrtcCompilerTest {
  @Test
  void withoutLibnvrtcTheReasonNamesIt() {
    Availability<PtxCompiler> answer = NvrtcCompiler.onThisMachine();
    assumeFalse(answer.isAvailable(), "NVRTC loads here: " + answer.description());
    assertTrue(answer.description().startsWith("NVRTC does not load ("), answer.description());
    assertTrue(
        answer.description().contains("libnvrtc.so.12") || answer.description().contains("JNvrtc"),
        answer.description());
    assertFalse(answer.description().contains("\n"));
    assertSame(answer, NvrtcCompiler.onThisMachine());
  }

  @Test
  void whereItLoadsItCompilesAndReportsErrors() {
    Availability<PtxCompiler> answer = NvrtcCompiler.onThisMachine();
    assumeTrue(answer.isAvailable(), answer.description());
    PtxCompiler nvrtc = answer.value().orElseThrow();
    Ptx ptx =
        nvrtc.compile(
            "extern \"C\" __global__ void twice(double *v) { v[threadIdx.x] *= 2.0; }",
            NvccCompiler.ARITHMETIC_OPTIONS,
            new ComputeCapability(8, 0));
    assertTrue(ptx.text().contains(".entry twice("), ptx.text());
    CudaCompileException error =
        assertThrows(
            CudaCompileException.class,
            () ->
                nvrtc.compile(
                    "extern \"C\" __global__ void broken(int *v) { v[0] = undeclared_name; }",
                    NvccCompiler.ARITHMETIC_OPTIONS,
                    new ComputeCapability(8, 0)));
    assertTrue(error.getMessage().contains("undeclared_name"), error.getMessage());
  }
}
