package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueFormatError;
import dev.l0.values.ValueReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The FinPar benchmarks that {@code l0 finpar} runs: each one's L0 program (a classpath resource
 * under {@code /programs/finpar/}, entry {@value #ENTRY}), how its dataset folder ({@code
 * input.data}, {@code output.data}, format of shared/data/README.md) is read, and FinPar's own
 * validation rule for its result. A result is the list of the entry's result components (one array,
 * or InterestCalib's seven values), as {@code output.data} lists them.
 */
public enum FinparBenchmark {
  /**
   * R0: the price per market model; valid when every |reference - price| <= 5e-4 (FinPar's
   * OptionPricing).
   */
  OPTION_PRICING("OptionPricing", "|reference - price| <= 5e-4 per model") {
    @Override
    public boolean valid(List<Value> result, List<Value> reference) {
      return maxAbsError(summary(result), summary(reference)) <= 5e-4;
    }
  },
  /**
   * R1: the price per strike; valid when every |reference_i - result_i| <= 1e-5 (FinPar's
   * LocVolCalib).
   */
  LOC_VOL_CALIB("LocVolCalib", "|reference_i - result_i| <= 1e-5 per strike") {
    @Override
    public boolean valid(List<Value> result, List<Value> reference) {
      return maxAbsError(summary(result), summary(reference)) <= 1e-5;
    }
  },
  /**
   * R2: the winning genome (a, b, sigma, nu, rho), its log-likelihood and a row per swaption;
   * FinPar's three checks (includeC/ParseInput.h): the log-likelihood within 1.0 of the
   * reference's, not worse than it by more than 0.5, and no swaption's Cauchy log-likelihood worse
   * than the reference row's by more than 0.7.
   */
  INTEREST_CALIB(
      "InterestCalib",
      "|logLik - ref| <= 1, logLik not worse than ref by > 0.5, no swaption's log-likelihood worse than ref by > 0.7") {
    @Override
    List<Type> outputTypes() {
      List<Type> types = new ArrayList<>(Collections.nCopies(6, ScalarType.F64));
      types.add(Type.array(Type.array(ScalarType.F64)));
      return types;
    }

    @Override
    public double[] summary(List<Value> result) {
      double[] genome = new double[6];
      for (int i = 0; i < genome.length; i++) {
        genome[i] = real(result.get(i));
      }
      return genome;
    }

    @Override
    public boolean valid(List<Value> result, List<Value> reference) {
      double logLik = real(result.get(5));
      double referenceLogLik = real(reference.get(5));
      if (!Double.isFinite(logLik)
          || Math.abs(referenceLogLik - logLik) > 1.0
          || (logLik < referenceLogLik && referenceLogLik - logLik > 0.5)) {
        return false;
      }
      Value.Array rows = (Value.Array) result.get(6);
      Value.Array referenceRows = (Value.Array) reference.get(6);
      if (rows.elements().size() != referenceRows.elements().size()) {
        return false;
      }
      for (int i = 0; i < rows.elements().size(); i++) {
        double[] row = reals(rows.get(i));
        double[] referenceRow = reals(referenceRows.get(i));
        double current = cauchyLogLikelihood(row[1], row[0]);
        double expected = cauchyLogLikelihood(referenceRow[1], referenceRow[0]);
        if (!(current > expected || expected - current <= 0.7)) {
          return false;
        }
      }
      return true;
    }
  };

  public static final String ENTRY = "main";
  static final List<String> SIZES = List.of("small", "medium", "large");

  private final String folder;
  private final String rule;

  FinparBenchmark(String folder, String rule) {
    this.folder = folder;
    this.rule = rule;
  }

  /**
   * FinPar's validation of {@code result} against {@code reference} (both as {@link #outputTypes()}
   * lists them).
   */
  public abstract boolean valid(List<Value> result, List<Value> reference);

  /** The types of the values in {@code output.data}, in order; the entry's result components. */
  List<Type> outputTypes() {
    return List.of(Type.array(ScalarType.F64));
  }

  /**
   * The numbers a report shows of a result: the prices (R0, R1), the genome and its log-likelihood
   * (R2).
   */
  public double[] summary(List<Value> result) {
    return reals(result.get(0));
  }

