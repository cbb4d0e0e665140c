package dev.l0.cli;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;

/**
 * Entry point of {@code bin/l0}. Dispatches to one {@link Command} per verb and turns every failure
 * into one line on standard error and an exit code; a stack trace is printed only for an internal
 * error, and only when {@code L0_DEBUG=1}.
 */
public final class Main {
  static final int EXIT_OK = 0;
  static final int EXIT_PROGRAM_ERROR = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_BAD_INPUT = 3;
  static final int EXIT_RUNTIME_ERROR = 4;
  static final int EXIT_INVALID = 5;
  static final int EXIT_INTERNAL = 70;

  private static final Map<String, Command> COMMANDS =
      Map.of(
          "run", new RunCommand(),
          "check", new CheckCommand(),
          "explain", new ExplainCommand(),
          "print", new PrintCommand(),
          "demo", new DemoCommand(),
          "finpar", new FinparCommand());

  static final String USAGE =
      String.join(
          "\n",
          "usage: l0 VERB [ARGS]",
          "  run FILE.l0 [--entry NAME] [--no-opt | --device auto|jvm|sim|cuda]",
          "                               run a function on arguments read from standard input",
          "                               (FinPar data format: numbers, [nested, arrays], {tuples},",
          "                               true/false, // comments); prints the results. The program",
          "                               is optimised first unless --no-opt is given; --device runs",
          "                               its kernels on the JVM backend or the SIMT simulator",
          "  check FILE.l0                type check; errors as FILE:LINE:COL: message (exit 1)",
          "  print FILE.l0                print the program back in canonical L0 syntax",
          "  explain FILE.l0 [--cuda]     print the optimised internal program, one line per",
          "                               kernel, and 'kernels: N'; --cuda adds each kernel's CUDA C",
          "  demo [--options FILE]        price the PARSEC Black-Scholes reference options with",
          "                               the thesis's P0 and compare with the reference prices",
          "  finpar BENCH|all SIZE [--device auto|jvm|sim|cuda] [--data DIR] [--runs N]",
          "                               run FinPar's OptionPricing, LocVolCalib or InterestCalib",
          "                               (or all) on dataset DIR/BENCH/SIZE (SIZE small|medium|large;",
          "                               DIR by default ../shared/data/finpar beside the repository),",
          "                               compiled once, N runs (default 1), validated with FinPar's",
          "                               rules; one JSON line per benchmark (exit 5 if not valid)",
          "The entry function is 'main' when the program has one, else the last function defined.",
          "Exit codes: 0 ok, 1 ill-formed program, 2 usage, 3 bad input data, 4 run-time error, 5 a FinPar result that does not validate.");

  private Main() {}

  public static void main(String[] args) {
    System.exit(execute(args, System.in, System.out, System.err));
  }

  /** Runs one command line in this JVM (as {@code bin/l0} would); returns the exit code. */
  public static int execute(String[] args, InputStream in, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
      (args.length == 0 ? err : out).println(USAGE);
      return args.length == 0 ? EXIT_USAGE : EXIT_OK;
    }
    Command command = COMMANDS.get(args[0]);
    if (command == null) {
      err.println("l0: unknown verb '" + args[0] + "'\n" + USAGE);
      return EXIT_USAGE;
    }
    try {
      CliArgs parsed = CliArgs.parse(Arrays.copyOfRange(args, 1, args.length), command.options(), command.flags());
      return command.execute(parsed, in, out, err);
    } catch (CliArgs.UsageError e) {
      err.println("l0 " + args[0] + ": " + e.getMessage() + "\n" + USAGE);
      return EXIT_USAGE;
    } catch (L0CompileError e) {
      err.println(e.getMessage());
      return EXIT_PROGRAM_ERROR;
    } catch (ValueFormatError e) {
      err.println("bad input: " + e.getMessage());
      return EXIT_BAD_INPUT;
    } catch (L0RuntimeError e) {
      err.println("run-time error: " + e.getMessage());
      return EXIT_RUNTIME_ERROR;
    } catch (IOException e) {
      err.println("l0 " + args[0] + ": " + e.getMessage());
      return EXIT_BAD_INPUT;
    } catch (RuntimeException | StackOverflowError e) {
      err.println("l0: internal error (please report): " + e);
      if ("1".equals(System.getenv("L0_DEBUG"))) {
        e.printStackTrace(err);
      }
      return EXIT_INTERNAL;
    }
  }
}
