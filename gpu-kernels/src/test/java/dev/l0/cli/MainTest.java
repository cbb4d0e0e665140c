package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code l0} verbs end to end, in process: output, error lines and exit codes. */
class MainTest {
  @TempDir Path dir;

  private record Outcome(int exitCode, String out, String err) {}

  private Outcome l0(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.execute(
            args,
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Outcome l0(InputStream stdin, OutputStream stdout, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.execute(
            args,
            stdin,
            new PrintStream(stdout, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, "", err.toString(StandardCharsets.UTF_8));
  }

  /** Standard output on a full disk. */
  private static final class FullDisk extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      throw new IOException("No space left on device");
    }
  }

  /** Standard input that must not be read. */
  private static final class UnreadInput extends InputStream {
    @Override
    public int read() {
      throw new AssertionError("standard input was read");
    }
  }

  /**
   * {@code bin/l0}'s Java main in its own JVM with {@code jvmOptions} (as L0_JAVA_OPTS gives them).
   */
  private static Outcome l0Process(String stdin, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
    String out = readAll(process.getInputStream());
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "l0 did not finish");
    return new Outcome(process.exitValue(), out, err.join());
  }

  private static String readAll(InputStream stream) {
    try {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file.toString();
  }

  @Test
  void runReadsArgumentsFromStdinAndPrintsTheResult() throws IOException {
    String file =
        write(
            "sum.l0",
            "fun f64 main([f64] xs, f64 k) = reduce(op +, 0.0, map(fn f64 (f64 x) => x * k, xs))\n");
    Outcome o = l0("// prices\n[1.0, 2.5, 3]\n2.0\n", "run", file);
    assertEquals(0, o.exitCode(), o.err());
    assertEquals("13.0", o.out().trim());
  }

  @Test
  void runPrintsEachComponentOfATupleResultOnItsOwnLine() throws IOException {
    String file = write("pair.l0", "fun {i32, [i32]} halves(i32 n) = {n / 2, iota(n)}\n");
    Outcome o = l0("5", "run", file, "--entry", "halves");
    assertEquals(0, o.exitCode(), o.err());
    assertEquals("2\n[0, 1, 2, 3, 4]", o.out().trim());
  }

  @Test
  void runWithAndWithoutOptimisationGivesTheSameResult() throws IOException {
    String file =
        write(
            "chain.l0",
            "fun f64 main([f64] xs) =\n"
                + "  let ys = map(fn f64 (f64 x) => x * 3.0 + 1.0, xs) in\n"
                + "  let zs = filter(fn bool (f64 y) => y < 10.0, ys) in\n"
                + "  reduce(op +, 0.0, map(fn f64 (f64 z) => z / 7.0, zs))\n");
    Outcome optimised = l0("[0.5, 1.0, 2.0, 4.0, -1.5]", "run", file);
    Outcome reference = l0("[0.5, 1.0, 2.0, 4.0, -1.5]", "run", file, "--no-opt");
    assertEquals(0, optimised.exitCode(), optimised.err());
    assertEquals(0, reference.exitCode(), reference.err());
    assertEquals(reference.out(), optimised.out());
  }

  @Test
  void kernelsRunOnTheJvmBackendAndTheSimulatorWithTheSameResult() throws IOException {
    String file =
        write(
            "scan.l0",
            "fun [i64] main([i64] xs) = scan(op +, 0i64, filter(fn bool (i64 x) => x % 3i64 != 0i64, map(fn i64 (i64 x) => x * x, xs)))\n");
    String input = "[1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64]";
    Outcome reference = l0(input, "run", file, "--no-opt");
    for (String device : List.of("jvm", "sim", "auto")) {
      Outcome o = l0(input, "run", file, "--device", device);
      assertEquals(0, o.exitCode(), device + ": " + o.err());
      assertEquals(reference.out(), o.out(), device);
      assertTrue(o.err().startsWith("device: " + (device.equals("sim") ? "sim" : "jvm")), o.err());
    }
  }

  /**
   * The output of {@code l0 run} on {@code program} with {@code input} in every mode, which must
   * agree.
   */
  private String runInEveryMode(String name, String program, String input) throws IOException {
    String file = write(name, program);
    Outcome reference = l0(input, "run", file, "--no-opt");
    assertEquals(0, reference.exitCode(), reference.err());
    for (List<String> mode :
        List.of(List.<String>of(), List.of("--device", "jvm"), List.of("--device", "sim"))) {
      List<String> args = new java.util.ArrayList<>(List.of("run", file));
      args.addAll(mode);
      Outcome o = l0(input, args.toArray(String[]::new));
      assertEquals(0, o.exitCode(), mode + ": " + o.err());
      assertEquals(reference.out(), o.out(), mode.toString());
    }
    Outcome explain = l0("", "explain", file);
    assertEquals(0, explain.exitCode(), explain.err());
    return reference.out().trim();
  }

  @Test
  void emptyArraysKeepTheirInnerSizesInEveryMode() throws IOException {
    assertEquals(
        "2",
        runInEveryMode(
            "columns.l0",
            "fun i32 main([i32] a) = size(1, map(fn [i32] (i32 x) => [x, x], a))\n",
            "[]"));
    assertEquals(
        "[[], [], []]\n3",
        runInEveryMode(
            "transpose.l0",
            "fun {[[i32]], i32} main(i32 n) = let t = transpose(reshape((0, n), iota(0))) in {t, size(0, t)}\n",
            "3"));
    assertEquals(
        "empty([0][2]f64)\n2",
        runInEveryMode(
            "passthrough.l0",
            "fun {[[f64]], i32} main([[f64]] m) = {m, size(1, m)}\n",
            "empty([0][2]f64)"));
  }

  @Test
  void arraysOfEmptyTuplesHaveASizeInEveryMode() throws IOException {
    assertEquals(
        "4",
        runInEveryMode(
            "units.l0", "fun i32 main(i32 n) = size(0, map(fn {} (i32 x) => {}, iota(n)))\n", "4"));
  }

  @Test
  void anArrayOfEmptyTuplesPassedInOrOutIsTheReferenceOrAClearErrorNeverAWrongLength()
      throws IOException {
    String file =
        write("units_out.l0", "fun [{}] main(i32 n) = map(fn {} (i32 x) => {}, iota(n))\n");
    assertEquals("[{}, {}, {}]", l0("3", "run", "--no-opt", file).out().strip());
    for (List<String> mode :
        List.of(List.<String>of(), List.of("--device", "jvm"), List.of("--device", "sim"))) {
      List<String> args = new java.util.ArrayList<>(List.of("run", file));
      args.addAll(mode);
      Outcome o = l0("3", args.toArray(String[]::new));
      assertEquals(Main.EXIT_PROGRAM_ERROR, o.exitCode(), mode + ": " + o.out());
      assertTrue(
          o.err().contains("takes or returns an array of empty tuples ([{}])")
              && o.err().contains("--no-opt"),
          mode + ": " + o.err());
    }
  }

  @Test
  void aDeviceThatCannotRunIsRefusedWithTheReason() throws IOException {
    String file = write("one.l0", "fun i32 main() = 1\n");
    Outcome cuda = l0("", "run", file, "--device", "cuda");
    assertEquals(Main.EXIT_USAGE, cuda.exitCode());
    assertTrue(cuda.err().contains("--device cuda"), cuda.err());
    Outcome bogus = l0("", "run", file, "--device", "tpu");
    assertEquals(Main.EXIT_USAGE, bogus.exitCode());
    assertTrue(bogus.err().contains("unknown device 'tpu'"), bogus.err());
  }

  /**
   * An option given twice would otherwise keep its last value without a word, and an option whose
   * value is missing would take the next option as its value.
   */
  @Test
  void anOptionGivenTwiceOrFollowedByAnotherOptionIsAUsageError() throws IOException {
    String file = write("twice.l0", "fun i32 main() = 1\n");
    Outcome twice = l0("", "run", file, "--device", "jvm", "--device", "sim");
    assertEquals(Main.EXIT_USAGE, twice.exitCode());
    assertTrue(
        twice.err().startsWith("l0 run: option '--device' given twice ('jvm' and 'sim')"),
        twice.err());
    Outcome swallowed = l0("", "run", file, "--entry", "--device", "jvm");
    assertEquals(Main.EXIT_USAGE, swallowed.exitCode());
    assertTrue(
        swallowed.err().startsWith("l0 run: option '--entry' needs a value"), swallowed.err());
    Outcome flag = l0("", "run", file, "--entry", "--exact-sums");
    assertEquals(Main.EXIT_USAGE, flag.exitCode());
    assertTrue(flag.err().startsWith("l0 run: option '--entry' needs a value"), flag.err());
  }

  @Test
  void explainEndsWithTheKernelCountThenHowEachKernelRunsPerBackend() throws IOException {
    String file =
        write(
            "mapmap.l0",
            "fun [f64] main([f64] xs) = map(fn f64 (f64 y) => y + 1.0, map(fn f64 (f64 x) => x * 2.0, xs))\n");
    Outcome o = l0("", "explain", file);
    assertEquals(0, o.exitCode(), o.err());
    List<String> lines = o.out().lines().toList();
    assertEquals("kernels: 1", lines.get(lines.size() - 3), o.out());
    assertEquals(1, lines.stream().filter(l -> l.startsWith("kernel 1: ")).count(), o.out());
    assertTrue(lines.get(lines.size() - 2).startsWith("kernel 1 on jvm: map: "), o.out());
    assertTrue(lines.get(lines.size() - 1).startsWith("kernel 1 on cuda: map: "), o.out());
    List<String> cuda = l0("", "explain", file, "--device", "cuda").out().lines().toList();
    assertTrue(
        cuda.get(cuda.size() - 1).startsWith("kernel 1 on cuda: ")
            && cuda.get(cuda.size() - 2).equals("kernels: 1"),
        cuda.toString());
  }

  /**
   * A kernel the lowering rejects (an array inside a thread sized by the row's own value) is
   * explained per backend as not lowered, with the lowering's reason and position, and no Java.
   */
  @Test
  void explainSaysPerBackendWhyAKernelIsNotLowered() throws IOException {
    String file =
        write(
            "rowsized.l0",
            "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => let a = copy(iota(x)) in let b = a with [0] <- 1 in reduce(op +, 0, b), xs)\n");
    Outcome o = l0("", "explain", file);
    assertEquals(0, o.exitCode(), o.err());
    List<String> lines = o.out().lines().toList();
    assertEquals("kernels: 1", lines.get(lines.size() - 3), o.out());
    String reason =
        ": not lowered: cannot lower to kernels: an array inside a kernel thread whose size"
            + " depends on values the kernel computes, so the host cannot bound it before the kernel"
            + " runs (at "
            + file
            + ":1:75)";
    assertEquals("kernel 1 on jvm" + reason, lines.get(lines.size() - 2), o.out());
    assertEquals("kernel 1 on cuda" + reason, lines.get(lines.size() - 1), o.out());
    Outcome java = l0("", "explain", file, "--device", "jvm", "--java");
    assertEquals(0, java.exitCode(), java.err());
    assertTrue(
        java.out().endsWith("// not lowered" + reason.substring(": not lowered".length()) + "\n"),
        java.out());
  }

  @Test
  void explainPrintsEachKernelsCudaCOnRequest() throws IOException {
    String file =
        write(
            "sum.l0",
            "fun f64 main([f64] xs) = reduce(op +, 0.0, map(fn f64 (f64 x) => exp(x), xs))\n");
    Outcome o = l0("", "explain", file, "--cuda");
    assertEquals(0, o.exitCode(), o.err());
    assertTrue(o.out().contains("// kernel 1: redomap in main"), o.out());
    assertTrue(o.out().contains("extern \"C\" __global__"), o.out());
    assertTrue(o.out().contains("l0_exp("), o.out());
  }

  @Test
  void explainSaysHowTheJvmBackendsJavaRunsEachKernelAndPrintsItOnRequest() throws IOException {
    String staged =
        write(
            "staged.l0",
            "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => exp(x) * 2.0 + log(x), xs)\n");
    Outcome o = l0("", "explain", staged, "--device", "jvm", "--java");
    assertEquals(0, o.exitCode(), o.err());
    String lanes =
        dev.l0.kernels.vector.VectorMath.lanewise()
            ? "lane-wise (" + dev.l0.kernels.vector.VectorMath.lanes() + " doubles a step)"
            : "plain loops (no jdk.incubator.vector in this JVM)";
    assertTrue(
        o.out()
            .contains(
                "; Java: staged in chunks of 512 rows, " + lanes + "; VectorMath: exp, log\n"),
        o.out());
    assertTrue(o.out().contains("dev.l0.kernels.vector.VectorMath.exp("), o.out());
    assertTrue(o.out().contains("private static void stage$0("), o.out());
    String perRow =
        write(
            "rowloop.l0",
            "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => loop (acc = x) = for i < 3 do acc * x in acc, xs)\n");
    Outcome loop = l0("", "explain", perRow, "--device", "jvm");
    assertEquals(0, loop.exitCode(), loop.err());
    assertTrue(loop.out().strip().endsWith("; Java: per row"), loop.out());
    // integer arithmetic stages as plain loops: no DoubleVector, so not "lane-wise"
    String integers =
        write("ints.l0", "fun [i32] main([i32] xs) = map(fn i32 (i32 x) => x * 3 + 1, xs)\n");
    Outcome plain = l0("", "explain", integers, "--device", "jvm", "--java");
    assertEquals(0, plain.exitCode(), plain.err());
    assertTrue(
        plain
            .out()
            .contains(
                "; Java: staged in chunks of 512 rows, "
                    + (dev.l0.kernels.vector.VectorMath.lanewise()
                        ? "plain loops (no f64 arithmetic to run lane-wise)"
                        : "plain loops (no jdk.incubator.vector in this JVM)")
                    + "\n"),
        plain.out());
    assertFalse(plain.out().contains("DoubleVector.broadcast"), plain.out());
  }

  @Test
  void checkReportsTheFirstErrorAsFileLineColumn() throws IOException {
    String file = write("bad.l0", "fun i32 main(i32 x) =\n  x + 1.0\n");
    Outcome o = l0("", "check", file);
    assertEquals(Main.EXIT_PROGRAM_ERROR, o.exitCode());
    assertTrue(o.err().startsWith(file + ":2:"), o.err());
    assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
  }

  @Test
  void checkAcceptsAWellTypedProgramAndCountsItsFunctions() throws IOException {
    String file = write("ok.l0", "fun i32 main(i32 x) = x + 1\n");
    Outcome o = l0("", "check", file);
    assertEquals(0, o.exitCode(), o.err());
    assertEquals(file + ": ok (1 function)", o.out().strip());
    String two = write("two.l0", "fun i32 f(i32 x) = x\nfun i32 main(i32 x) = f(x) + 1\n");
    assertEquals(two + ": ok (2 functions)", l0("", "check", two).out().strip());
  }

  @Test
  void printWritesCanonicalSyntaxThatRunsTheSame() throws IOException {
    String file = write("p.l0", "fun real main(int n) = let x = toReal(n) in x*x // square\n");
    Outcome printed = l0("", "print", file);
    assertEquals(0, printed.exitCode(), printed.err());
    String again = write("p2.l0", printed.out());
    assertEquals("9.0", l0("3", "run", again).out().trim());
    assertEquals(printed.out(), l0("", "print", again).out());
  }

  @Test
  void runtimeErrorsNameTheOperationAndPosition() throws IOException {
    String file = write("oob.l0", "fun i32 main([i32] a) = a[7]\n");
    Outcome o = l0("[1, 2, 3]", "run", file);
    assertEquals(Main.EXIT_RUNTIME_ERROR, o.exitCode());
    assertTrue(o.err().contains(file + ":1:"), o.err());
    assertTrue(o.err().contains("7") && o.err().contains("3"), o.err());
  }

  @Test
  void badInputDataIsReportedWithItsPosition() throws IOException {
    String file = write("in.l0", "fun i32 main([i32] a) = a[0]\n");
    Outcome o = l0("[1, 2,\n x]", "run", file);
    assertEquals(Main.EXIT_BAD_INPUT, o.exitCode());
    assertTrue(o.err().contains("<stdin>:2:"), o.err());
  }

  @Test
  void usageErrorsExplainThemselves() throws IOException {
    assertEquals(Main.EXIT_USAGE, l0("").exitCode());
    assertEquals(Main.EXIT_USAGE, l0("", "frobnicate").exitCode());
    Outcome missing = l0("", "check", dir.resolve("nope.l0").toString());
    assertEquals(Main.EXIT_BAD_INPUT, missing.exitCode());
    assertTrue(missing.err().contains("nope.l0"), missing.err());
    String file = write("e.l0", "fun i32 main() = 1\nfun i32 twice(i32 x) = 2 * x\n");
    Outcome noEntry = l0("", "run", file, "--entry", "other");
    assertEquals(Main.EXIT_USAGE, noEntry.exitCode());
    assertTrue(
        noEntry.err().contains("no function 'other' in " + file + "; it defines main, twice"),
        noEntry.err());
  }

  @Test
  void theUsageNamesExplainsDeviceOptionAndTheExitCodeOfAnInvalidFinparResult() {
    String usage = l0("").err();
    assertTrue(usage.contains("explain FILE.l0 [--device jvm|cuda] [--cuda] [--java]"), usage);
    assertTrue(usage.contains("(exit " + Main.EXIT_INVALID + " if not valid)"), usage);
  }

  @Test
  void demoPricesTheReferenceOptionsWithinTolerance() {
    Outcome o = l0("", "demo");
    assertEquals(0, o.exitCode(), o.out() + o.err());
    assertTrue(o.out().contains("options: 40,"), o.out());
    assertTrue(o.out().trim().endsWith("PASS"), o.out());
  }

  @Test
  void demoFailsWhenAPriceMissesItsReference() throws IOException {
    String options =
        write(
            "options.txt",
            "# spot strike rate divq vol years type divs reference\n"
                + "42.00 40.00 0.1000 0.00 0.20 0.50 C 0.00 4.759423\n"
                + "42.00 40.00 0.1000 0.00 0.20 0.50 P 0.00 0.908600\n");
    Outcome o = l0("", "demo", "--options", options);
    assertEquals(Main.EXIT_PROGRAM_ERROR, o.exitCode(), o.out() + o.err());
    assertTrue(o.out().contains("options: 2,") && o.out().trim().endsWith("FAIL"), o.out());
  }

  @Test
  void demoRejectsAMalformedOptionsFileWithItsLine() throws IOException {
    String options = write("broken.txt", "42.00 40.00 0.10 0.00 0.20 0.50 X 0.00 4.75\n");
    Outcome o = l0("", "demo", "--options", options);
    assertEquals(Main.EXIT_BAD_INPUT, o.exitCode());
    assertTrue(o.err().contains(options + ":1:33: type: expected C or P, found 'X'"), o.err());
  }

  @Test
  void demoSaysAnOptionsFileThatIsNotThereIsNotThere() {
    Outcome o = l0("", "demo", "--options", "/no/such/options.txt");
    assertEquals(Main.EXIT_BAD_INPUT, o.exitCode());
    assertEquals("l0 demo: /no/such/options.txt: no such file\n", o.err());
  }

  @Test
  void aSlashOrDoubleMinusInTheInputIsBadInputNotAComment() throws IOException {
    String real = write("real.l0", "fun f64 main(f64 x) = x\n");
    Outcome slash = l0("1/3", "run", real);
    assertEquals(Main.EXIT_BAD_INPUT, slash.exitCode(), slash.out());
    assertEquals(
        "bad input: <stdin>:1:2: '/' is not part of a value (a comment starts with //)",
        slash.err().trim());
    String integer = write("int.l0", "fun i32 main(i32 x) = x\n");
    Outcome minus = l0("7 --8", "run", integer);
    assertEquals(Main.EXIT_BAD_INPUT, minus.exitCode(), minus.out());
    assertTrue(minus.err().contains("<stdin>:1:3: '--'"), minus.err());
    assertEquals("7", l0("7 // seven", "run", integer).out().trim());
  }

  @Test
  void outputThatCannotBeWrittenIsAnError() throws IOException {
    String file = write("out.l0", "fun [i32] main(i32 n) = iota(n)\n");
    for (String[] args :
        List.of(
            new String[] {"run", file},
            new String[] {"print", file},
            new String[] {"explain", file},
            new String[] {"check", file},
            new String[] {"--help"})) {
      Outcome o =
          l0(new ByteArrayInputStream("3".getBytes(StandardCharsets.UTF_8)), new FullDisk(), args);
      assertEquals(Main.EXIT_OUTPUT_LOST, o.exitCode(), args[0] + ": " + o.err());
      assertTrue(o.err().contains("the output could not be written"), o.err());
    }
  }

  @Test
  void aProgramFileThatIsNotThereIsNamedWithWhy() {
    for (String verb : List.of("run", "check", "print", "explain")) {
      Outcome o = l0("", verb, "/no/such/program.l0");
      assertEquals(Main.EXIT_BAD_INPUT, o.exitCode(), verb);
      assertEquals("l0 " + verb + ": /no/such/program.l0: no such file\n", o.err());
    }
  }

  @Test
  void helpAfterAVerbPrintsTheUsage() {
    Outcome o = l0("", "run", "--help");
    assertEquals(0, o.exitCode(), o.err());
    assertTrue(o.out().startsWith("usage: l0 VERB [ARGS]"), o.out());
    assertEquals("", o.err());
  }

  @Test
  void aUsageErrorIsReportedBeforeAnyInputIsRead() throws IOException {
    String file = write("u.l0", "fun i32 main(i32 x) = x\n");
    Outcome both =
        l0(
            new UnreadInput(),
            new ByteArrayOutputStream(),
            "run",
            file,
            "--no-opt",
            "--device",
            "jvm");
    assertEquals(Main.EXIT_USAGE, both.exitCode(), both.err());
    assertTrue(
        both.err().contains("--no-opt runs the reference interpreter; it takes no --device"),
        both.err());
    Outcome unknown =
        l0(new UnreadInput(), new ByteArrayOutputStream(), "run", file, "--device", "tpu");
    assertEquals(Main.EXIT_USAGE, unknown.exitCode(), unknown.err());
  }

  @Test
  void anEmptyProgramIsIllFormed() throws IOException {
    String file = write("empty.l0", "// nothing here\n");
    for (String verb : List.of("check", "run", "print", "explain")) {
      Outcome o = l0("", verb, file);
      assertEquals(Main.EXIT_PROGRAM_ERROR, o.exitCode(), verb + ": " + o.err());
      assertEquals(
          file
              + ":1:1: the program defines no functions (a program is one or more 'fun' definitions)",
          o.err().trim());
    }
  }

  @Test
  void aProgramThatIsNotUtf8NamesTheFileAndTheByteOffset() throws IOException {
    Path file = dir.resolve("latin1.l0");
    Files.write(file, "fun i32 main() =\n  1 // caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    Outcome o = l0("", "check", file.toString());
    assertEquals(Main.EXIT_PROGRAM_ERROR, o.exitCode(), o.err());
    assertEquals(
        file + ":2:11: the file is not UTF-8 text: invalid byte sequence at byte offset 27 (0xe9)",
        o.err().trim());
  }

  @Test
  void aProgramFileThatIsAFolderIsNamed() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("folder.l0"));
    Outcome o = l0("", "check", folder.toString());
    assertEquals(Main.EXIT_BAD_INPUT, o.exitCode(), o.err());
    assertEquals("l0 check: " + folder + ": Is a directory", o.err().trim());
  }

