package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.jvm.JvmKernelExecutor;
import dev.l0.opt.Optimizer;
import dev.l0.types.TypedProgram;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The FinPar programs (R0 OptionPricing, R1 LocVolCalib) on FinPar's own datasets, read from
 * {@code ../shared/data/finpar} beside the repository (skipped, saying so, where that folder is
 * absent), through {@code l0 finpar} and its validation.
 *
 * <p>Whole datasets are validated by {@link #wholeDatasetValidates} only with
 * {@code -Dl0.finpar.full=true}: while the programs' kernels run on the optimiser's evaluator
 * (the JVM backend does not lower them yet) a small dataset takes from minutes to an hour. The
 * default tests validate what is affordable: LocVolCalib's first strike of the small dataset
 * against FinPar's reference (each strike is computed independently, so the first element of the
 * reference is the reference of a one-strike dataset), and OptionPricing's optimised program
 * against the reference interpreter on every dataset with the path count cut down.
 */
class FinparTest {
  @TempDir Path dir;

  private static Path data;

  @BeforeAll
  static void findData() {
    data = List.of(Path.of("..", "..", "shared", "data", "finpar"), Path.of("..", "shared", "data", "finpar")).stream()
        .filter(Files::isDirectory).findFirst().orElse(null);
  }

  private static void assumeData() {
    assumeTrue(data != null, "FinPar datasets not found at ../shared/data/finpar beside the repository; skipped");
  }

  private record Outcome(int exitCode, String out, String err) {}

  private static Outcome l0(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.execute(args, new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** {@code text} with the value on its {@code k}-th value line (0-based; comment-only and blank lines skipped) replaced by {@code value}. */
  private static String withHeaderValue(String text, int k, String value) {
    String[] lines = text.split("\n", -1);
    int seen = 0;
    for (int i = 0; i < lines.length; i++) {
      String code = lines[i].replaceAll("//.*", "").strip();
      if (code.isEmpty()) {
        continue;
      }
      if (seen++ == k) {
        lines[i] = lines[i].replaceFirst("^\\s*-?[0-9.]+", value);
        return String.join("\n", lines);
      }
    }
    throw new IllegalArgumentException("no value line " + k);
  }

  private static List<String> numbers(String json, String field) {
    Matcher m = Pattern.compile("\"" + field + "\": \\[([^\\]]*)\\]").matcher(json);
    assertTrue(m.find(), "no " + field + " in " + json);
    return List.of(m.group(1).split(", "));
  }

  @ParameterizedTest
  @CsvSource({"OptionPricing,small", "OptionPricing,medium", "OptionPricing,large",
      "LocVolCalib,small", "LocVolCalib,medium", "LocVolCalib,large"})
  void everyDatasetIsReadInTheEntrysParameterOrder(String name, String size) throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.named(name);
    TypedProgram program = bench.program();
    List<Value> input = bench.readInput(program, bench.dataset(data, size));
    double[] reference = bench.readReference(bench.dataset(data, size));
    assertEquals(program.function(FinparBenchmark.ENTRY).params().size(), input.size());
    int first = (int) ((ScalarValue.Int) input.get(0)).value();
    if (bench == FinparBenchmark.OPTION_PRICING) {
      int dates = (int) ((ScalarValue.Int) input.get(2)).value();
      int underlyings = (int) ((ScalarValue.Int) input.get(3)).value();
      int models = (int) ((ScalarValue.Int) input.get(4)).value();
      assertEquals(dates * underlyings, ((Value.Array) input.get(6)).elements().size(), "Sobol dimensions");
      assertEquals(models, reference.length, "one price per model");
      assertEquals(List.of("small", "medium", "large").indexOf(size) + 1, first, "the contract of the dataset");
    } else {
      assertEquals(first, reference.length, "one price per strike");
    }
  }

  @Test
  void validationIsFinParsAbsoluteToleranceAndFailsOnNanOrALengthMismatch() {
    FinparBenchmark r0 = FinparBenchmark.OPTION_PRICING;
    assertTrue(r0.valid(new double[] {167.0559}, new double[] {167.05571416613}));
    assertFalse(r0.valid(new double[] {167.0563}, new double[] {167.05571416613}));
    assertFalse(r0.valid(new double[] {Double.NaN}, new double[] {167.05571416613}));
    FinparBenchmark r1 = FinparBenchmark.LOC_VOL_CALIB;
    assertTrue(r1.valid(new double[] {0.0300001 + 9e-6, 0.029}, new double[] {0.0300001, 0.029}));
    assertFalse(r1.valid(new double[] {0.0300001, 0.029 + 2e-5}, new double[] {0.0300001, 0.029}));
    assertFalse(r1.valid(new double[] {0.0300001}, new double[] {0.0300001, 0.029}));
  }

  @Test
  void locVolCalibFirstStrikeOfTheSmallDatasetValidatesOnTheJvmDevice() throws IOException {
    assumeData();
    Path source = data.resolve("LocVolCalib").resolve("small");
    Path target = Files.createDirectories(dir.resolve("LocVolCalib").resolve("small"));
    Files.writeString(target.resolve("input.data"), withHeaderValue(Files.readString(source.resolve("input.data")), 0, "1"));
    double firstReference = FinparBenchmark.LOC_VOL_CALIB.readReference(source)[0];
    Files.writeString(target.resolve("output.data"), "[" + firstReference + "]\n");

    Outcome o = l0("finpar", "LocVolCalib", "small", "--data", dir.toString(), "--device", "jvm", "--runs", "1");

    assertEquals(0, o.exitCode(), o.out() + o.err());
    assertTrue(o.out().contains("\"valid\": true") && o.out().contains("\"device\": \"jvm: requested\""), o.out());
    assertEquals(1, numbers(o.out(), "result").size());
  }

  @ParameterizedTest
  @CsvSource({"small,1024", "medium,256", "large,16"})
  void optionPricingOptimisedOnTheJvmDeviceEqualsTheReferenceInterpreter(String size, String paths) throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    Path target = Files.createDirectories(dir.resolve(size));
    Files.writeString(target.resolve("input.data"),
        withHeaderValue(Files.readString(bench.dataset(data, size).resolve("input.data")), 1, paths));
    TypedProgram program = bench.program();
    List<Value> input = bench.readInput(program, target);

    double[] interpreted = FinparBenchmark.reals(new Interpreter(program.program()).call(FinparBenchmark.ENTRY, input));
    double[] optimised = FinparBenchmark.reals(
        new HostRunner(Optimizer.optimize(program), new JvmKernelExecutor()).call(FinparBenchmark.ENTRY, input));

    assertArrayEquals(interpreted, optimised, 1e-9 * Math.abs(interpreted[0]));
    assertTrue(Double.isFinite(interpreted[0]) && interpreted[0] > 0.0, "a price: " + interpreted[0]);
  }

