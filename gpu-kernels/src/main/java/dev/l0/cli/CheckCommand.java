package dev.l0.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/** {@code l0 check FILE.l0}: parse and type check; the first error is thrown to {@link Main}. */
final class CheckCommand implements Command {
  @Override
  public int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    String file = args.programFile();
    int functions = ProgramFiles.parseAndCheck(file).program().functions().size();
    out.println(file + ": ok (" + functions + (functions == 1 ? " function)" : " functions)"));
    return Main.EXIT_OK;
  }
}
