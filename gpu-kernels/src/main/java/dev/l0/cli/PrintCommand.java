package dev.l0.cli;

import dev.l0.syntax.L0Printer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/** {@code l0 print FILE.l0}: the program in canonical L0 syntax (it need not type check). */
final class PrintCommand implements Command {
  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    out.print(L0Printer.print(ProgramFiles.parse(args.programFile())));
    out.flush();
    return Main.EXIT_OK;
  }
}