  @Test
  void unknownBenchmarksSizesAndRunCountsAreUsageErrors() {
    assertEquals(Main.EXIT_USAGE, l0("finpar", "BlackScholes", "small").exitCode());
    assertEquals(Main.EXIT_USAGE, l0("finpar", "LocVolCalib", "huge", "--data", dir.toString()).exitCode());
    assertEquals(Main.EXIT_USAGE, l0("finpar", "LocVolCalib", "small", "--runs", "0").exitCode());
    Outcome missing = l0("finpar", "LocVolCalib", "small", "--data", dir.toString());
    assertEquals(Main.EXIT_BAD_INPUT, missing.exitCode());
    assertTrue(missing.err().contains("no such dataset file"), missing.err());
  }

  /** Whole datasets through {@code l0 finpar} on the JVM device; opt-in (see the class comment). */
  @ParameterizedTest
  @CsvSource({"OptionPricing,small", "LocVolCalib,small", "OptionPricing,medium", "LocVolCalib,medium"})
  @EnabledIfSystemProperty(named = "l0.finpar.full", matches = "true",
      disabledReason = "whole FinPar datasets run on the evaluator for now (minutes to an hour); -Dl0.finpar.full=true runs them")
  void wholeDatasetValidates(String name, String size) {
    assumeData();
    Outcome o = l0("finpar", name, size, "--data", data.toString(), "--device", "jvm");
    assertEquals(0, o.exitCode(), o.out() + o.err());
    assertTrue(o.out().contains("\"valid\": true"), o.out());
  }

  @Test
  void explainShowsTheKernelsOfBothPrograms() {
    List<String> counts = new ArrayList<>();
    for (FinparBenchmark bench : FinparBenchmark.values()) {
      Path file = Path.of("..", "dsl", "src", "main", "resources").resolve(bench.programResource().substring(1));
      Outcome o = l0("explain", file.toString());
      assertEquals(0, o.exitCode(), o.err());
      Matcher m = Pattern.compile("kernels: (\\d+)").matcher(o.out());
      assertTrue(m.find(), o.out());
      counts.add(bench.folderName() + "=" + m.group(1));
    }
    assertEquals(List.of("OptionPricing=2", "LocVolCalib=1"), counts);
  }
}
