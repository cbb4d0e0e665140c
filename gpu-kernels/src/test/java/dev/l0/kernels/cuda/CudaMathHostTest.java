package dev.l0.kernels.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * l0_math.cuh compiled as host C (gcc, no FMA contraction) gives the JVM's results bit for bit:
 * every routine over 200,000 arguments from {@link CudaMathInputs}, compared with {@code
 * dev.l0.math.L0Math} (StrictMath; fdlibm's s_erf.c for erf). Any NaN equals any NaN. Skipped where
 * gcc is absent.
 */
class CudaMathHostTest {
  private static final int INPUTS_PER_ROUTINE = 200_000;

  private static final String DRIVER_MAIN =
      String.join(
          "\n",
          "#include <stdio.h>",
          "#include <stdlib.h>",
          "/* Reads (first, second) double bit patterns from stdin, writes result bit patterns to stdout. */",
          "int main(int argc, char **argv) {",
          "  unsigned long long pair[2];",
          "  int routine;",
          "  if (argc != 2) return 2;",
          "  routine = atoi(argv[1]);",
          "  while (fread(pair, sizeof pair[0], 2, stdin) == 2) {",
          "    unsigned long long result = "
              + CudaMathCheckSource.APPLY_FUNCTION_NAME
              + "(routine, pair[0], pair[1]);",
          "    if (fwrite(&result, sizeof result, 1, stdout) != 1) return 1;",
          "  }",
          "  return 0;",
          "}",
          "");

  @TempDir static Path folder;
  private static Path checkProgram;

  @BeforeAll
  static void compileCheckProgram() throws Exception {
    Optional<Path> gcc = onPath("gcc");
    assumeTrue(
        gcc.isPresent(), "gcc is not on the PATH: the host build of l0_math.cuh is not checked");
    Path source = folder.resolve("l0_math_check.c");
    Files.writeString(
        source, CudaMathCheckSource.applyFunction() + DRIVER_MAIN, StandardCharsets.UTF_8);
    checkProgram = folder.resolve("l0_math_check");
    String output =
        run(
            List.of(
                gcc.get().toString(),
                "-O2",
                "-ffp-contract=off",
                "-std=c99",
                "-Wall",
                "-o",
                checkProgram.toString(),
                source.toString(),
                "-lm"),
            null,
            null);
    assertTrue(Files.isExecutable(checkProgram), "gcc produced no program:\n" + output);
  }

  static Stream<CudaMathRoutine> routines() {
    return CudaMathRoutine.ALL.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("routines")
  void hostResultsEqualTheJvms(CudaMathRoutine routine) throws Exception {
    CudaMathInputs inputs = CudaMathInputs.forRoutine(routine, INPUTS_PER_ROUTINE);
    CudaMathComparison comparison =
        CudaMathComparison.of(routine, inputs, runOnHost(routine, inputs));
    assertEquals(
        0,
        comparison.mismatches(),
        comparison.mismatches()
            + " of "
            + comparison.inputs()
            + " differ; first: "
            + comparison.firstMismatch().orElse(""));
  }

  @Test
  void headerCompilesAsCppAndWithoutWarnings() throws Exception {
    Optional<Path> gpp = onPath("g++");
    assumeTrue(gpp.isPresent(), "g++ is not on the PATH");
    Path source = folder.resolve("l0_math_check.cpp");
    Files.writeString(
        source, CudaMathCheckSource.applyFunction() + DRIVER_MAIN, StandardCharsets.UTF_8);
    String output =
        run(
            List.of(
                gpp.get().toString(),
                "-O2",
                "-ffp-contract=off",
                "-Wall",
                "-Wextra",
                "-o",
                folder.resolve("l0_math_check_cpp").toString(),
                source.toString()),
            null,
            null);
    assertEquals("", output.trim(), "g++ diagnostics");
  }

  private static long[] runOnHost(CudaMathRoutine routine, CudaMathInputs inputs) throws Exception {
    Path in = folder.resolve(routine.cName() + ".in");
    Path out = folder.resolve(routine.cName() + ".out");
    ByteBuffer arguments = ByteBuffer.allocate(inputs.size() * 16).order(ByteOrder.nativeOrder());
    for (int i = 0; i < inputs.size(); i++) {
      arguments.putLong(inputs.first(i)).putLong(inputs.second(i));
    }
    Files.write(in, arguments.array());
    run(List.of(checkProgram.toString(), Integer.toString(routine.id())), in, out);
    ByteBuffer results = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.nativeOrder());
    long[] bits = new long[results.remaining() / Long.BYTES];
    results.asLongBuffer().get(bits);
    return bits;
  }

  /**
   * Runs a command (stdin and stdout from and to files when given); returns its diagnostics,
   * failing on a non-zero exit.
   */
  private static String run(List<String> command, Path stdin, Path stdout)
      throws IOException, InterruptedException {
    Path errors = Files.createTempFile(folder, "stderr", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command);
    if (stdin != null) {
      builder.redirectInput(stdin.toFile());
    }
    if (stdout != null) {
      builder.redirectOutput(stdout.toFile()).redirectError(errors.toFile());
    } else {
      builder.redirectErrorStream(true).redirectOutput(errors.toFile());
    }
    Process process = builder.start();
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "timed out: " + command);
    String diagnostics = Files.readString(errors, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), command + " failed:\n" + diagnostics);
    return diagnostics;
  }

  private static Optional<Path> onPath(String program) {
    for (String entry :
        System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(entry, program);
      if (!entry.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
