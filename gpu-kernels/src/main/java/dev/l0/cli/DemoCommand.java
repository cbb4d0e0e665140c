package dev.l0.cli;

import dev.l0.cli.BlackScholesReference.OptionRecord;
import dev.l0.ir.ScalarValue;
import dev.l0.ir.Value;
import dev.l0.opt.KernelPlan;
import dev.l0.opt.OptimizedProgram;
import dev.l0.opt.Optimizer;
import dev.l0.syntax.L0Parser;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.TypeChecker;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code l0 demo [--options FILE]}: prices the PARSEC Black-Scholes reference options (by default
 * the shipped copy, see {@link BlackScholesReference}) with the thesis's P0, optimised, and
 * compares each price with the DerivaGem reference value; fails (exit 1) if any differs by more
 * than PARSEC's tolerance of 1e-4.
 */
final class DemoCommand implements Command {
  @Override
  public Set<String> options() {
    return Set.of("options");
  }

  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    if (!args.positional().isEmpty()) {
      throw new CliArgs.UsageError("demo takes no positional arguments");
    }
    Optional<String> file = args.option("options");
    List<OptionRecord> options =
        file.isPresent()
            ? BlackScholesReference.parseOptions(
                SourceFiles.read(Path.of(file.get()), ValueFormatError::new), file.get())
            : BlackScholesReference.referenceOptions();
    OptimizedProgram p0 =
        Optimizer.optimize(
            TypeChecker.check(
                L0Parser.parse(
                    BlackScholesReference.programText(), BlackScholesReference.PROGRAM_RESOURCE)));
    Value input =
        new Value.Array(
            BlackScholesReference.optionType(), options.stream().map(OptionRecord::toL0).toList());
    Value.Array prices = (Value.Array) p0.call(BlackScholesReference.ENTRY, List.of(input));
    out.printf(
        "P0 (%s) optimised into %d kernel(s): %s%n",
        BlackScholesReference.PROGRAM_RESOURCE,
        p0.kernelPlan().kernels().size(),
        p0.kernelPlan().kernels().stream().map(KernelPlan.Kernel::structure).toList());
    double[] priceValues = new double[options.size()];
    for (int i = 0; i < priceValues.length; i++) {
      priceValues[i] = ((ScalarValue.Float) prices.get(i)).value();
    }
    return BlackScholesReference.printReport(options, priceValues, out)
        ? Main.EXIT_OK
        : Main.EXIT_PROGRAM_ERROR;
  }
}
