package dev.l0.kernels.runtime;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.kernels.cuda.CudaCompileException;
import dev.l0.kernels.cuda.NvccCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NvccPtxCompiler}: the target comes from the compute capability; the identity is nvcc's
 * release.
 */
class NvccPtxCompilerTest {
  private static final String KERNEL =
      "extern \"C\" __global__ void twice(double *v) { v[threadIdx.x] *= 2.0; }\n";

  @TempDir Path folder;

  @Test
  void compilesForTheRequestedCapability() {
    Availability<PtxCompiler> nvcc = NvccPtxCompiler.onThisMachine();
    assumeTrue(nvcc.isAvailable(), nvcc.description());
    PtxCompiler compiler = nvcc.value().orElseThrow();
    Ptx hopper =
        compiler.compile(KERNEL, NvccCompiler.ARITHMETIC_OPTIONS, new ComputeCapability(9, 0));
    Ptx ampere =
        compiler.compile(KERNEL, NvccCompiler.ARITHMETIC_OPTIONS, new ComputeCapability(8, 0));
    assertTrue(
        hopper.text().contains(".target sm_90") && hopper.text().contains(".entry twice("),
        hopper.text());
    assertTrue(ampere.text().contains(".target sm_80"), ampere.text());
    assertTrue(
        compiler.identity().startsWith("nvcc Cuda compilation tools, release "),
        compiler.identity());
  }

  @Test
  void optionsMayNotChooseTheTarget() throws IOException {
    NvccPtxCompiler compiler =
        new NvccPtxCompiler(
            script("echo 'Cuda compilation tools, release 99.9'\n"), Duration.ofSeconds(30));
    for (String option :
        List.of(
            "-arch=sm_80",
            "--gpu-architecture=compute_80",
            "-gencode=arch=compute_80,code=sm_80")) {
      assertThrows(
          IllegalArgumentException.class,
          () -> compiler.compile(KERNEL, List.of(option), new ComputeCapability(9, 0)),
          option);
    }
  }

  @Test
  void identityIsTheReleaseLineAndAFailingNvccIsACompileError() throws IOException {
    NvccPtxCompiler compiler =
        new NvccPtxCompiler(
            script(
                "if [ \"$1\" = --version ]; then printf 'nvcc: NVIDIA\\nCuda compilation tools, release 99.9, V99.9.1\\nBuild x\\n'; exit 0; fi\n"
                    + "echo 'l0_kernel.cu(1): error: bad' >&2; exit 2\n"),
            Duration.ofSeconds(30));
    assertTrue(
        compiler.identity().equals("nvcc Cuda compilation tools, release 99.9, V99.9.1, Build x"),
        compiler.identity());
    CudaCompileException error =
        assertThrows(
            CudaCompileException.class,
            () -> compiler.compile(KERNEL, List.of(), new ComputeCapability(9, 0)));
    assertTrue(
        error.getMessage().contains("-arch=sm_90") && error.getMessage().contains("error: bad"),
        error.getMessage());
  }

  private Path script(String body) throws IOException {
    Path path = folder.resolve("nvcc");
    Files.writeString(path, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    return path;
  }
}
