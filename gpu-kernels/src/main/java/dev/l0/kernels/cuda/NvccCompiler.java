package dev.l0.kernels.cuda;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Compiles CUDA C++ source to PTX by running {@code nvcc -ptx} in a private temporary folder. Used
 * where NVRTC is not available (ARCHITECTURE.md, "Runtime"): nvcc is found on the {@code PATH},
 * else in {@code $CUDA_HOME/bin}, {@code $CUDA_PATH/bin} or {@code /usr/local/cuda/bin}. The
 * product's options turn FMA contraction off so that device arithmetic rounds exactly as the JVM's
 * ({@link #PRODUCT_OPTIONS}). A rejected source raises a {@link CudaCompileException} carrying
 * nvcc's diagnostics; a compilation that outlives its timeout is killed.
 */
public final class NvccCompiler {
  /**
   * No fused multiply-add contraction; IEEE round-to-nearest f32 division and square root and f32
   * subnormals (nvcc's defaults, stated so that no later default or fast-math flag changes what the
   * JVM agrees with). NVRTC accepts the same flags; the target architecture is not among them.
   */
  public static final List<String> ARITHMETIC_OPTIONS =
      List.of("-fmad=false", "-prec-div=true", "-prec-sqrt=true", "-ftz=false");

  /** Hopper code with the {@link #ARITHMETIC_OPTIONS}. */
  public static final List<String> PRODUCT_OPTIONS =
      Stream.concat(Stream.of("-arch=sm_90"), ARITHMETIC_OPTIONS.stream()).toList();

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private static final String EXECUTABLE_NAME = "nvcc";
  private static final List<String> CUDA_HOME_VARIABLES = List.of("CUDA_HOME", "CUDA_PATH");
  private static final Path DEFAULT_CUDA_BIN = Path.of("/usr/local/cuda/bin");

  private final Path executable;
  private final List<String> options;
  private final Duration timeout;

  public NvccCompiler(Path executable, List<String> options, Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    this.executable = executable;
    this.options = List.copyOf(options);
    this.timeout = timeout;
  }

  /** nvcc of this machine with the product's options, or empty where there is none. */
  public static Optional<NvccCompiler> onThisMachine() {
    return findExecutable(System.getenv())
        .map(path -> new NvccCompiler(path, PRODUCT_OPTIONS, DEFAULT_TIMEOUT));
  }

  /**
   * The first executable nvcc on {@code PATH}, then in the CUDA home folders named by {@code
   * environment}.
   */
  static Optional<Path> findExecutable(Map<String, String> environment) {
    List<Path> folders = new ArrayList<>();
    String path = environment.getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        folders.add(Path.of(entry));
      }
    }
    for (String variable : CUDA_HOME_VARIABLES) {
      String home = environment.get(variable);
      if (home != null && !home.isEmpty()) {
        folders.add(Path.of(home, "bin"));
      }
    }
    folders.add(DEFAULT_CUDA_BIN);
    return folders.stream()
        .map(folder -> folder.resolve(EXECUTABLE_NAME))
        .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
        .findFirst();
  }

  public Path executable() {
    return executable;
  }

  public List<String> options() {
    return options;
  }

  /**
   * Compiles {@code source} to PTX. {@code sourceName} names the file nvcc sees (letters, digits
   * and underscores are kept), so diagnostics read {@code sourceName.cu(line): error: ...}.
   *
   * @throws CudaCompileException with nvcc's output when nvcc fails, times out or cannot run
   */
  public String compileToPtx(String source, String sourceName) {
    String stem = sourceName.replaceAll("[^A-Za-z0-9_]", "_");
    String sourceFile = (stem.isEmpty() ? "kernel" : stem) + ".cu";
    String ptxFile = "out.ptx";
    return inTemporaryFolder(
        folder -> {
          Files.writeString(folder.resolve(sourceFile), source, StandardCharsets.UTF_8);
          List<String> command = new ArrayList<>();
          command.add(executable.toString());
          command.add("-ptx");
          command.addAll(options);
          command.addAll(List.of("-o", ptxFile, sourceFile));
          String output = run(command, folder);
          Path ptx = folder.resolve(ptxFile);
          if (!Files.isRegularFile(ptx)) {
            throw new CudaCompileException(
                "nvcc produced no PTX for " + sourceFile + ":\n" + output);
          }
          return Files.readString(ptx, StandardCharsets.UTF_8);
        });
  }

  /** The output of {@code nvcc --version} (part of a compiled kernel's cache key). */
  public String version() {
    return inTemporaryFolder(
        folder -> run(List.of(executable.toString(), "--version"), folder).trim());
  }

  /**
   * Runs {@code command} in {@code folder}; returns its merged stdout and stderr if it exits with
   * 0.
   */
  private String run(List<String> command, Path folder) throws IOException {
    Path log = folder.resolve("nvcc.log");
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(folder.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new CudaCompileException("cannot run " + executable + ": " + e.getMessage(), e);
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new CudaCompileException(
            String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new CudaCompileException("interrupted while waiting for " + executable, e);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new CudaCompileException(
          "nvcc failed (exit "
              + process.exitValue()
              + "): "
              + String.join(" ", command)
              + "\n"
              + output);
    }
    return output;
  }

  /** A step that works in a folder and may fail with an I/O error. */
  private interface FolderWork<T> {
    T apply(Path folder) throws IOException;
  }

  private static <T> T inTemporaryFolder(FolderWork<T> work) {
    Path folder;
    try {
      folder = Files.createTempDirectory("l0-nvcc-");
    } catch (IOException e) {
      throw new CudaCompileException(
          "cannot create a temporary folder for nvcc: " + e.getMessage(), e);
    }
    try {
      return work.apply(folder);
    } catch (IOException e) {
      throw new CudaCompileException(
          "nvcc's files in " + folder + " could not be used: " + e.getMessage(), e);
    } finally {
      deleteRecursively(folder);
    }
  }

  /**
   * Best effort: a folder left behind in the temporary directory harms nothing, so it is not an
   * error.
   */
  private static void deleteRecursively(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      folder.toFile().deleteOnExit();
    }
  }
}