  @Test
  void standardInputThatIsNotUtf8IsBadInputAtItsByte() throws IOException {
    String file = write("id.l0", "fun i32 main(i32 x) = x\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outcome o = l0(new ByteArrayInputStream(new byte[] {'4', '2', (byte) 0xff}), out, "run", file);
    assertEquals(Main.EXIT_BAD_INPUT, o.exitCode(), o.err());
    assertEquals(
        "bad input: <stdin>:1:3: standard input is not UTF-8 text: invalid byte sequence at byte"
            + " offset 2 (0xff)",
        o.err().trim());
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  /**
   * Arrays that each fit in the heap and together do not are refused at the one that does not fit,
   * as soon as it is reached, by the interpreter and the optimiser's evaluator alike, with what is
   * left of the heap (read after a garbage collection): they filled the heap slowly until the JVM
   * ran out of memory with no position. A 128 MiB heap keeps the runs small.
   */
  @Test
  void arraysThatEachFitAndTogetherDoNotAreRefusedAtTheOneThatDoesNot() throws Exception {
    String twoReplicates =
        write(
            "two.l0",
            "fun i32 main(i32 n) =\n"
                + "  let a = replicate(n, 1) in\n"
                + "  let b = replicate(n, 2) in\n"
                + "  size(0, a) + size(0, b)\n");
    String zip =
        write(
            "zip.l0", "fun [{i32, i32}] main(i32 n) =\n  zip(replicate(n, 1), replicate(n, 2))\n");
    String left =
        " MiB, more than the \\d+ MiB left of the JVM's maximum heap of 128 MiB; give it more.*";
    String[][] cases = {
      // each replicate's references exist twice while it is made: 12000000 * 8 bytes
      {twoReplicates, "12000000", "--no-opt", "3:11: replicate: 12000000 elements need about 91"},
      {twoReplicates, "12000000", "", "3:11: replicate: 12000000 elements need about 91"},
      // 52 bytes a pair of 2500000 at least: more than the heap has left, less than its maximum
      {zip, "2500000", "--no-opt", "2:3: zip: 2500000 elements need about 123"},
      {
        zip,
        "2500000",
        "",
        "1:1: the result of 'main' has 5000000 elements; rebuilding it needs about 124"
      },
    };
    for (String[] c : cases) {
      List<String> args = new ArrayList<>(List.of("run", c[0]));
      if (!c[2].isEmpty()) {
        args.add(c[2]);
      }
      Outcome o = l0Process(c[1], List.of("-Xmx128m"), args.toArray(String[]::new));
      String what = c[0] + " " + c[2];
      assertEquals(Main.EXIT_OUT_OF_MEMORY, o.exitCode(), what + ": " + o.err());
      String expected = "out of memory: \\Q" + c[0] + ":\\E" + c[3] + left;
      assertTrue(o.err().strip().matches(expected), what + ": " + o.err());
    }
  }

  @Test
  void runningOutOfMemoryIsOneLineWithItsOwnExitCode() throws Exception {
    String file =
        write(
            "big.l0",
            "fun i64 main(i32 n) = reduce(op +, 0i64, map(fn i64 (i32 i) => i64(i), iota(n)))\n");
    Outcome o = l0Process("2000000", List.of("-Xmx64m"), "run", file, "--no-opt");
    assertEquals(Main.EXIT_OUT_OF_MEMORY, o.exitCode(), o.err());
    assertEquals(1, o.err().lines().count(), o.err());
    assertTrue(o.err().startsWith("out of memory (Java heap space): "), o.err());
    // twice the 64 MiB heap, rounded up to whole GiB
    assertTrue(
        o.err().endsWith("; give it more with L0_JAVA_OPTS, e.g. L0_JAVA_OPTS=-Xmx1g bin/l0 ...\n"),
        o.err());
  }

  /** Recursion deeper than the stack is a limit of this implementation (exit 5) on every path. */
  @Test
  void recursionDeeperThanTheStackIsALimitAtTheEntryFunction() throws IOException {
    String file =
        write(
            "rec.l0",
            "fun i32 f(i32 n) = if n = 0 then 0 else 1 + f(n - 1)\nfun i32 main(i32 n) = f(n)\n");
    Outcome interpreted = l0("100000000", "run", file, "--no-opt");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, interpreted.exitCode(), interpreted.err());
    assertEquals(
        "limit reached: " + file + ":2:1: call: recursion too deep for the interpreter's stack",
        interpreted.err().strip());
    Outcome optimised = l0("100000000", "run", file, "--device", "jvm");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, optimised.exitCode(), optimised.err());
    assertTrue(
        optimised
            .err()
            .strip()
            .endsWith(
                "limit reached: "
                    + file
                    + ":2:1: call: recursion too deep for the evaluator's stack"),
        optimised.err());
  }

