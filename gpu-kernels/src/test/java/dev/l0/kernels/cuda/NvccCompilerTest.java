package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NvccCompiler}: nvcc's diagnostics reach the exception, nvcc is found on the PATH before
 * the CUDA home folders, a hanging compiler is killed at its timeout. The real-nvcc tests are
 * skipped where nvcc is absent; the others use small shell scripts in nvcc's place.
 */
class NvccCompilerTest {
  @TempDir Path folder;

  @Test
  void compileErrorCarriesNvccsErrorLine() {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    assumeTrue(nvcc.isPresent(), "nvcc is not on the PATH nor in $CUDA_HOME/bin");
    String source =
        "extern \"C\" __global__ void broken(int *out) {\n  out[0] = undeclared_name;\n}\n";
    CudaCompileException error =
        assertThrows(
            CudaCompileException.class, () -> nvcc.get().compileToPtx(source, "broken_kernel"));
    assertTrue(
        error
            .getMessage()
            .contains("broken_kernel.cu(2): error: identifier \"undeclared_name\" is undefined"),
        error.getMessage());
  }

  @Test
  void validSourceGivesPtxWithTheEntry() {
    Optional<NvccCompiler> nvcc = NvccCompiler.onThisMachine();
    assumeTrue(nvcc.isPresent(), "nvcc is not on the PATH nor in $CUDA_HOME/bin");
    String ptx =
        nvcc.get()
            .compileToPtx(
                "extern \"C\" __global__ void twice(double *v) { v[threadIdx.x] *= 2.0; }\n",
                "twice");
    assertTrue(ptx.contains(".entry twice("), ptx);
    assertTrue(nvcc.get().version().contains("Cuda compilation tools"), nvcc.get().version());
  }

  @Test
  void failingCompilerOutputIsInTheMessage() throws IOException {
    Path fake =
        script("fake-nvcc", "echo \"kernel.cu(7): error: something is wrong\" >&2\nexit 3\n");
    NvccCompiler compiler =
        new NvccCompiler(fake, NvccCompiler.PRODUCT_OPTIONS, Duration.ofSeconds(30));
    CudaCompileException error =
        assertThrows(CudaCompileException.class, () -> compiler.compileToPtx("", "kernel"));
    assertTrue(error.getMessage().contains("exit 3"), error.getMessage());
    assertTrue(
        error.getMessage().contains("kernel.cu(7): error: something is wrong"), error.getMessage());
  }

  @Test
  void compilerThatSucceedsWithoutPtxIsAnError() throws IOException {
    Path fake = script("silent-nvcc", "exit 0\n");
    NvccCompiler compiler = new NvccCompiler(fake, List.of(), Duration.ofSeconds(30));
    CudaCompileException error =
        assertThrows(CudaCompileException.class, () -> compiler.compileToPtx("", "k"));
    assertTrue(error.getMessage().contains("no PTX"), error.getMessage());
  }

  @Test
  void hangingCompilerIsKilledAtTheTimeout() throws IOException {
    Path fake = script("hanging-nvcc", "sleep 60\n");
    NvccCompiler compiler = new NvccCompiler(fake, List.of(), Duration.ofMillis(500));
    long start = System.nanoTime();
    CudaCompileException error =
        assertThrows(CudaCompileException.class, () -> compiler.compileToPtx("", "k"));
    assertTrue(error.getMessage().contains("did not finish"), error.getMessage());
    assertTrue(
        System.nanoTime() - start < Duration.ofSeconds(30).toNanos(),
        "the compiler was not killed");
  }

  @Test
  void missingExecutableIsAClearError() {
    NvccCompiler compiler =
        new NvccCompiler(folder.resolve("no-such-nvcc"), List.of(), Duration.ofSeconds(5));
    CudaCompileException error =
        assertThrows(CudaCompileException.class, () -> compiler.compileToPtx("", "k"));
    assertTrue(error.getMessage().contains("cannot run"), error.getMessage());
  }

  @Test
  void nvccIsFoundOnThePathBeforeCudaHome() throws IOException {
    Path pathBin = Files.createDirectories(folder.resolve("path-bin"));
    Path cudaHome = folder.resolve("cuda");
    Path homeNvcc =
        script(Files.createDirectories(cudaHome.resolve("bin")).resolve("nvcc"), "exit 0\n");
    Path empty = Files.createDirectories(folder.resolve("empty"));

    assertEquals(
        Optional.of(homeNvcc),
        NvccCompiler.findExecutable(
            Map.of("PATH", empty.toString(), "CUDA_HOME", cudaHome.toString())));
    Path pathNvcc = script(pathBin.resolve("nvcc"), "exit 0\n");
    assertEquals(
        Optional.of(pathNvcc),
        NvccCompiler.findExecutable(
            Map.of(
                "PATH",
                empty + java.io.File.pathSeparator + pathBin,
                "CUDA_HOME",
                cudaHome.toString())));
  }

  @Test
  void nonPositiveTimeoutIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new NvccCompiler(folder.resolve("nvcc"), List.of(), Duration.ZERO));
  }

  private Path script(String name, String body) throws IOException {
    return script(folder.resolve(name), body);
  }

  private static Path script(Path path, String body) throws IOException {
    Files.writeString(path, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    return path;
  }
}
