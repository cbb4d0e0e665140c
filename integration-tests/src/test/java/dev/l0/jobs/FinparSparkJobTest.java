package dev.l0.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.l0.cli.FinparBenchmark;
import dev.l0.cli.Main;
import dev.l0.ir.FunDef;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.kernels.api.CompiledProgram;
import dev.l0.kernels.api.L0Runtime;
import dev.l0.kernels.runtime.DeviceKind;
import dev.l0.types.TypedProgram;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * FinPar's OptionPricing and LocVolCalib split over Spark partitions ({@code local[2]}): the whole
 * small datasets validate with FinPar's rules with 1 and 4 partitions, and reduced inputs (fewer
 * paths, strikes and time steps) give the single-JVM run's result of {@code main} bit for bit (or,
 * for OptionPricing's sums, up to the last bits) whatever the split.
 */
class FinparSparkJobTest {
  private static final Path DATA = Path.of("../../shared/data/finpar");
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    System.setProperty("spark.driver.host", "127.0.0.1");
    System.setProperty("spark.driver.bindAddress", "127.0.0.1");
    spark = JobSessions.start(FinparSparkJobTest.class.getSimpleName(), Optional.of("local[2]"));
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @ParameterizedTest(name = "{0} small on {1} partition(s)")
  @CsvSource({"OptionPricing, 1", "OptionPricing, 4", "LocVolCalib, 1", "LocVolCalib, 4"})
  void theSmallDatasetValidatesOnOneAndFourPartitions(String name, int partitions)
      throws IOException {
    FinparBenchmark bench = FinparBenchmark.named(name);
    FinparSparkJob.Outcome outcome =
        FinparSparkJob.run(spark, bench, bench.dataset(DATA, "small"), partitions, 1);

    assertTrue(
        outcome.valid(),
        () ->
            name
                + " small on "
                + partitions
                + " partition(s): max |reference - result| "
                + FinparBenchmark.maxAbsError(outcome.prices(), outcome.reference())
                + " breaks "
                + bench.rule());
    assertEquals(partitions, outcome.partitions());
    assertEquals(outcome.reference().length, outcome.prices().length);
  }

