package dev.l0.jobs;

import dev.l0.cli.CliArgs;
import dev.l0.cli.FinparBenchmark;
import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.kernels.report.JsonLine;
import dev.l0.spark.L0;
import dev.l0.spark.L0Pipeline;
import dev.l0.types.TypedProgram;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * FinPar's OptionPricing and LocVolCalib distributed over Spark partitions with {@code
 * df.transform(L0.pipeline(...))}, validated with FinPar's rules. OptionPricing's rows are indices
 * of chunks of {@value #PATHS_PER_CHUNK} consecutive paths (a chunk's Sobol numbers start from its
 * first index, so any split draws the same numbers), summed per model by the program's array-valued
 * reduce (entry {@code payoffSums}) and divided by {@code numMcIt} on the driver; LocVolCalib's
 * rows are strike indices (entry {@code strikePrices}). Every other input of the dataset is bound
 * to the entry's parameters with {@link L0Pipeline#with}. Runs the whole job RUNS times in one
 * Spark session (the first run also pays Spark's first query and the executor's compilation of the
 * program, later runs find both warm, as the CLI's {@code --runs} separates compile from run time).
 * Prints one JSON line; exits 0 only when every run's result is valid and equal to the first's.
 * Usage: {@code FinparSparkJob BENCH SIZE [SPARK_MASTER [PARTITIONS [RUNS]]] [--data DIR]} (default
 * master local[2], default partitions Spark's default parallelism, default runs 1); the data folder
 * is DIR, by default {@code $L0_HOME/../shared/data/finpar}. The options are parsed by {@code l0
 * finpar}'s parser ({@link CliArgs}): a missing value or an unknown option is its message, exit 2.
 * A dataset whose files are missing exits 3 before Spark starts.
 */
public final class FinparSparkJob {
  static final int EXIT_INVALID = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_BAD_INPUT = 3;
  static final String DATA_FOLDER = "../shared/data/finpar";
  static final String USAGE =
      "usage: FinparSparkJob OptionPricing|LocVolCalib small|medium|large [SPARK_MASTER [PARTITIONS [RUNS]]] [--data DIR]";

  /** OptionPricing's paths per row (main's chunk size). */
  static final int PATHS_PER_CHUNK = 32;

  /**
   * How a benchmark is split into rows: its entry, the row column, the parameter of main that
   * counts the items (paths, strikes), and how many items a row holds with the entry's parameter
   * that is bound to that number, if a row holds more than one.
   */
  enum Split {
    OPTION_PRICING("payoffSums", "chunk", "numMcIt", PATHS_PER_CHUNK, Optional.of("pathsPerChunk")),
    LOC_VOL_CALIB("strikePrices", "strike", "outer", 1, Optional.empty());

    final String entry;
    final String column;
    final String countParameter;
    final int itemsPerRow;
    final Optional<String> itemsPerRowParameter;

    Split(
        String entry,
        String column,
        String countParameter,
        int itemsPerRow,
        Optional<String> itemsPerRowParameter) {
      this.entry = entry;
      this.column = column;
      this.countParameter = countParameter;
      this.itemsPerRow = itemsPerRow;
      this.itemsPerRowParameter = itemsPerRowParameter;
    }

    /** The rows that hold {@code items} items. */
    int rows(int items) {
      return (items + itemsPerRow - 1) / itemsPerRow;
    }

    /**
     * The benchmark {@code name} names, one that splits; an unknown name's message lists those (not
     * {@code l0 finpar}'s list, which offers InterestCalib and {@code all}).
     */
    static FinparBenchmark benchmark(String name) {
      FinparBenchmark bench;
      try {
        bench = FinparBenchmark.named(name);
      } catch (CliArgs.UsageError e) {
        throw new IllegalArgumentException(
            "unknown FinPar benchmark '" + name + "'; expected OptionPricing or LocVolCalib", e);
      }
      of(bench);
      return bench;
    }

    static Split of(FinparBenchmark bench) {
      return switch (bench) {
        case OPTION_PRICING -> OPTION_PRICING;
        case LOC_VOL_CALIB -> LOC_VOL_CALIB;
        case INTEREST_CALIB ->
            throw new IllegalArgumentException(
                "InterestCalib does not run on Spark (its DE-MCMC loop is sequential); expected OptionPricing or LocVolCalib");
      };
    }
  }

  /**
   * The outcome of {@code seconds.length} runs: FinPar's result of the first (the prices), the
   * reference, whether every run validated, whether every rerun gave the first run's bits, the
   * partitions that ran, and each run's seconds.
   */
  record Outcome(
      FinparBenchmark bench,
      double[] prices,
      double[] reference,
      boolean valid,
      boolean rerunsAgree,
      int partitions,
      double[] seconds) {
    double bestSeconds() {
      return Arrays.stream(seconds).min().orElseThrow();
    }
  }

  private FinparSparkJob() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, dataRoot(), System.out, System.err));
  }

  /**
   * Runs {@code BENCH SIZE [SPARK_MASTER [PARTITIONS [RUNS]]] [--data DIR]} on the datasets under
   * DIR, else under {@code defaultDataRoot}; returns the exit code.
   */
  static int run(String[] options, Path defaultDataRoot, PrintStream out, PrintStream err)
      throws IOException {
    CliArgs parsed;
    try {
      parsed = CliArgs.parse(options, Set.of("data"), Set.of());
    } catch (CliArgs.UsageError e) { // the same parser, and messages, as l0 finpar's
      err.println("FinparSparkJob: " + e.getMessage() + "\n" + USAGE);
      return EXIT_USAGE;
    }
    Path dataRoot = parsed.option("data").map(Path::of).orElse(defaultDataRoot);
    String[] args = parsed.positional().toArray(String[]::new);
    if (args.length < 2 || args.length > 5) {
      err.println(USAGE);
      return EXIT_USAGE;
    }
    FinparBenchmark bench;
    Path dataset;
    Optional<Integer> partitions;
    int runs;
    try {
      bench = Split.benchmark(args[0]);
      dataset = bench.dataset(dataRoot, args[1]);
      partitions =
          args.length >= 4 ? Optional.of(atLeastOne("PARTITIONS", args[3])) : Optional.empty();
      runs = args.length == 5 ? atLeastOne("RUNS", args[4]) : 1;
    } catch (
        RuntimeException
            e) { // an unknown benchmark or size (the CLI's usage error), or a bad PARTITIONS or
      // RUNS
      err.println("FinparSparkJob: " + e.getMessage());
      return EXIT_USAGE;
    }
    for (String file : FinparBenchmark.DATASET_FILES) {
      if (!Files.isRegularFile(dataset.resolve(file))) {
        err.println(
            "FinparSparkJob: "
                + dataset.resolve(file)
                + ": no such dataset file (give the FinPar data folder with --data DIR)");
        return EXIT_BAD_INPUT;
      }
    }
    SparkSession spark;
    try {
      spark =
          JobSessions.start(
              "L0 FinPar " + bench.folderName(),
              args.length >= 3 ? Optional.of(args[2]) : Optional.empty());
    } catch (JobSessions.UnknownMasterException e) {
      err.println("FinparSparkJob: SPARK_MASTER " + e.getMessage());
      return EXIT_USAGE;
    }
    Outcome outcome;
    try {
      outcome =
          run(
              spark,
              bench,
              dataset,
              partitions.orElse(spark.sparkContext().defaultParallelism()),
              runs);
    } finally {
      spark.stop();
    }
    out.println(
        new JsonLine()
            .add("bench", bench.folderName())
            .add("size", args[1])
            .add("master", args.length >= 3 ? args[2] : JobSessions.DEFAULT_MASTER)
            .add("partitions", outcome.partitions())
            .add("result", outcome.prices())
            .add("reference", outcome.reference())
            .add(
                "max_abs_error", FinparBenchmark.maxAbsError(outcome.prices(), outcome.reference()))
            .add("rule", bench.rule())
            .add("reruns_agree", outcome.rerunsAgree())
            .add("valid", outcome.valid())
            .add("seconds_best", outcome.bestSeconds())
            .add("seconds", outcome.seconds())
            .add("cores", Runtime.getRuntime().availableProcessors())
            .add("java", System.getProperty("java.version"))
            .text());
    return outcome.valid() ? 0 : EXIT_INVALID;
  }

  /**
   * Runs {@code bench} {@code runs} times on the dataset folder {@code dataset} over {@code
   * partitions} partitions of {@code spark}.
   */
  static Outcome run(
      SparkSession spark, FinparBenchmark bench, Path dataset, int partitions, int runs)
      throws IOException {
    TypedProgram program = bench.program();
    List<Value> inputs = bench.readInput(program, dataset);
    List<Value> reference = bench.readReference(dataset);
    double[] first = null;
    boolean valid = true;
    boolean rerunsAgree = true;
    double[] seconds = new double[runs];
    for (int r = 0; r < runs; r++) {
      long start = System.nanoTime();
      double[] prices = prices(spark, bench, program, inputs, partitions);
      seconds[r] = (System.nanoTime() - start) / 1e9;
      valid &= bench.valid(List.of(realArray(prices)), reference);
      if (first == null) {
        first = prices;
      } else {
        rerunsAgree &= Arrays.equals(first, prices);
      }
    }
    return new Outcome(
        bench,
        first,
        bench.summary(reference),
        valid && rerunsAgree,
        rerunsAgree,
        partitions,
        seconds);
  }

  /**
   * FinPar's result of {@code bench} for main's arguments {@code inputs}, computed on Spark over
   * {@code partitions} partitions of the row indices (chunks of paths, or strikes).
   */
  static double[] prices(
      SparkSession spark,
      FinparBenchmark bench,
      TypedProgram program,
      List<Value> inputs,
      int partitions)
      throws IOException {
    Split split = Split.of(bench);
    FunDef main = program.function(FinparBenchmark.ENTRY);
    FunDef entry = program.function(split.entry);
    L0Pipeline pipeline =
        L0.pipeline(programText(bench)).entry(split.entry).on(split.column).as("result");
    List<Param> bound = entry.params().subList(0, entry.params().size() - 1);
    int items = 0;
    for (int k = 0; k < main.params().size(); k++) {
      Param p = main.params().get(k);
      if (p.name().equals(split.countParameter)) {
        items = (int) ((ScalarValue.Int) inputs.get(k)).value();
      }
      if (bound.stream().anyMatch(b -> b.name().equals(p.name()))) {
        pipeline = pipeline.with(p.name(), javaValue(inputs.get(k), p.type()));
      }
    }
    if (split.itemsPerRowParameter.isPresent()) {
      pipeline = pipeline.with(split.itemsPerRowParameter.get(), split.itemsPerRow);
    }
    Dataset<Row> indices =
        spark
            .range(0, split.rows(items), 1, partitions)
            .selectExpr("CAST(id AS INT) AS " + split.column);
    List<Row> result = indices.transform(pipeline).collectAsList();
    if (split == Split.OPTION_PRICING) {
      List<Double> sums = result.get(0).getList(0);
      double[] prices = new double[sums.size()];
      for (int m = 0; m < prices.length; m++) {
        prices[m] = sums.get(m) / items;
      }
      return prices;
    }
    return result.stream().mapToDouble(row -> row.getDouble(0)).toArray();
  }

  /**
   * {@code value} of L0 type {@code type} as {@link L0Pipeline#with} takes it: a boxed scalar or a
   * {@link FlatArray}.
   */
  static Object javaValue(Value value, Type type) {
    if (type instanceof Type.Array) {
      int rank = 0;
      for (Type t = type; t instanceof Type.Array a; t = a.element()) {
        rank++;
      }
      return FlatArray.of((Value.Array) value, FlatArray.elementType(type), rank);
    }
    if (value instanceof ScalarValue.Int i) {
      return i.type() == ScalarType.I64 ? (Object) i.value() : (Object) (int) i.value();
    }
    if (value instanceof ScalarValue.Float f) {
      return f.type() == ScalarType.F32 ? (Object) (float) f.value() : (Object) f.value();
    }
    return ((ScalarValue.Bool) value).value();
  }

  static String programText(FinparBenchmark bench) throws IOException {
    try (InputStream in = FinparBenchmark.class.getResourceAsStream(bench.programResource())) {
      if (in == null) {
        throw new IllegalStateException(
            "the program " + bench.programResource() + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Value.Array realArray(double[] values) {
    List<Value> elements = new ArrayList<>();
    for (double v : values) {
      elements.add(new ScalarValue.Float(ScalarType.F64, v));
    }
    return new Value.Array(ScalarType.F64, elements);
  }

  /**
   * The argument {@code name} given as {@code text}: a whole number >= 1, else an error naming it.
   */
  private static int atLeastOne(String name, String text) {
    try {
      int n = Integer.parseInt(text);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " takes a whole number >= 1, got '" + text + "'");
  }

  /**
   * {@value #DATA_FOLDER} beside the repository ({@code L0_HOME}, set by bin/l0-job), else beside
   * the working directory.
   */
  private static Path dataRoot() {
    String home = System.getenv("L0_HOME");
    return (home == null ? Path.of("") : Path.of(home)).resolve(DATA_FOLDER).normalize();
  }
}
