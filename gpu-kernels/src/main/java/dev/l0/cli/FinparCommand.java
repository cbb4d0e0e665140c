package dev.l0.cli;

import dev.l0.ir.FunDef;
import dev.l0.ir.L0CompileError;
import dev.l0.ir.Program;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.ir.Value;
import dev.l0.kernels.cudaexec.CudaKernelExecutor;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.RunMeter;
import dev.l0.kernels.report.JsonLine;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Printer;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code l0 finpar BENCH|all SIZE [--device auto|jvm|sim|cuda] [--data DIR] [--runs N] [--program
 * FILE]}: runs a FinPar benchmark's L0 program ({@link FinparBenchmark}), or with {@code --program}
 * the user's own formulation of one benchmark (its entry {@code main} taking the dataset's values
 * in file order, as the shipped program's), on its dataset {@code DIR/BENCH/SIZE} (by default
 * {@code $L0_HOME/../shared/data/finpar}), compiled once (optimised, kernels prepared for the
 * device, see {@link Devices}) and run {@code N} times (default 1), validates every result with
 * FinPar's own rule and prints one JSON line per benchmark. Exits 0 only when every run of every
 * benchmark validates, else {@value Main#EXIT_INVALID}.
 */
final class FinparCommand implements Command {
  static final String DEFAULT_DATA = "../shared/data/finpar";

  @Override
  public Set<String> options() {
    return Set.of("device", "data", "runs", "program");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    if (args.positional().size() != 2) {
      throw new CliArgs.UsageError(
          "expected BENCH SIZE (BENCH one of OptionPricing, LocVolCalib, InterestCalib, or all), got "
              + args.positional());
    }
    String bench = args.positional().get(0);
    String size = args.positional().get(1);
    List<FinparBenchmark> benches =
        bench.equalsIgnoreCase("all")
            ? List.of(FinparBenchmark.values())
            : List.of(FinparBenchmark.named(bench));
    int runs = runs(args.option("runs"));
    Path root = dataRoot(args.option("data"));
    String device = args.option("device").orElse("auto");
    Optional<String> programFile = args.option("program");
    if (programFile.isPresent() && benches.size() != 1) {
      throw new CliArgs.UsageError(
          "--program is one benchmark's formulation: give OptionPricing, LocVolCalib or"
              + " InterestCalib, not all");
    }
    boolean allValid = true;
    for (FinparBenchmark b : benches) {
      TypedProgram program =
          programFile.isPresent() ? ownProgram(b, programFile.get()) : b.program();
      allValid &=
          runOne(b, program, programFile, b.dataset(root, size), size, device, runs, out, err);
    }
    out.flush();
    return allValid ? Main.EXIT_OK : Main.EXIT_INVALID;
  }

  /**
   * Fails as bad input where the dataset's reference holds another number of values than the
   * program gives: its {@code output.data} does not belong to its {@code input.data}, or, with the
   * user's own {@code programFile}, that program's {@code main} gives the wrong number.
   */
  private static void requireReferenceFor(
      FinparBenchmark bench,
      List<Value> result,
      List<Value> reference,
      Path dataset,
      Optional<String> programFile) {
    int expected = bench.summary(reference).length;
    int given = bench.summary(result).length;
    if (expected != given) {
      throw new ValueFormatError(
          new SourcePos(dataset.resolve(FinparBenchmark.REFERENCE_FILE).toString(), 1, 1),
          "holds "
              + expected
              + " reference value(s), but "
              + programFile.map(file -> file + "'s main").orElse("the program")
              + " gives "
              + given
              + " for this dataset's input.data"
              + (programFile.isPresent() ? "" : ": the two files do not belong together"));
    }
  }

  /**
   * The user's formulation of {@code bench} in {@code file}, which must define the entry {@code
   * main} returning what the benchmark's {@code output.data} holds.
   */
  private static TypedProgram ownProgram(FinparBenchmark bench, String file) throws IOException {
    Program parsed = ProgramFiles.parse(file);
    FunDef main =
        parsed
            .function(FinparBenchmark.ENTRY)
            .orElseThrow(
                () ->
                    new L0CompileError(
                        new SourcePos(file, 1, 1),
                        "the program defines no function '"
                            + FinparBenchmark.ENTRY
                            + "', the entry l0 finpar runs on the dataset's values"));
    List<Type> outputs = bench.outputTypes();
    Type expected = outputs.size() == 1 ? outputs.get(0) : new Type.Tuple(outputs);
    if (!main.returnType().sameShapeAs(expected)) {
      throw new L0CompileError(
          main.pos(),
          "main returns "
              + L0Printer.print(main.returnType())
              + ", but "
              + bench.folderName()
              + "'s output.data holds "
              + L0Printer.print(expected)
              + ", which l0 finpar validates it against");
    }
    return TypeChecker.check(parsed);
  }

  /**
   * The entry's arguments from the dataset's {@code input.data}; where they do not fit the
   * parameters of a formulation of the user's own, the error names its {@code main} as well.
   */
  private static List<Value> readInput(
      FinparBenchmark bench, TypedProgram program, Optional<String> programFile, Path dataset)
      throws IOException {
    try {
      return bench.readInput(program, dataset);
    } catch (ValueFormatError e) {
      if (programFile.isEmpty()) {
        throw e;
      }
      FunDef main = program.function(FinparBenchmark.ENTRY);
      throw new ValueFormatError(
          e.pos(),
          e.detail()
              + " (read as the "
              + main.params().size()
              + " parameter(s) of main at "
              + main.pos()
              + ")");
    }
  }

  private static boolean runOne(
      FinparBenchmark bench,
      TypedProgram program,
      Optional<String> programFile,
      Path dataset,
      String size,
      String device,
      int runs,
      PrintStream out,
      PrintStream err)
      throws IOException {
    List<Value> arguments = readInput(bench, program, programFile, dataset);
    List<Value> reference = bench.readReference(dataset);
    long compileCpuStart = processCpuNanos();
    long compileStart = System.nanoTime();
    Devices.Choice choice = Devices.choose(device);
    // only main and what it calls: the Spark entry's kernels are not compiled
    HostRunner runner =
        new HostRunner(
            Optimizer.optimize(
                TypeChecker.check(program.program().reachableFrom(FinparBenchmark.ENTRY))),
            choice.executor());
    double compileSeconds = seconds(System.nanoTime() - compileStart);
    double compileCpuSeconds = seconds(processCpuNanos() - compileCpuStart);
    double[] runSeconds = new double[runs];
    double[] runCpuSeconds = new double[runs];
    double best = Double.POSITIVE_INFINITY;
    RunMeter bestMeter = null;
    List<Value> result = List.of();
    boolean valid = true;
    for (int r = 0; r < runs; r++) {
      RunMeter meter = new RunMeter();
      long cpuStart = processCpuNanos();
      long start = System.nanoTime();
      Value value = runner.call(FinparBenchmark.ENTRY, arguments, meter);
      runSeconds[r] = seconds(System.nanoTime() - start);
      runCpuSeconds[r] = seconds(processCpuNanos() - cpuStart);
      result = FinparBenchmark.components(value);
      if (r == 0) {
        requireReferenceFor(bench, result, reference, dataset, programFile);
      }
      valid &= bench.valid(result, reference);
      if (runSeconds[r] < best) {
        best = runSeconds[r];
        bestMeter = meter;
      }
    }
    JsonLine line =
        new JsonLine()
            .add("bench", bench.folderName())
            .add("size", size)
            .add("device", choice.report())
            .add("result", bench.summary(result))
            .add("reference", bench.summary(reference))
            .add(
                "max_abs_error",
                FinparBenchmark.maxAbsError(bench.summary(result), bench.summary(reference)))
            .add("rule", bench.rule())
            .add("valid", valid)
            .add("compile_s", compileSeconds)
            .add("compile_cpu_s", compileCpuSeconds)
            .add("run_s_best", best)
            .add("run_s", runSeconds)
            .add("run_cpu_s", runCpuSeconds)
            .add("kernel_s", seconds(bestMeter.kernelNanos()))
            .add("transfer_s", seconds(bestMeter.transferNanos()))
            .add("transfer_bytes", bestMeter.transferBytes())
            .add("launches_on_jvm", bestMeter.launchesPlacedOnJvm());
    programFile.ifPresent(file -> line.add("program", file));
    if (choice.executor() instanceof CudaKernelExecutor cuda) {
      line.add("cuda_min_rows", cuda.minRows());
      line.add("cuda_block_size", cuda.blockSize());
      line.add("cuda_block_rows_below", cuda.blockRowsBelow());
    }
    out.println(
        line.add("cores", Runtime.getRuntime().availableProcessors())
            .add("java", System.getProperty("java.version"))
            .text());
    return valid;
  }

  /**
   * The CPU time this process's threads have used (the JIT compiler's and the garbage collector's
   * included): on a shared machine, a run's CPU time varies less with the load than its wall time.
   */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static int runs(Optional<String> text) {
    if (text.isEmpty()) {
      return 1;
    }
    try {
      int runs = Integer.parseInt(text.get());
      if (runs >= 1) {
        return runs;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CliArgs.UsageError(
        "--runs takes a whole number of runs >= 1, got '" + text.get() + "'");
  }

  /**
   * {@code --data DIR}, else {@value #DEFAULT_DATA} beside the repository ({@code L0_HOME}, set by
   * bin/l0), else beside the working directory.
   */
  private static Path dataRoot(Optional<String> option) {
    if (option.isPresent()) {
      return Path.of(option.get());
    }
    String home = System.getenv("L0_HOME");
    return (home == null ? Path.of("") : Path.of(home)).resolve(DEFAULT_DATA).normalize();
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