  @Test
  void runsNeedsAWholeNumberOfAtLeastOne() throws IOException {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            new String[] {"LocVolCalib", "small", "local[2]", "2", "0"},
            DATA,
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_USAGE, code);
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("RUNS takes a whole number >= 1, got '0'"),
        err::toString);
  }

  @Test
  void strikesSplitOverPartitionsGiveTheSingleJvmPrices() throws IOException {
    FinparBenchmark bench = FinparBenchmark.LOC_VOL_CALIB;
    TypedProgram program = bench.program();
    List<Value> inputs = reduced(program, bench, "small", "outer", 4, "numT", 12);

    double[] onePartition = FinparSparkJob.prices(spark, bench, program, inputs, 1);
    double[] fourPartitions = FinparSparkJob.prices(spark, bench, program, inputs, 4);

    assertEquals(4, onePartition.length);
    assertArrayEquals(
        onePartition, fourPartitions, 0.0, "a strike's price does not depend on the split");
    assertArrayEquals(singleJvm(bench, inputs), onePartition, 0.0);
  }

  @Test
  void pathsSplitOverPartitionsGiveTheSingleJvmPricesAndRerunsAgree() throws IOException {
    FinparBenchmark bench = FinparBenchmark.OPTION_PRICING;
    TypedProgram program = bench.program();
    List<Value> inputs = reduced(program, bench, "small", "numMcIt", 3000, null, 0);

    double[] onePartition = FinparSparkJob.prices(spark, bench, program, inputs, 1);
    double[] fourPartitions = FinparSparkJob.prices(spark, bench, program, inputs, 4);
    double[] rerun = FinparSparkJob.prices(spark, bench, program, inputs, 4);

    double[] expected = singleJvm(bench, inputs);
    assertEquals(expected.length, onePartition.length);
    // the sums over the paths add in another order per split: equal up to the last bits
    assertArrayEquals(expected, onePartition, Math.abs(expected[0]) * 1e-11);
    assertArrayEquals(expected, fourPartitions, Math.abs(expected[0]) * 1e-11);
    assertArrayEquals(
        fourPartitions, rerun, 0.0, "the same split gives the same sums on every run");
    assertTrue(expected[0] > 0.0, "a European call's mean payoff over 3000 paths is positive");
  }

  @Test
  void aBenchmarkThatDoesNotSplitIsAUsageError() throws IOException {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            new String[] {"InterestCalib", "small"},
            DATA,
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_USAGE, code);
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("InterestCalib does not run on Spark"),
        err::toString);
  }

  /**
   * An unknown benchmark's message lists the benchmarks this job runs: it was {@code l0 finpar}'s,
   * which offers InterestCalib and {@code all} ("unknown FinPar benchmark 'all'; expected one of
   * ..., or all").
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"all", "Foo"})
  void anUnknownBenchmarkListsTheBenchmarksThatRunOnSpark(String name) throws IOException {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            new String[] {name, "small"},
            DATA,
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_USAGE, code);
    assertEquals(
        "FinparSparkJob: unknown FinPar benchmark '"
            + name
            + "'; expected OptionPricing or LocVolCalib\n",
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aMissingDatasetIsOneLineAndExitThreeBeforeSparkStarts(@TempDir Path empty)
      throws IOException {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            new String[] {"OptionPricing", "small", "--data", empty.toString()},
            DATA,
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_BAD_INPUT, code);
    // --data replaces the default folder, and the message names the file that is missing
    assertEquals(
        "FinparSparkJob: "
            + empty.resolve("OptionPricing").resolve("small").resolve("input.data")
            + ": no such dataset file (give the FinPar data folder with --data DIR)\n",
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * A bad option is reported as {@code l0 finpar} reports it (the same parser): an option without
   * its value and an unknown option give l0's message with {@code FinparSparkJob:} in front, then
   * the job's usage, and exit 2 before Spark starts.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "OptionPricing small --data | option '--data' needs a value",
        "OptionPricing small --frobnicate 3 | unknown option '--frobnicate'"
      })
  void aBadOptionIsTheUsageErrorOfL0Finpar(String commandLine, String message) throws IOException {
    String[] args = commandLine.split(" ");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            args, DATA, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_USAGE, code);
    assertEquals(
        "FinparSparkJob: " + message + "\n" + FinparSparkJob.USAGE + "\n",
        err.toString(StandardCharsets.UTF_8));
    ByteArrayOutputStream l0Err = new ByteArrayOutputStream();
    String[] l0Args = new String[args.length + 1];
    l0Args[0] = "finpar";
    System.arraycopy(args, 0, l0Args, 1, args.length);
    assertEquals(
        FinparSparkJob.EXIT_USAGE,
        Main.execute(
            l0Args,
            InputStream.nullInputStream(),
            System.out,
            new PrintStream(l0Err, true, StandardCharsets.UTF_8)));
    assertTrue(
        l0Err.toString(StandardCharsets.UTF_8).startsWith("l0 finpar: " + message + "\n"),
        l0Err::toString);
  }

  /** {@code --data DIR} may come anywhere, as for {@code l0 finpar}; it is no positional word. */
  @Test
  void dataMayComeBeforeTheBenchmark(@TempDir Path empty) throws IOException {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        FinparSparkJob.run(
            new String[] {"--data", empty.toString(), "LocVolCalib", "small", "local[2]"},
            DATA,
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(FinparSparkJob.EXIT_BAD_INPUT, code, err::toString);
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .startsWith("FinparSparkJob: " + empty.resolve("LocVolCalib").resolve("small")),
        err::toString);
  }

  /**
   * The dataset's inputs of main with parameter {@code first} set to {@code firstValue} (and {@code
   * second}, if not null).
   */
  private static List<Value> reduced(
      TypedProgram program,
      FinparBenchmark bench,
      String size,
      String first,
      int firstValue,
      String second,
      int secondValue)
      throws IOException {
    List<Value> inputs = new ArrayList<>(bench.readInput(program, bench.dataset(DATA, size)));
    FunDef main = program.function(FinparBenchmark.ENTRY);
    for (int k = 0; k < inputs.size(); k++) {
      String name = main.params().get(k).name();
      if (name.equals(first) || name.equals(second)) {
        inputs.set(
            k,
            new ScalarValue.Int(
                ((ScalarValue.Int) inputs.get(k)).type(),
                name.equals(first) ? firstValue : secondValue));
      }
    }
    return inputs;
  }

  /** main's result on {@code inputs}, run in this JVM on the JVM backend. */
  private static double[] singleJvm(FinparBenchmark bench, List<Value> inputs) throws IOException {
    TypedProgram program = bench.program();
    FunDef main = program.function(FinparBenchmark.ENTRY);
    Object[] arguments = new Object[inputs.size()];
    for (int k = 0; k < arguments.length; k++) {
      arguments[k] = FinparSparkJob.javaValue(inputs.get(k), main.params().get(k).type());
    }
    try (CompiledProgram compiled =
        L0Runtime.compile(
            FinparSparkJob.programText(bench),
            bench.programResource(),
            FinparBenchmark.ENTRY,
            DeviceKind.JVM)) {
      return (double[]) compiled.run(arguments);
    }
  }
}
