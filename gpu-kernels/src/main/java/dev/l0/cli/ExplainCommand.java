package dev.l0.cli;

import dev.l0.opt.Optimizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/** {@code l0 explain FILE.l0}: the optimised internal program, its kernels, and {@code kernels: N}. */
final class ExplainCommand implements Command {
  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err) throws IOException {
    out.print(Optimizer.optimize(ProgramFiles.parseAndCheck(args.programFile())).explain());
    out.flush();
    return Main.EXIT_OK;
  }
}
