package dev.l0.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Set;

/** One verb of the {@code l0} command line. */
interface Command {
  /** The {@code --options} this verb accepts that take a value. */
  default Set<String> options() {
    return Set.of();
  }

  /** The {@code --flags} this verb accepts (no value). */
  default Set<String> flags() {
    return Set.of();
  }

  /** Runs the verb; returns the exit code. Program and input errors are thrown, not printed. */
  int execute(CliArgs args, InputStream in, PrintStream out, PrintStream err) throws IOException;
}
