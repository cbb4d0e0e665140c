package dev.l0.cli;

import dev.l0.interp.Interpreter;
import dev.l0.ir.FunDef;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.Param;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Value;
import dev.l0.kernels.exact.ExactFloatSumProgram;
import dev.l0.kernels.exec.HostRunner;
import dev.l0.kernels.exec.HostValue;
import dev.l0.opt.Optimizer;
import dev.l0.opt.eval.ValueFlattening;
import dev.l0.semantics.ArrayOperations;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.TypeChecker;
import dev.l0.types.TypedProgram;
import dev.l0.values.ValueFormatError;
import dev.l0.values.ValueReader;
import dev.l0.values.ValueWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code l0 run FILE.l0 [--entry NAME] [--no-opt | --device D] [--exact-sums]}: reads the entry
 * function's arguments from standard input, runs the optimised program (by default on the
 * optimiser's evaluator; with {@code --device}, its kernels on that device, see {@link Devices};
 * with {@code --no-opt}, the reference interpreter on the program as written), and prints the
 * result; a tuple result prints one component per line. With {@code --exact-sums}, the results that
 * are float sums are exact ({@link ExactFloatSumProgram}): the program computes their summands,
 * which are added exactly and rounded once; standard error names each.
 */
final class RunCommand implements Command {
  @Override
  public Set<String> options() {
    return Set.of("entry", "device");
  }

  @Override
  public Set<String> flags() {
    return Set.of("no-opt", "exact-sums");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    String file = args.programFile();
    if (args.flag("no-opt") && args.option("device").isPresent()) {
      throw new CliArgs.UsageError("--no-opt runs the reference interpreter; it takes no --device");
    }
    Optional<Devices.Choice> device = args.option("device").map(Devices::choose);
    TypedProgram typed = ProgramFiles.parseAndCheck(file);
    FunDef entry = ProgramFiles.entry(typed.program(), args.option("entry"), file);
    Optional<ExactFloatSumProgram> exact =
        args.flag("exact-sums")
            ? Optional.of(ExactFloatSumProgram.of(typed.program(), entry.name()))
            : Optional.empty();
    if (exact.isPresent()) {
      err.println("exact float sums: " + String.join("; ", exact.get().notes()));
      typed = TypeChecker.check(exact.get().summands());
    }
    // only what the entry runs: no other entry's kernels compiled (the whole file is checked above)
    typed = TypeChecker.check(typed.program().reachableFrom(entry.name()));
    String input =
        SourceFiles.decode(in.readAllBytes(), "<stdin>", "standard input", ValueFormatError::new);
    List<Value> arguments =
        ValueReader.read(input, entry.params().stream().map(Param::type).toList(), "<stdin>");
    Value result;
    if (args.flag("no-opt")) {
      result = new Interpreter(typed.program()).call(entry.name(), arguments);
    } else if (device.isPresent()) {
      err.println("device: " + device.get().report());
      HostRunner runner = new HostRunner(Optimizer.optimize(typed), device.get().executor());
      result = runner.call(entry.name(), arguments);
    } else {
      result = Optimizer.optimize(typed).call(entry.name(), arguments);
    }
    if (exact.isPresent()) {
      result = exactSums(exact.get(), result);
    }
    List<Value> lines = result instanceof Value.Tuple t ? t.elements() : List.of(result);
    lines.forEach(RunCommand::requirePrintable);
    for (Value line : lines) {
      out.println(ValueWriter.write(line));
    }
    out.flush();
    return Main.EXIT_OK;
  }

  /**
   * The entry's result from {@code summands}, the summands program's: each exact sum added exactly
   * and rounded once.
   */
  private static Value exactSums(ExactFloatSumProgram exact, Value summands) {
    List<HostValue> components =
        ValueFlattening.flatten(summands, exact.summandsType()).stream()
            .map(HostValue::of)
            .toList();
    return ValueFlattening.unflatten(
        exact.finish(components).stream().map(HostValue::boxed).toList(), exact.resultType());
  }

  /** At least this many characters print each scalar of a result: a digit and {@code ", "}. */
  private static final int MIN_CHARS_PER_SCALAR = 3;

  /**
   * Refuses, before printing, a result whose text could not fit in one Java string ({@link
   * ArrayOperations#MAX_LENGTH} characters), rather than building it for minutes and then running
   * out of memory.
   */
  private static void requirePrintable(Value value) {
    double scalars = ArrayOperations.scalarCount(value);
    if (scalars * MIN_CHARS_PER_SCALAR > ArrayOperations.MAX_LENGTH) {
      throw new L0ResourceError(
          SourcePos.NONE,
          String.format(
              "the result has %.0f numbers; printed, it would exceed %d characters, the most one printed value may have",
              scalars, ArrayOperations.MAX_LENGTH),
          false);
    }
  }
}
