package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code l0 run --exact-sums}: a sum that cancels is exact on the evaluator, the JVM backend and
 * the simulator.
 */
class RunExactSumsTest {
  private static final String CANCELLING = "[1e16, 1.0, -1e16, 1.0]";

  @TempDir Path dir;

  private String[] run(Path program, String... options) {
    return runOn(CANCELLING, program, options);
  }

  private String[] runOn(String input, Path program, String... options) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] args = new String[options.length + 2];
    args[0] = "run";
    args[1] = program.toString();
    System.arraycopy(options, 0, args, 2, options.length);
    int code =
        Main.execute(
            args,
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {
      String.valueOf(code),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void exactSumsGiveTheCorrectlyRoundedSumOnEveryDeviceWhereTheFoldDoesNot() throws IOException {
    Path program =
        Files.writeString(dir.resolve("sum.l0"), "fun f64 main([f64] x) = reduce(op +, 0.0, x)\n");

    String[] ordinary = run(program, "--device", "jvm");
    String[] evaluator = run(program, "--exact-sums");
    String[] jvm = run(program, "--device", "jvm", "--exact-sums");
    String[] sim = run(program, "--device", "sim", "--exact-sums");

    assertEquals("1.0\n", ordinary[1], ordinary[2]);
    for (String[] exact : new String[][] {evaluator, jvm, sim}) {
      assertEquals("0", exact[0], exact[2]);
      assertEquals("2.0\n", exact[1]);
      assertTrue(
          exact[2].contains(
              "exact float sums: result 1 (at " + program + ":1:25, f64): exact float sum"),
          exact[2]);
    }
  }

  @Test
  void exactSumsOfAProgramWithoutAFloatSumAreAnErrorAtTheEntry() throws IOException {
    Path program =
        Files.writeString(dir.resolve("max.l0"), "fun f64 main([f64] x) = reduce(op *, 1.0, x)\n");

    String[] outcome = run(program, "--exact-sums");

    assertEquals(String.valueOf(Main.EXIT_PROGRAM_ERROR), outcome[0], outcome[2]);
    assertTrue(
        outcome[2].contains(program + ":1:1: exact float sums: no result of 'main' is a float sum"),
        outcome[2]);
  }

  @Test
  void anExactSumThatOverflowsIsARunTimeErrorAtItsReduceOnEveryDevice() throws IOException {
    Path program =
        Files.writeString(
            dir.resolve("big.l0"), "fun f64 main([f64] x) =\n  reduce(op +, 0.0, x)\n");
    for (String[] options :
        new String[][] {
          {"--no-opt", "--exact-sums"},
          {"--exact-sums"},
          {"--device", "jvm", "--exact-sums"},
          {"--device", "sim", "--exact-sums"}
        }) {
      String[] outcome = runOn("[1e308, 1e308]", program, options);
      assertEquals(String.valueOf(Main.EXIT_RUNTIME_ERROR), outcome[0], outcome[2]);
      assertTrue(
          outcome[2].endsWith(
              "run-time error: "
                  + program
                  + ":2:3: reduce: exact sum: intermediate overflow (the sum's magnitude passes "
                  + Double.MAX_VALUE
                  + ")\n"),
          outcome[2]);
    }
  }
}
