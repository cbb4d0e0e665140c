package dev.l0.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.l0.cli.Main;
import dev.l0.jobs.BlackScholesSparkJob;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of README.md, run as written. Console blocks: each {@code $ bin/l0 ...} or {@code $
 * bin/l0-job ...} line (optionally fed by {@code echo '...' |} or {@code < FILE}) runs in process
 * from the repository root, and its output must equal the lines the README shows after it, where a
 * line {@code ...} stands for any number of lines. Java blocks: the one class in each is compiled
 * and its {@code main} run; its output must equal the {@code text} block that follows it.
 */
class ReadmeExamplesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern COMMAND =
      Pattern.compile("^(?:echo '([^']*)' \\| )?bin/(l0|l0-job) (.*?)(?: < (\\S+))?$");

  @TempDir Path scratch;

  private record Fence(String language, List<String> lines) {}

  private static List<Fence> fences() throws IOException {
    List<Fence> fences = new ArrayList<>();
    List<String> current = null;
    String language = null;
    for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
      if (line.startsWith("```")) {
        if (current == null) {
          language = line.substring(3).trim();
          current = new ArrayList<>();
        } else {
          fences.add(new Fence(language, current));
          current = null;
        }
      } else if (current != null) {
        current.add(line);
      }
    }
    assertTrue(current == null, "README.md has an unclosed ``` block");
    return fences;
  }

  @TestFactory
  Stream<DynamicTest> consoleExamplesPrintWhatTheReadmeShows() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Fence fence : fences()) {
      if (!fence.language().equals("console")) {
        continue;
      }
      List<String> lines = fence.lines();
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).startsWith("$ ")) {
          continue;
        }
        String command = lines.get(i).substring(2);
        List<String> expected = new ArrayList<>();
        for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("$ "); j++) {
          expected.add(lines.get(j));
        }
        tests.add(
            DynamicTest.dynamicTest(command, () -> assertPrints(expected, runConsole(command))));
      }
    }
    assertFalse(tests.isEmpty(), "README.md shows no console examples");
    return tests.stream();
  }

  private static String runConsole(String command) throws IOException {
    Matcher m = COMMAND.matcher(command);
    if (!m.matches()) {
      return fail("README console line is not of a form this test runs: " + command);
    }
    String stdin = m.group(1) != null ? m.group(1).replace("\\n", "\n") : "";
    if (m.group(4) != null) {
      stdin = Files.readString(ROOT.resolve(m.group(4)));
    }
    List<String> args = new ArrayList<>();
    for (String word : m.group(3).trim().split("\\s+")) {
      boolean isPath = word.contains("/") && Files.exists(ROOT.resolve(word));
      args.add(isPath ? ROOT.resolve(word).toString() : word);
    }
    // Standard output and standard error go to one stream, in the order a terminal shows them.
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    PrintStream both = new PrintStream(terminal, true, StandardCharsets.UTF_8);
    int code =
        m.group(2).equals("l0")
            ? Main.execute(
                args.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                both,
                both)
            : runJob(args, both);
    // Paths are shown in the README as the user sees them: relative to the repository root.
    String shown = terminal.toString(StandardCharsets.UTF_8);
    return shown.replace(ROOT + "/", "") + (code == 0 ? "" : "[exit " + code + "]\n");
  }

  /**
   * {@code bin/l0-job JOB ARGS}: the job's class run in process (the script only builds and sets
   * JVM flags).
   */
  private static int runJob(List<String> args, PrintStream terminal) throws IOException {
    if (!args.get(0).equals("blackscholes")) {
      return fail("README runs a job this test does not know: " + args);
    }
    return BlackScholesSparkJob.run(
        args.subList(1, args.size()).toArray(String[]::new), terminal, terminal);
  }

  @Test
  void javaExamplesCompileRunAndPrintWhatTheReadmeShows() throws Exception {
    List<Fence> fences = fences();
    int checked = 0;
    for (int i = 0; i < fences.size(); i++) {
      if (!fences.get(i).language().equals("java")) {
        continue;
      }
      String source = String.join("\n", fences.get(i).lines());
      assertTrue(
          i + 1 < fences.size() && fences.get(i + 1).language().equals("text"),
          "a ```java example in README.md must be followed by a ```text block with its output");
      assertPrints(fences.get(i + 1).lines(), compileAndRun(source));
      checked++;
    }
    assertTrue(checked > 0, "README.md shows no Java example");
  }

  private String compileAndRun(String source) throws Exception {
    Matcher className = Pattern.compile("public class (\\w+)").matcher(source);
    assertTrue(className.find(), "the README's Java example must declare a public class");
    Path file = scratch.resolve(className.group(1) + ".java");
    Files.writeString(file, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status =
        javac.run(
            null,
            null,
            diagnostics,
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            scratch.toString(),
            file.toString());
    assertEquals(0, status, () -> "the README's Java example does not compile:\n" + diagnostics);
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {scratch.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass(className.group(1)).getMethod("main", String[].class);
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * {@code actual}'s lines equal {@code expected}'s, where an expected line "..." matches any run
   * of lines.
   */
  private static void assertPrints(List<String> expected, String actual) {
    List<String> lines = actual.lines().map(ReadmeExamplesTest::anyVectorWidth).toList();
    List<String> wanted =
        expected.stream()
            .map(ReadmeExamplesTest::anyVectorWidth)
            .filter(l -> !l.isEmpty())
            .toList();
    if (!matches(wanted, 0, lines.stream().filter(l -> !l.isEmpty()).toList(), 0)) {
      fail("README shows:\n" + String.join("\n", wanted) + "\nbut the example printed:\n" + actual);
    }
  }

  /**
   * {@code line} without trailing blanks and with the vector width {@code explain} prints
   * ("lane-wise (8 doubles a step)" on this VM's AVX-512, 4 with AVX2) as "N": the README shows one
   * machine's.
   */
  static String anyVectorWidth(String line) {
    return VECTOR_WIDTH.matcher(line.stripTrailing()).replaceAll("(N doubles a step)");
  }

  private static final Pattern VECTOR_WIDTH = Pattern.compile("\\(\\d+ doubles a step\\)");

  private static boolean matches(List<String> wanted, int w, List<String> lines, int l) {
    if (w == wanted.size()) {
      return l == lines.size();
    }
    if (wanted.get(w).equals("...")) {
      for (int skip = l; skip <= lines.size(); skip++) {
        if (matches(wanted, w + 1, lines, skip)) {
          return true;
        }
      }
      return false;
    }
    return l < lines.size()
        && wanted.get(w).equals(lines.get(l))
        && matches(wanted, w + 1, lines, l + 1);
  }
}
