package dev.l0.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.l0.interp.Interpreter;
import dev.l0.ir.ScalarType;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The FinPar programs (R0 OptionPricing, R1 LocVolCalib, R2 InterestCalib) on FinPar's own
 * datasets, read from {@code ../shared/data/finpar} beside the repository (skipped, saying so,
 * where that folder is absent), through {@code l0 finpar} and its validation.
 *
 * <p>Every small dataset and OptionPricing's and LocVolCalib's medium ones are validated whole on
 * the JVM backend by {@link #wholeDatasetValidatesOnTheJvmDevice} (seconds each on two cores,
 * InterestCalib small under a minute); the datasets that take minutes (InterestCalib medium, the
 * large ones) only with {@code -Dl0.finpar.full=true} ({@link #slowWholeDatasetValidates}). The
 * other tests validate parts: LocVolCalib's first strike of the small dataset against FinPar's
 * reference (each strike is computed independently, so the first element of the reference is the
 * reference of a one-strike dataset), and OptionPricing's optimised program against the reference
 * interpreter on every dataset with the path count cut down; InterestCalib's pricer on the
 * reference's winning genome, and its genetic algorithm on the small dataset cut to 6 genomes and
 * 12 iterations against FinPar's own C++ output for that input (a test resource; FinPar's draw
 * order replayed exactly).
 */
class FinparTest {
  @TempDir Path dir;

  private static Path data;

  @BeforeAll
  static void findData() {
    data =
        List.of(
                Path.of("..", "..", "shared", "data", "finpar"),
                Path.of("..", "shared", "data", "finpar"))
            .stream()
            .filter(Files::isDirectory)
            .findFirst()
            .orElse(null);
  }

  private static void assumeData() {
    assumeTrue(
        data != null,
        "FinPar datasets not found at ../shared/data/finpar beside the repository; skipped");
  }

  private record Outcome(int exitCode, String out, String err) {}

  private static Outcome l0(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.execute(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * {@code text} with the value on its {@code k}-th value line (0-based; comment-only and blank
   * lines skipped) replaced by {@code value}.
   */
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
  @CsvSource({
    "OptionPricing,small",
    "OptionPricing,medium",
    "OptionPricing,large",
    "LocVolCalib,small",
    "LocVolCalib,medium",
    "LocVolCalib,large",
    "InterestCalib,small",
    "InterestCalib,medium",
    "InterestCalib,large"
  })
  void everyDatasetIsReadInTheEntrysParameterOrder(String name, String size) throws IOException {
    assumeData();
    FinparBenchmark bench = FinparBenchmark.named(name);
    TypedProgram program = bench.program();
    List<Value> input = bench.readInput(program, bench.dataset(data, size));
    List<Value> reference = bench.readReference(bench.dataset(data, size));
    assertEquals(program.function(FinparBenchmark.ENTRY).params().size(), input.size());
    int first = (int) ((ScalarValue.Int) input.get(0)).value();
    if (bench == FinparBenchmark.OPTION_PRICING) {
      int dates = (int) ((ScalarValue.Int) input.get(2)).value();
      int underlyings = (int) ((ScalarValue.Int) input.get(3)).value();
      int models = (int) ((ScalarValue.Int) input.get(4)).value();
      assertEquals(
          dates * underlyings, ((Value.Array) input.get(6)).elements().size(), "Sobol dimensions");
      assertEquals(models, bench.summary(reference).length, "one price per model");
      assertEquals(
          List.of("small", "medium", "large").indexOf(size) + 1,
          first,
          "the contract of the dataset");
    } else if (bench == FinparBenchmark.LOC_VOL_CALIB) {
      assertEquals(first, bench.summary(reference).length, "one price per strike");
    } else {
      int quotes = (int) ((ScalarValue.Int) input.get(2)).value();
      assertEquals(quotes, ((Value.Array) input.get(3)).elements().size(), "swaption quotes");
      assertEquals(
          quotes, ((Value.Array) reference.get(6)).elements().size(), "a result row per swaption");
      assertTrue(first >= 64, "population " + first);
    }
  }

  private static List<Value> prices(double... values) {
    return List.of(
        new Value.Array(
            ScalarType.F64,
            java.util.Arrays.stream(values)
                .mapToObj(v -> (Value) new ScalarValue.Float(ScalarType.F64, v))
                .toList()));
  }

  @Test
  void validationIsFinParsAbsoluteToleranceAndFailsOnNanOrALengthMismatch() {
    FinparBenchmark r0 = FinparBenchmark.OPTION_PRICING;
    assertTrue(r0.valid(prices(167.0559), prices(167.05571416613)));
    assertFalse(r0.valid(prices(167.0563), prices(167.05571416613)));
    assertFalse(r0.valid(prices(Double.NaN), prices(167.05571416613)));
    FinparBenchmark r1 = FinparBenchmark.LOC_VOL_CALIB;
    assertTrue(r1.valid(prices(0.0300001 + 9e-6, 0.029), prices(0.0300001, 0.029)));
    assertFalse(r1.valid(prices(0.0300001, 0.029 + 2e-5), prices(0.0300001, 0.029)));
    assertFalse(r1.valid(prices(0.0300001), prices(0.0300001, 0.029)));
  }

  /**
   * {@code reference} with its log-likelihood moved by {@code delta} and row {@code row}'s
   * calibrated price scaled by {@code factor}.
   */
  private static List<Value> changed(List<Value> reference, double delta, int row, double factor) {
    List<Value> result = new ArrayList<>(reference);
    result.set(
        5,
        new ScalarValue.Float(
            ScalarType.F64, ((ScalarValue.Float) reference.get(5)).value() + delta));
    Value.Array rows = (Value.Array) reference.get(6);
    List<Value> newRows = new ArrayList<>(rows.elements());
    double[] r = FinparBenchmark.reals(rows.get(row));
    newRows.set(row, prices(r[0] * factor, r[1], r[2]).get(0));
    result.set(6, new Value.Array(rows.elementType(), newRows));
    return result;
  }

  @Test
  void interestCalibValidationIsFinParsThreeChecks() throws IOException {
    assumeData();
    FinparBenchmark r2 = FinparBenchmark.INTEREST_CALIB;
    List<Value> reference = r2.readReference(r2.dataset(data, "small"));
    assertTrue(r2.valid(reference, reference));
    assertTrue(r2.valid(changed(reference, 0.9, 0, 1.0), reference), "better by 0.9: within 1.0");
    assertFalse(r2.valid(changed(reference, 1.1, 0, 1.0), reference), "more than 1.0 away");
    assertTrue(r2.valid(changed(reference, -0.4, 0, 1.0), reference), "worse by 0.4");
    assertFalse(r2.valid(changed(reference, -0.6, 0, 1.0), reference), "worse by more than 0.5");
    assertFalse(r2.valid(changed(reference, 0.0, 7, 3.0), reference), "a swaption's price far off");
  }

  @Test
  void locVolCalibFirstStrikeOfTheSmallDatasetValidatesOnTheJvmDevice() throws IOException {
    assumeData();
    Path source = data.resolve("LocVolCalib").resolve("small");
    Path target = Files.createDirectories(dir.resolve("LocVolCalib").resolve("small"));
    Files.writeString(
        target.resolve("input.data"),
        withHeaderValue(Files.readString(source.resolve("input.data")), 0, "1"));
    double firstReference =
        FinparBenchmark.LOC_VOL_CALIB
            .summary(FinparBenchmark.LOC_VOL_CALIB.readReference(source))[0];
    Files.writeString(target.resolve("output.data"), "[" + firstReference + "]\n");

    Outcome o =
        l0(
            "finpar",
            "LocVolCalib",
            "small",
            "--data",
            dir.toString(),
            "--device",
            "jvm",
            "--runs",
            "1");

    assertEquals(0, o.exitCode(), o.out() + o.err());
    assertTrue(
        o.out().contains("\"valid\": true") && o.out().contains("\"device\": \"jvm: requested\""),
        o.out());
    assertEquals(1, numbers(o.out(), "result").size());
    // The JVM backend copies nothing between host and device; its kernels took some time.
    assertTrue(
        o.out().contains("\"transfer_s\": 0.0, \"transfer_bytes\": 0,")
            && !o.out().contains("\"kernel_s\": 0.0,"),
        o.out());
  }

  // large,64: two chunks of 32 paths, whose draws run staged (32 x 367 x 3 AS241 regions a run)
  @ParameterizedTest
  @CsvSource({"small,1024", "medium,256", "large,64"})
  void optionPricingOptimisedOnTheJvmDeviceEqualsTheReferenceInterpreter(String size, String paths)
      throws IOException {
    assumeData();
    TypedProgram program = FinparBenchmark.OPTION_PRICING.program();
    List<Value> input = optionPricingInput(program, size, paths);

    double[] interpreted =
        FinparBenchmark.reals(
            new Interpreter(program.program()).call(FinparBenchmark.ENTRY, input));
    double[] optimised =
        FinparBenchmark.reals(jvmRunner(program).call(FinparBenchmark.ENTRY, input));

    assertArrayEquals(interpreted, optimised, 1e-9 * Math.abs(interpreted[0]));
    assertTrue(
        Double.isFinite(interpreted[0]) && interpreted[0] > 0.0, "a price: " + interpreted[0]);
  }

  @ParameterizedTest
  @CsvSource({"small,1024", "medium,256", "large,16"})
  void optionPricingHasTheSameBitsWithALargerJvmMethodBudget(String size, String paths)
      throws IOException {
    assumeData();
    TypedProgram program = FinparBenchmark.OPTION_PRICING.program();
    List<Value> input = optionPricingInput(program, size, paths);

    Value standard = jvmRunner(program).call(FinparBenchmark.ENTRY, input);
    String property = "l0.jvm.methodBudget";
    System.setProperty(property, "12000");
    Value larger;
    try {
      larger = jvmRunner(program).call(FinparBenchmark.ENTRY, input);
    } finally {
      System.clearProperty(property);
    }
    // records compare their doubles as Double.compare does: -0.0 and 0.0 differ
    assertEquals(standard, larger);
  }

  private static HostRunner jvmRunner(TypedProgram program) {
    return new HostRunner(Optimizer.optimize(program), new JvmKernelExecutor());
  }

  /** OptionPricing's {@code size} dataset with its path count replaced by {@code paths}. */
  private List<Value> optionPricingInput(TypedProgram program, String size, String paths)
      throws IOException {
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    Path target = Files.createDirectories(dir.resolve(size + "-" + paths + "-paths"));
    Files.writeString(
        target.resolve("input.data"),
        withHeaderValue(
            Files.readString(bench.dataset(data, size).resolve("input.data")), 1, paths));
    return bench.readInput(program, target);
  }

  /** The small dataset's input.data with the population and the iteration count replaced. */
  private Path interestCalibInput(int population, int iterations) throws IOException {
    String text =
        Files.readString(data.resolve("InterestCalib").resolve("small").resolve("input.data"));
    Path target =
        Files.createDirectories(dir.resolve("InterestCalib-" + population + "-" + iterations));
    Files.writeString(
        target.resolve("input.data"),
        withHeaderValue(
            withHeaderValue(text, 0, Integer.toString(population)),
            1,
            Integer.toString(iterations)));
    return target;
  }

  @Test
  void interestCalibPricerReproducesTheReferenceOfTheWinningGenome() throws IOException {
    assumeData();
    FinparBenchmark r2 = FinparBenchmark.INTEREST_CALIB;
    TypedProgram program = r2.program();
    Path small = r2.dataset(data, "small");
    List<Value> input = r2.readInput(program, small);
    List<Value> reference = r2.readReference(small);
    double[] printed = r2.summary(reference);
    // output.data's genome order is a, b, sigma, nu, rho; a genome row is a, b, rho, nu, sigma,
    // logLik, fbRat
    List<Value> genome =
        prices(printed[0], printed[1], printed[4], printed[3], printed[2], 0.0, 0.0);

    List<Value> calibration =
        FinparBenchmark.components(
            new Interpreter(program.program())
                .call(
                    "calibration",
                    List.of(input.get(3), input.get(5), input.get(6), genome.get(0))));

    double logLik = ((ScalarValue.Float) calibration.get(0)).value();
    assertEquals(
        printed[5], logLik, 1e-3, "the log-likelihood of the printed (6-decimal) winning genome");
    List<Value> result = new ArrayList<>(reference.subList(0, 6));
    result.add(calibration.get(1));
    assertTrue(
        r2.valid(result, reference), "every swaption's price validates against the reference row");
    Value.Array rows = (Value.Array) calibration.get(1);
    Value.Array referenceRows = (Value.Array) reference.get(6);
    for (int q = 0; q < rows.elements().size(); q++) {
      assertEquals(
          FinparBenchmark.reals(referenceRows.get(q))[1],
          FinparBenchmark.reals(rows.get(q))[1],
          1e-6,
          "Black price * 1e4 of swaption " + q);
    }
  }

  @Test
  void interestCalibGeneticAlgorithmReplaysFinParsDrawsOnTheJvmDevice() throws IOException {
    assumeData();
    FinparBenchmark r2 = FinparBenchmark.INTEREST_CALIB;
    TypedProgram program = r2.program();
    List<Value> input = r2.readInput(program, interestCalibInput(6, 12));
    Path expectedFile =
        Path.of(
            FinparTest.class
                .getResource("/finpar/InterestCalib-small-pop6-loops12.output.data")
                .getPath());
    List<Value> expected =
        dev.l0.values.ValueReader.read(
            Files.readString(expectedFile), r2.outputTypes(), expectedFile.toString());

    List<Value> result =
        FinparBenchmark.components(jvmRunner(program).call(FinparBenchmark.ENTRY, input));

    // FinPar prints six decimals
    assertArrayEquals(r2.summary(expected), r2.summary(result), 5.1e-7);
    Value.Array rows = (Value.Array) result.get(6);
    Value.Array expectedRows = (Value.Array) expected.get(6);
    for (int q = 0; q < rows.elements().size(); q++) {
      assertArrayEquals(
          FinparBenchmark.reals(expectedRows.get(q)),
          FinparBenchmark.reals(rows.get(q)),
          5.1e-7,
          "swaption " + q);
    }
  }

  @Test
  void unknownBenchmarksSizesAndRunCountsAreUsageErrors() {
    assertEquals(Main.EXIT_USAGE, l0("finpar", "BlackScholes", "small").exitCode());
    assertEquals(
        Main.EXIT_USAGE, l0("finpar", "LocVolCalib", "huge", "--data", dir.toString()).exitCode());
    assertEquals(Main.EXIT_USAGE, l0("finpar", "LocVolCalib", "small", "--runs", "0").exitCode());
    Outcome missing = l0("finpar", "LocVolCalib", "small", "--data", dir.toString());
    assertEquals(Main.EXIT_BAD_INPUT, missing.exitCode());
    assertTrue(missing.err().contains("no such dataset file"), missing.err());
  }

  @Test
  void aDatasetFileThatIsAFolderOrNotTextIsBadInputNamingTheFile() throws IOException {
    Path dataset = Files.createDirectories(dir.resolve("OptionPricing").resolve("small"));
    Files.createDirectories(dataset.resolve("input.data"));
    Files.writeString(dataset.resolve("output.data"), "[ 1.0 ]\n");
    Outcome folder = l0("finpar", "OptionPricing", "small", "--data", dir.toString());
    assertEquals(Main.EXIT_BAD_INPUT, folder.exitCode(), folder.err());
    assertEquals(
        "l0 finpar: " + dataset.resolve("input.data") + ": Is a directory", folder.err().trim());
    Files.delete(dataset.resolve("input.data"));
    Files.write(dataset.resolve("input.data"), new byte[] {'1', ' ', '/', '/', ' ', (byte) 0xff});
    Outcome binary = l0("finpar", "OptionPricing", "small", "--data", dir.toString());
    assertEquals(Main.EXIT_BAD_INPUT, binary.exitCode(), binary.err());
    assertEquals(
        "bad input: "
            + dataset.resolve("input.data")
            + ":1:6: the file is not UTF-8 text: invalid byte sequence at byte offset 5 (0xff)",
        binary.err().trim());
  }

  @Test
  void aReferenceOfAnotherLengthIsBadInputNamingTheFile() throws IOException {
    Path dataset = optionPricingSmallWithPaths(64, "[ 1.0, 2.0 ]");
    Outcome run =
        l0("finpar", "OptionPricing", "small", "--device", "jvm", "--data", dir.toString());
    assertEquals(Main.EXIT_BAD_INPUT, run.exitCode(), run.err());
    assertEquals(
        "bad input: "
            + dataset.resolve("output.data")
            + ":1:1: holds 2 reference value(s), but the program gives 1 for this dataset's"
            + " input.data: the two files do not belong together",
        run.err().trim());
  }

  /**
   * {@code --program FILE} runs the user's own formulation on the dataset, validated as the shipped
   * one: OptionPricing with chunks of 8 paths instead of 32 validates against the shipped program's
   * prices, and its line names the file; one that doubles every price does not (so the file, not
   * the shipped program, ran). A file without {@code main}, one whose {@code main} returns another
   * type than {@code output.data} holds, or one given with {@code all} is refused; one whose {@code
   * main} takes other values than {@code input.data} holds is bad input naming that {@code main}.
   */
  @Test
  void aFormulationOfTheUsersOwnRunsOnTheDatasetAndItsLineNamesIt() throws IOException {
    Path dataset = optionPricingSmallWithPaths(4000, "[ 0.0 ]");
    Outcome shipped =
        l0("finpar", "OptionPricing", "small", "--device", "jvm", "--data", dir.toString());
    String price = numbers(shipped.out(), "result").get(0);
    Files.writeString(dataset.resolve("output.data"), "[ " + price + " ]\n");
    String source = shippedOptionPricing();
    assertTrue(source.contains("let pathsPerChunk = 32 in"), "the shipped program changed");
    Outcome own =
        ownFormulation(
            "eights.l0", source.replace("let pathsPerChunk = 32 in", "let pathsPerChunk = 8 in"));
    assertEquals(0, own.exitCode(), own.out() + own.err());
    assertTrue(own.out().contains("\"program\": \"" + dir.resolve("eights.l0") + "\""), own.out());
    assertTrue(own.out().contains("\"device\": \"jvm: requested\""), own.out());
    Outcome wrong =
        ownFormulation(
            "doubled.l0", source.replace("sum / real(numMcIt)", "2.0 * sum / real(numMcIt)"));
    assertEquals(Main.EXIT_INVALID, wrong.exitCode(), wrong.out() + wrong.err());
    assertTrue(wrong.out().contains("\"valid\": false"), wrong.out());
    Outcome missing = ownFormulation("nomain.l0", "fun int other(int x) = x\n");
    assertEquals(Main.EXIT_PROGRAM_ERROR, missing.exitCode(), missing.err());
    assertTrue(
        missing
            .err()
            .contains(dir.resolve("nomain.l0") + ":1:1: the program defines no function 'main'"),
        missing.err());
    Outcome wrongType =
        ownFormulation(
            "integer.l0", "// the contract number\nfun int main(int contract) = contract\n");
    assertEquals(Main.EXIT_PROGRAM_ERROR, wrongType.exitCode(), wrongType.err());
    assertTrue(
        wrongType
            .err()
            .contains(
                dir.resolve("integer.l0")
                    + ":2:1: main returns i32, but OptionPricing's output.data holds [f64], which"
                    + " l0 finpar validates it against"),
        wrongType.err());
    Outcome fewer =
        ownFormulation("fewer.l0", "fun [real] main(int contract) = [real(contract)]\n");
    assertEquals(Main.EXIT_BAD_INPUT, fewer.exitCode(), fewer.err());
    assertTrue(
        fewer
            .err()
            .contains(
                "expected the end of input after 1 value(s), found '4000' (read as the 1"
                    + " parameter(s) of main at "
                    + dir.resolve("fewer.l0")
                    + ":1:1)"),
        fewer.err());
    Outcome all = l0("finpar", "all", "small", "--program", dir.resolve("eights.l0").toString());
    assertEquals(Main.EXIT_USAGE, all.exitCode(), all.err());
    assertTrue(all.err().contains("--program is one benchmark's formulation"), all.err());
  }

  /**
   * A formulation of the user's own that gives another number of values than the dataset's {@code
   * output.data} holds is named as the cause, not the dataset's two files.
   */
  @Test
  void aFormulationGivingAnotherNumberOfValuesIsNamedAsTheCause() throws IOException {
    optionPricingSmallWithPaths(64, "[ 1.0 ]");
    String source = shippedOptionPricing();
    int main = source.indexOf("fun [real] main(");
    Outcome run =
        ownFormulation(
            "two.l0", source.substring(main, source.indexOf(") =", main)) + ") = [1.0, 2.0]\n");
    assertEquals(Main.EXIT_BAD_INPUT, run.exitCode(), run.err());
    assertTrue(
        run.err()
            .contains(
                "output.data:1:1: holds 1 reference value(s), but "
                    + dir.resolve("two.l0")
                    + "'s main gives 2 for this dataset's input.data"),
        run.err());
    assertFalse(run.err().contains("do not belong together"), run.err());
  }

  /**
   * {@code l0 finpar OptionPricing small --device jvm} on the dataset under {@code dir} with {@code
   * source}, written to {@code dir/fileName}, as {@code --program}.
   */
  private Outcome ownFormulation(String fileName, String source) throws IOException {
    Path file = dir.resolve(fileName);
    Files.writeString(file, source);
    return l0(
        "finpar",
        "OptionPricing",
        "small",
        "--device",
        "jvm",
        "--data",
        dir.toString(),
        "--program",
        file.toString());
  }

  /**
   * OptionPricing's small dataset under {@code dir} with {@code paths} paths instead of 8,388,608
   * and {@code reference} as its {@code output.data}; its folder.
   */
  private Path optionPricingSmallWithPaths(int paths, String reference) throws IOException {
    assumeData();
    Path dataset = Files.createDirectories(dir.resolve("OptionPricing").resolve("small"));
    String input =
        Files.readString(data.resolve("OptionPricing").resolve("small").resolve("input.data"));
    Files.writeString(dataset.resolve("input.data"), input.replaceFirst("8388608", "" + paths));
    Files.writeString(dataset.resolve("output.data"), reference + "\n");
    return dataset;
  }

  /** The text of the shipped OptionPricing program. */
  private static String shippedOptionPricing() throws IOException {
    try (var in = FinparBenchmark.class.getResourceAsStream("/programs/finpar/OptionPricing.l0")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Whole datasets through {@code l0 finpar} on the JVM device, which reports that it ran them. */
  @ParameterizedTest
  @CsvSource({
    "OptionPricing,small",
    "LocVolCalib,small",
    "InterestCalib,small",
    "OptionPricing,medium",
    "LocVolCalib,medium"
  })
  void wholeDatasetValidatesOnTheJvmDevice(String name, String size) {
    assertWholeDatasetValidates(name, size);
  }

  /** The whole datasets that take minutes on two cores; opt-in (see the class comment). */
  @ParameterizedTest
  @CsvSource({"InterestCalib,medium", "OptionPricing,large", "LocVolCalib,large"})
  @EnabledIfSystemProperty(
      named = "l0.finpar.full",
      matches = "true",
      disabledReason =
          "these datasets take minutes on the JVM backend on two cores; -Dl0.finpar.full=true runs them")
  void slowWholeDatasetValidates(String name, String size) {
    assertWholeDatasetValidates(name, size);
  }

  private static void assertWholeDatasetValidates(String name, String size) {
    assumeData();
    Outcome o = l0("finpar", name, size, "--data", data.toString(), "--device", "jvm");
    assertEquals(0, o.exitCode(), o.out() + o.err());
    assertTrue(
        o.out().contains("\"valid\": true") && o.out().contains("\"device\": \"jvm: requested\""),
        o.out());
  }

  @Test
  void explainShowsTheKernelsOfEveryProgram() {
    List<String> counts = new ArrayList<>();
    Pattern kernelLine =
        Pattern.compile("(?m)^kernel \\d+: .*? in (\\w+)(?: \\(inside [^)]*\\))?: ");
    for (FinparBenchmark bench : FinparBenchmark.values()) {
      Path file =
          Path.of("..", "dsl", "src", "main", "resources")
              .resolve(bench.programResource().substring(1));
      Outcome o = l0("explain", file.toString());
      assertEquals(0, o.exitCode(), o.err());
      Map<String, Integer> perEntry = new TreeMap<>();
      Matcher m = kernelLine.matcher(o.out());
      while (m.find()) {
        perEntry.merge(m.group(1), 1, Integer::sum);
      }
      Matcher total = Pattern.compile("kernels: (\\d+)").matcher(o.out());
      assertTrue(total.find(), o.out());
      assertEquals(
          Integer.parseInt(total.group(1)),
          perEntry.values().stream().mapToInt(Integer::intValue).sum(),
          o.out());
      counts.add(bench.folderName() + "=" + perEntry);
    }
    // main is FinPar's whole benchmark; payoffSums and strikePrices are the entries bin/l0-job
    // finpar runs per partition.
    assertEquals(
        List.of(
            "OptionPricing={main=2, payoffSums=1}",
            "LocVolCalib={main=1, strikePrices=1}",
            "InterestCalib={main=10}"),
        counts);
  }
}