  @Test
  void aSettingWithAValueItCannotUseIsAUsageErrorThatNamesIt() throws Exception {
    String file =
        write("double.l0", "fun [f64] main([f64] xs) = map(fn f64 (f64 x) => x * 2.0, xs)\n");
    Outcome o =
        l0Process(
            "[1.0, 2.0]", List.of("-Dl0.jvm.methodBudget=3k"), "run", file, "--device", "jvm");
    assertEquals(Main.EXIT_USAGE, o.exitCode(), o.err());
    assertEquals(
        List.of(
            "device: jvm: requested",
            "l0 run: the system property l0.jvm.methodBudget must be an integer of at least 100"
                + " (estimated bytes of bytecode per method of a JVM kernel), not '3k'"),
        o.err().lines().toList());
    assertEquals("", o.out());
  }

  @Test
  void sizesThatCannotFitAreRefusedBeforeAnythingIsAllocated() throws IOException {
    String iota = write("iota.l0", "fun [i64] main(i64 n) = iota(n)\n");
    // the evaluators hold boxed scalars (about 28 bytes each), the devices' host a flat long[]
    Map<List<String>, Integer> mebibytesByMode =
        Map.of(
            List.of("--no-opt"), 57343,
            List.<String>of(), 57343,
            List.of("--device", "jvm"), 16383,
            List.of("--device", "sim"), 16383);
    mebibytesByMode.forEach(
        (mode, mebibytes) -> {
          List<String> args = new ArrayList<>(List.of("run", iota));
          args.addAll(mode);
          Outcome o = l0("2147483000i64", args.toArray(String[]::new));
          assertEquals(Main.EXIT_OUT_OF_MEMORY, o.exitCode(), mode + ": " + o.err());
          assertTrue(
              o.err()
                  .lines()
                  .anyMatch(
                      l ->
                          l.startsWith(
                                  "out of memory: "
                                      + iota
                                      + ":1:25: iota: 2147483000 elements need about "
                                      + mebibytes
                                      + " MiB, more than the JVM's maximum heap of ")
                              && l.endsWith(Main.moreHeap())),
              mode + ": " + o.err());
        });
    String wide = write("wide.l0", "fun [[i64]] main(i64 n) = replicate(n, replicate(n, 1i64))\n");
    Outcome printed = l0("65536i64", "run", wide, "--no-opt");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, printed.exitCode(), printed.err());
    assertEquals(
        "limit reached: the result has 4294967296 numbers; printed, it would exceed 2147483639 characters, "
            + "the most one printed value may have",
        printed.err().trim());
    for (String[] args :
        List.of(new String[] {"run", wide}, new String[] {"run", wide, "--device", "jvm"})) {
      Outcome rebuilt = l0("65536i64", args);
      assertEquals(Main.EXIT_OUT_OF_MEMORY, rebuilt.exitCode(), rebuilt.err());
      assertTrue(
          rebuilt
              .err()
              .lines()
              .anyMatch(
                  l ->
                      l.startsWith(
                          "out of memory: "
                              + wide
                              + ":1:1: the result of 'main' has 4294967296 elements; "
                              + "rebuilding it needs about 16384 MiB, more than the JVM's maximum heap of ")),
          rebuilt.err());
    }
    String long1d = write("long.l0", "fun [i64] main(i64 n) = replicate(n, 1i64)\n");
    Outcome tooLong = l0("1099511627776i64", "run", long1d);
    assertEquals(Main.EXIT_RESOURCE_LIMIT, tooLong.exitCode(), tooLong.err());
    assertTrue(
        tooLong
            .err()
            .startsWith(
                "limit reached: "
                    + long1d
                    + ":1:25: replicate: size 1099511627776 exceeds the limit"),
        tooLong.err());
  }

  /**
   * A replicate of rows that a kernel reads, and a map whose rows are replicates, are refused on
   * both devices as a too large iota is: the operation, its flat size and where it is written, not
   * a Java heap error without a position (or, past one Java array, an internal error).
   */
  @Test
  void nestedReplicatesThatCannotFitNameTheirSizeAndPosition() throws Exception {
    String nested =
        write(
            "nested.l0",
            "fun f64 main(i32 n) =\n"
                + "  let a = replicate(n, replicate(n, 1.0)) in\n"
                + "  reduce(op +, 0.0, map(fn f64 ([f64] r) => reduce(op +, 0.0, r), a))\n");
    String rows =
        write(
            "rows.l0",
            "fun [[f64]] main(i32 n) = map(fn [f64] (i32 i) => replicate(n, 1.0), iota(n))\n");
    for (String device : List.of("jvm", "sim")) {
      for (String[] program :
          new String[][] {{nested, "2:11: replicate"}, {rows, "1:51: map of replicate"}}) {
        Outcome heap =
            l0Process("20000", List.of("-Xmx64m"), "run", program[0], "--device", device);
        assertEquals(Main.EXIT_OUT_OF_MEMORY, heap.exitCode(), heap.err());
        assertEquals(
            "out of memory: "
                + program[0]
                + ":"
                + program[1]
                + ": 400000000 elements need about 3051 MiB, more than the JVM's maximum heap of"
                + " 64 MiB; give it more with L0_JAVA_OPTS, e.g. L0_JAVA_OPTS=-Xmx1g bin/l0 ...",
            heap.err().lines().reduce((first, last) -> last).orElseThrow(),
            device);
      }

      Outcome tooLong = l0("100000", "run", rows, "--device", device);
      assertEquals(Main.EXIT_RESOURCE_LIMIT, tooLong.exitCode(), tooLong.err());
      assertEquals(
          "limit reached: "
              + rows
              + ":1:51: map of replicate: 10000000000 elements, more than one flat array holds"
              + " (2147483639, Java's array limit)",
          tooLong.err().lines().reduce((first, last) -> last).orElseThrow(),
          device);
    }
  }

  /**
   * A launch beyond the simulator's limits is a limit reached at the SOAC the program wrote, named
   * as written, not a kernel defect, and its message names no kernel (internal names mean nothing
   * to the program's author).
   */
  /**
   * An output too large for one flat array whose rows are neither replicates nor iotas is named by
   * its SOAC, at the SOAC: the message had no position at all ('limit reached: map: ...').
   */
  @Test
  void anOutputThatCannotBeOneFlatArrayIsNamedAtItsSoac() throws IOException {
    String wide =
        write(
            "wide.l0",
            "fun [[i32]] main(i32 m, i32 n) =\n"
                + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j * x, iota(n)), iota(m))\n");
    for (String device : List.of("jvm", "sim")) {
      Outcome tooLong = l0("50000 50000", "run", wide, "--device", device);
      assertEquals(Main.EXIT_RESOURCE_LIMIT, tooLong.exitCode(), tooLong.err());
      assertEquals(
          "limit reached: "
              + wide
              + ":2:3: the map at 2:3 in main: 2500000000 elements, more than one flat array holds"
              + " (2147483639, Java's array limit)",
          tooLong.err().lines().reduce((first, last) -> last).orElseThrow(),
          device);
    }
    // the optimiser's evaluator and the interpreter refuse it as soon as the map's first row is
    // made: they built it until the heap ran out, with no result within minutes
    for (List<String> mode : List.of(List.<String>of(), List.of("--no-opt"))) {
      List<String> args = new ArrayList<>(List.of("run", wide));
      args.addAll(mode);
      Outcome evaluated =
          assertTimeoutPreemptively(
              Duration.ofSeconds(30), () -> l0("50000 50000", args.toArray(String[]::new)));
      assertEquals(Main.EXIT_RESOURCE_LIMIT, evaluated.exitCode(), evaluated.err());
      assertEquals(
          "limit reached: "
              + wide
              + ":2:3: map: 2500000000 elements, more than one flat array holds"
              + " (2147483639, Java's array limit)",
          evaluated.err().lines().reduce((first, last) -> last).orElseThrow(),
          mode.toString());
    }
  }

  @Test
  void theSimulatorsLimitsAreALimitReachedNotAKernelDefect() throws IOException {
    String loop =
        write(
            "loop.l0",
            "fun [i32] main([i32] xs, i32 k) = map(fn i32 (i32 x) => loop (acc = x) = for i < k do acc + i in acc, xs)\n");
    Outcome steps = l0("[1, 2] 3000000", "run", loop, "--device", "sim");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, steps.exitCode(), steps.err());
    assertEquals(
        "limit reached: "
            + loop
            + ":1:35: the map at 1:35 in main goes beyond the SIMT simulator's limits (16777216"
            + " steps per thread and launch, 67108864 elements per buffer): a thread (block 0,"
            + " thread 0) ran 16777216 steps without finishing, the simulator's limit per thread"
            + " and launch; the JVM backend (--device jvm) has no such limits",
        steps.err().lines().reduce((first, last) -> last).orElseThrow());
    String wide =
        write(
            "wide.l0",
            "fun [[i32]] main(i32 m, i32 n) =\n"
                + "  map(fn [i32] (i32 x) => map(fn i32 (i32 j) => j * x, iota(n)), iota(m))\n");
    Outcome elements = l0("7000 10000", "run", wide, "--device", "sim");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, elements.exitCode(), elements.err());
    String last = elements.err().lines().reduce((first, next) -> next).orElseThrow();
    assertTrue(
        last.startsWith(
            "limit reached: "
                + wide
                + ":2:3: the map at 2:3 in main goes beyond the SIMT simulator's limits (16777216"
                + " steps per thread and launch, 67108864 elements per buffer): a buffer of"
                + " 70000000 elements ("),
        last);
    assertTrue(
        last.endsWith(
            "), more than the simulator's limit of 67108864 elements per buffer; the JVM backend"
                + " (--device jvm) has no such limits"),
        last);
    assertFalse(last.contains("main_main"), last);
    String rows =
        write(
            "rows.l0",
            "fun [i32] main(i32 m, i32 n) =\n"
                + "  map(fn i32 (i32 x) =>\n"
                + "        let a = replicate(n, x) in\n"
                + "        loop (a) = for i < n do let a[i] = a[i] + i in a in a[n - 1],\n"
                + "      iota(m))\n");
    Outcome perThread = l0("64 2000000", "run", rows, "--device", "sim");
    assertEquals(Main.EXIT_RESOURCE_LIMIT, perThread.exitCode(), perThread.err());
    assertTrue(
        perThread
            .err()
            .contains(
                rows
                    + ":2:3: the map at 2:3 in main goes beyond the SIMT simulator's limits (16777216"
                    + " steps per thread and launch, 67108864 elements per buffer): arrays of"
                    + " 2000000 elements in each of 64 threads, 128000000 elements in one buffer ("),
        perThread.err());
  }
}
