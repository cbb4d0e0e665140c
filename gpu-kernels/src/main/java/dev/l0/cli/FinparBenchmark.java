package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.Param;
import dev.l0.ir.ScalarType;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.syntax.L0Parser;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The FinPar benchmarks that {@code l0 finpar} runs: each one's L0 program (a classpath resource
 * under {@code /programs/finpar/}, entry {@value #ENTRY}), how its dataset folder
 * ({@code input.data}, {@code output.data}, format of shared/data/README.md) is read, and FinPar's
 * own validation rule for its result.
 */
enum FinparBenchmark {
  /** R0: the price per market model; valid when every |reference - price| <= 5e-4 (FinPar's OptionPricing). */
  OPTION_PRICING("OptionPricing", 5e-4),
  /** R1: the price per strike; valid when every |reference_i - result_i| <= 1e-5 (FinPar's LocVolCalib). */
  LOC_VOL_CALIB("LocVolCalib", 1e-5);

  static final String ENTRY = "main";
  static final List<String> SIZES = List.of("small", "medium", "large");

  private final String folder;
  private final double tolerance;

  FinparBenchmark(String folder, double tolerance) {
    this.folder = folder;
    this.tolerance = tolerance;
  }

  /** FinPar's name, also the dataset folder and the program's file name: {@code OptionPricing}. */
  String folderName() {
    return folder;
  }

  String programResource() {
    return "/programs/finpar/" + folder + ".l0";
  }

  /** The benchmark FinPar names {@code name} (any case). */
  static FinparBenchmark named(String name) {
    for (FinparBenchmark b : values()) {
      if (b.folder.equalsIgnoreCase(name)) {
        return b;
      }
    }
    throw new CliArgs.UsageError("unknown FinPar benchmark '" + name + "'; expected one of "
        + String.join(", ", List.of(values()).stream().map(FinparBenchmark::folderName).toList()) + ", or all");
  }

  /** The program, parsed and type checked. */
  TypedProgram program() throws IOException {
    try (InputStream in = FinparBenchmark.class.getResourceAsStream(programResource())) {
      if (in == null) {
        throw new IllegalStateException("the program " + programResource() + " is missing from the classpath");
      }
      return TypeChecker.check(L0Parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), programResource()));
    }
  }

  /** The entry's arguments, read from {@code dataset/input.data} in file order. */
  List<Value> readInput(TypedProgram program, Path dataset) throws IOException {
    FunDef entry = program.function(ENTRY);
    return ValueReader.read(read(dataset.resolve("input.data")), entry.params().stream().map(Param::type).toList(),
        dataset.resolve("input.data").toString());
  }

  /** FinPar's reference result from {@code dataset/output.data}: the prices, one per model or strike. */
  double[] readReference(Path dataset) throws IOException {
    Path file = dataset.resolve("output.data");
    Value reference = ValueReader.read(read(file), List.of(Type.array(ScalarType.F64)), file.toString()).get(0);
    return reals(reference);
  }

  /** The result's numbers: the entry returns one real per model (R0) or strike (R1). */
  static double[] reals(Value result) {
    Value.Array array = (Value.Array) result;
    double[] values = new double[array.elements().size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = ((ScalarValue.Float) array.get(i)).value();
    }
    return values;
  }

  /** The largest |reference_i - result_i|; infinite when the lengths differ or a result is NaN or infinite. */
  static double maxAbsError(double[] result, double[] reference) {
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

  /** FinPar's validation: every element within the benchmark's absolute tolerance, none NaN or infinite. */
  boolean valid(double[] result, double[] reference) {
    return maxAbsError(result, reference) <= tolerance;
  }

  double tolerance() {
    return tolerance;
  }

  /** The dataset folder {@code root/BENCH/size}; the size must be small, medium or large. */
  Path dataset(Path root, String size) {
    String lower = size.toLowerCase(Locale.ROOT);
    if (!SIZES.contains(lower)) {
      throw new CliArgs.UsageError("unknown dataset size '" + size + "'; expected one of " + String.join(", ", SIZES));
    }
    return root.resolve(folder).resolve(lower);
  }

  private static String read(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such dataset file (give the FinPar data folder with --data DIR)");
    }
  }
}