  /** FinPar's name, also the dataset folder and the program's file name: {@code OptionPricing}. */
  public String folderName() {
    return folder;
  }

  /** The validation rule, in words. */
  public String rule() {
    return rule;
  }

  public String programResource() {
    return "/programs/finpar/" + folder + ".l0";
  }

  /** The benchmark FinPar names {@code name} (any case). */
  public static FinparBenchmark named(String name) {
    for (FinparBenchmark b : values()) {
      if (b.folder.equalsIgnoreCase(name)) {
        return b;
      }
    }
    throw new CliArgs.UsageError(
        "unknown FinPar benchmark '"
            + name
            + "'; expected one of "
            + String.join(
                ", ", List.of(values()).stream().map(FinparBenchmark::folderName).toList())
            + ", or all");
  }

  /** The program, parsed and type checked. */
  public TypedProgram program() throws IOException {
    try (InputStream in = FinparBenchmark.class.getResourceAsStream(programResource())) {
      if (in == null) {
        throw new IllegalStateException(
            "the program " + programResource() + " is missing from the classpath");
      }
      return TypeChecker.check(
          L0Parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), programResource()));
    }
  }

  /** The file of a dataset's folder with the entry's arguments. */
  static final String INPUT_FILE = "input.data";

  /** The file of a dataset's folder with FinPar's reference result. */
  static final String REFERENCE_FILE = "output.data";

  /** The files of a dataset's folder. */
  public static final List<String> DATASET_FILES = List.of(INPUT_FILE, REFERENCE_FILE);

  /** The entry's arguments, read from {@code dataset/input.data} in file order. */
  public List<Value> readInput(TypedProgram program, Path dataset) throws IOException {
    FunDef entry = program.function(ENTRY);
    Path file = dataset.resolve(INPUT_FILE);
    return ValueReader.read(
        read(file), entry.params().stream().map(Param::type).toList(), file.toString());
  }

  /** FinPar's reference result, read from {@code dataset/output.data}. */
  public List<Value> readReference(Path dataset) throws IOException {
    Path file = dataset.resolve(REFERENCE_FILE);
    return ValueReader.read(read(file), outputTypes(), file.toString());
  }

  /** The entry's result as the list of its components. */
  public static List<Value> components(Value result) {
    return result instanceof Value.Tuple tuple ? tuple.elements() : List.of(result);
  }

  /**
   * The largest |reference_i - result_i|; infinite when the lengths differ or a result is NaN or
   * infinite.
   */
  public static double maxAbsError(double[] result, double[] reference) {
    if (result.length != reference.length) {
      return Double.POSITIVE_INFINITY;
    }
    double worst = 0.0;
    for (int i = 0; i < result.length; i++) {
      double error = Math.abs(reference[i] - result[i]);
      worst = Double.isFinite(result[i]) ? Math.max(worst, error) : Double.POSITIVE_INFINITY;
    }
    return worst;
  }

  /** The dataset folder {@code root/BENCH/size}; the size must be small, medium or large. */
  public Path dataset(Path root, String size) {
    String lower = size.toLowerCase(Locale.ROOT);
    if (!SIZES.contains(lower)) {
      throw new CliArgs.UsageError(
          "unknown dataset size '" + size + "'; expected one of " + String.join(", ", SIZES));
    }
    return root.resolve(folder).resolve(lower);
  }

  /**
   * FinPar's Cauchy log-likelihood of {@code price} against {@code reference}
   * (includeC/GenAlgUtil.h).
   */
  static double cauchyLogLikelihood(double reference, double price) {
    double gamma = (Math.abs(reference) / 50.0) * 5.0 + 0.01;
    double x = (price - reference) / gamma;
    return Math.log(1.0 / (Math.PI * gamma * (1.0 + x * x)) + 1.0e-20);
  }

  static double[] reals(Value array) {
    Value.Array elements = (Value.Array) array;
    double[] values = new double[elements.elements().size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = real(elements.get(i));
    }
    return values;
  }

  private static double real(Value value) {
    return ((ScalarValue.Float) value).value();
  }

  private static String read(Path file) throws IOException {
    try {
      return SourceFiles.read(file, ValueFormatError::new);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(
          file.toString(),
          null,
          "no such dataset file (give the FinPar data folder with --data DIR)");
    }
  }
}
