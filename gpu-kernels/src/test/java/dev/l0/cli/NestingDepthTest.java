package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.l0.types.NestingLimit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deep nesting gets the same verdict on every run: a program the checker accepts optimises and runs
 * in every mode, and one nested beyond {@link NestingLimit#MAX_DEPTH} is refused with the same
 * message. (The verdicts used to rest on catching StackOverflowError, which depends on the JIT.)
 */
class NestingDepthTest {
  private static final int RUNS = 20;

  @TempDir Path dir;

  /**
   * {@code n} chained lets: {@code let a0 = x + 1 in let a1 = a0 + 1 in ... a(n-1)}, so main(x) = x
   * + n.
   */
  private static String chainedLets(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n  let a0 = x + 1 in\n");
    for (int i = 1; i < n; i++) {
      text.append("  let a").append(i).append(" = a").append(i - 1).append(" + 1 in\n");
    }
    return text.append("  a").append(n - 1).append('\n').toString();
  }

  /** An else-if chain of {@code n} branches: main(x) = 2x for 0 <= x < n, else -1. */
  private static String elseIfChain(int n) {
    StringBuilder text = new StringBuilder("fun i32 main(i32 x) =\n");
    for (int i = 0; i < n; i++) {
      text.append("  if x = ").append(i).append(" then ").append(2 * i).append(" else\n");
    }
    return text.append("  -1\n").toString();
  }

  /** {@code n} nested parentheses around a negation each: main(x) = -x or x. */
  private static String nestedNegations(int n) {
    return "fun i32 main(i32 x) = " + "-(".repeat(n) + "x" + ")".repeat(n) + "\n";
  }

  private String write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file.toString();
  }

  /** Exit code, standard output and standard error of one in-process command line. */
  private static String l0(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.execute(
            args,
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return "exit "
        + code
        + "\n"
        + out.toString(StandardCharsets.UTF_8)
        + err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void deepNestingGetsTheSameVerdictOnEveryRun() throws IOException {
    String lets = write("lets.l0", chainedLets(1000));
    String branches = write("branches.l0", elseIfChain(1000));
    String negations = write("negations.l0", nestedNegations(1000));
    String tooDeep = write("toodeep.l0", chainedLets(NestingLimit.MAX_DEPTH));
    List<String> expected =
        List.of(
            "exit 0\n" + lets + ": ok (1 function)\n",
            "exit 0\n1007\n",
            "exit 0\n1007\ndevice: jvm: requested\n",
            "exit 0\n1007\ndevice: sim: SIMT simulator, blocks of 32 threads\n",
            "exit 0\n" + branches + ": ok (1 function)\n",
            "exit 0\n574\n",
            "exit 0\n574\ndevice: jvm: requested\n",
            "exit 0\n574\ndevice: sim: SIMT simulator, blocks of 32 threads\n",
            "exit 0\n-1\n",
            "exit 0\n1998\n",
            "exit 0\n7\n",
            "exit 1\n"
                + tooDeep
                + ":"
                + NestingLimit.MAX_DEPTH
                + ":23: the expression is nested more than "
                + NestingLimit.MAX_DEPTH
                + " levels deep, the limit of this implementation: it is inside "
                + (NestingLimit.MAX_DEPTH - 1)
                + " nested 'let' expressions, the outermost at 2:3; split them into functions to"
                + " nest less\n");
    for (int run = 1; run <= RUNS; run++) {
      List<String> verdicts = new ArrayList<>();
      verdicts.add(l0("", "check", lets));
      verdicts.add(l0("7", "run", lets));
      verdicts.add(l0("7", "run", lets, "--device", "jvm"));
      verdicts.add(l0("7", "run", lets, "--device", "sim"));
      verdicts.add(l0("", "check", branches));
      verdicts.add(l0("287", "run", branches));
      verdicts.add(l0("287", "run", branches, "--device", "jvm"));
      verdicts.add(l0("287", "run", branches, "--device", "sim"));
      verdicts.add(l0("1000", "run", branches, "--no-opt"));
      verdicts.add(l0("999", "run", branches));
      verdicts.add(l0("7", "run", negations));
      verdicts.add(l0("", "check", tooDeep));
      assertEquals(expected, verdicts, "run " + run);
    }
  }
}
