package dev.l0.cli;

import dev.l0.ir.L0CompileError;
import dev.l0.ir.L0ConfigurationError;
import dev.l0.ir.L0ResourceError;
import dev.l0.ir.L0RuntimeError;
import dev.l0.syntax.SourceFiles;
import dev.l0.types.NestingLimit;
import dev.l0.values.ValueFormatError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Entry point of {@code bin/l0}. Dispatches to one {@link Command} per verb and turns every failure
 * into one line on standard error and an exit code; a stack trace is printed only for an internal
 * error, and only when {@code L0_DEBUG=1}. The whole command runs on a thread with the stack that
 * {@link NestingLimit} sizes, so that a program within the nesting limit compiles and runs the same
 * way every time.
 */
public final class Main {
  static final int EXIT_OK = 0;
  static final int EXIT_PROGRAM_ERROR = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_BAD_INPUT = 3;
  static final int EXIT_RUNTIME_ERROR = 4;
  static final int EXIT_RESOURCE_LIMIT = 5;
  static final int EXIT_OUT_OF_MEMORY = 6;
  static final int EXIT_INVALID = 7;
  static final int EXIT_INTERNAL = 70;
  static final int EXIT_OUTPUT_LOST = 74;

  /**
   * The environment variable {@code bin/l0} passes to {@code java} as options, e.g. {@code
   * -Xmx16g}.
   */
  static final String JAVA_OPTIONS_VARIABLE = "L0_JAVA_OPTS";

  /**
   * How to give the JVM more heap: {@code L0_JAVA_OPTS=-Xmx<N>g}, twice the heap's maximum now,
   * rounded up to whole GiB.
   */
  static String moreHeap() {
    long twiceMiB = 2 * (Runtime.getRuntime().maxMemory() >> 20);
    long gib = Math.max(1, (twiceMiB + 1023) / 1024);
    return "give it more with "
        + JAVA_OPTIONS_VARIABLE
        + ", e.g. "
        + JAVA_OPTIONS_VARIABLE
        + "=-Xmx"
        + gib
        + "g bin/l0 ...";
  }

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
          "  run FILE.l0 [--entry NAME] [--no-opt | --device auto|jvm|sim|cuda] [--exact-sums]",
          "                               run a function on arguments read from standard input",
          "                               (FinPar data format: numbers, [nested, arrays], {tuples},",
          "                               true/false, // comments); prints the results. The program",
          "                               is optimised first unless --no-opt is given; --device runs",
          "                               its kernels on the JVM backend or the SIMT simulator;",
          "                               --exact-sums makes results that are float sums (reduce",
          "                               with op + and 0 on f32/f64) exact, rounded once",
          "  check FILE.l0                type check; errors as FILE:LINE:COL: message (exit 1)",
          "  print FILE.l0                print the program back in canonical L0 syntax",
          "  explain FILE.l0 [--device jvm|cuda] [--cuda] [--java]",
          "                               print the optimised internal program, one line per",
          "                               kernel, and 'kernels: N', then how each kernel runs on",
          "                               the JVM backend and on CUDA (--device: one of them);",
          "                               --cuda adds each kernel's CUDA C, --java the Java the",
          "                               JVM backend compiles for it",
          "  demo [--options FILE]        price the PARSEC Black-Scholes reference options with",
          "                               the thesis's P0 and compare with the reference prices",
          "  finpar BENCH|all SIZE [--device auto|jvm|sim|cuda] [--data DIR] [--runs N]",
          "         [--program FILE]",
          "                               run FinPar's OptionPricing, LocVolCalib or InterestCalib",
          "                               (or all) on dataset DIR/BENCH/SIZE (SIZE small|medium|large;",
          "                               DIR by default ../shared/data/finpar beside the repository),",
          "                               compiled once, N runs (default 1), validated with FinPar's",
          "                               rules; --program runs your own formulation of BENCH (entry",
          "                               main, the dataset's values in file order) instead of the",
          "                               shipped one; one JSON line per benchmark (exit "
              + EXIT_INVALID
              + " if not valid)",
          "The entry function is 'main' when the program has one, else the last function defined.",
          "Exit codes: 0 ok, 1 ill-formed program, 2 usage, 3 bad input data, 4 run-time error,",
          "5 a limit of this implementation reached, 6 out of memory (more heap: "
              + JAVA_OPTIONS_VARIABLE
              + "=-Xmx<N>g),",
          "7 a FinPar result that does not validate, 74 the output could not be written, 70 internal error.");

  private Main() {}

  /**
   * The loggers of L0's classes. The CLI prints what they would say at INFO level itself (the
   * device a run chose, and why, in its {@code device:} line), so only warnings and worse are
   * logged.
   */
  private static final Logger L0_LOGGERS = Logger.getLogger("dev.l0");

  public static void main(String[] args) {
    L0_LOGGERS.setLevel(Level.WARNING);
    System.exit(execute(args, System.in, System.out, System.err));
  }

  /** Runs one command line in this JVM (as {@code bin/l0} would); returns the exit code. */
  public static int execute(String[] args, InputStream in, PrintStream out, PrintStream err) {
    // --help anywhere (l0 run --help) asks for the usage, as a first word does
    if (args.length == 0 || args[0].equals("help") || Arrays.asList(args).contains("--help")) {
      (args.length == 0 ? err : out).println(USAGE);
      return args.length == 0 ? EXIT_USAGE : outputWritten("help", out, err, EXIT_OK);
    }
    Command command = COMMANDS.get(args[0]);
    if (command == null) {
      err.println("l0: unknown verb '" + args[0] + "'\n" + USAGE);
      return EXIT_USAGE;
    }
    int code =
        NestingLimit.onLargeStack(
            () ->
                executeHere(
                    args[0], command, Arrays.copyOfRange(args, 1, args.length), in, out, err));
    return outputWritten(args[0], out, err, code);
  }

  private static int executeHere(
      String verb,
      Command command,
      String[] args,
      InputStream in,
      PrintStream out,
      PrintStream err) {
    try {
      CliArgs parsed = CliArgs.parse(args, command.options(), command.flags());
      return command.execute(parsed, in, out, err);
    } catch (CliArgs.UsageError e) {
      err.println("l0 " + verb + ": " + e.getMessage() + "\n" + USAGE);
      return EXIT_USAGE;
    } catch (L0ConfigurationError e) {
      err.println("l0 " + verb + ": " + e.getMessage());
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
    } catch (L0ResourceError e) {
      if (e.moreHeapHelps()) {
        err.println("out of memory: " + e.getMessage() + "; " + moreHeap());
        return EXIT_OUT_OF_MEMORY;
      }
      err.println("limit reached: " + e.getMessage());
      return EXIT_RESOURCE_LIMIT;
    } catch (OutOfMemoryError e) {
      err.println(outOfMemory(e));
      return EXIT_OUT_OF_MEMORY;
    } catch (IOException e) {
      err.println("l0 " + verb + ": " + SourceFiles.describe(e));
      return EXIT_BAD_INPUT;
    } catch (RuntimeException | StackOverflowError e) {
      err.println("l0: internal error (please report): " + e);
      if ("1".equals(System.getenv("L0_DEBUG"))) {
        e.printStackTrace(err);
      }
      return EXIT_INTERNAL;
    }
  }

  /**
   * The line for an {@code OutOfMemoryError}: what ran out, how large it is and how to give the JVM
   * more.
   */
  static String outOfMemory(OutOfMemoryError e) {
    long maxMiB = Runtime.getRuntime().maxMemory() >> 20;
    String what = e.getMessage() == null ? "" : " (" + e.getMessage() + ")";
    return "out of memory"
        + what
        + ": the program and its data need more than the JVM's heap of at most "
        + maxMiB
        + " MiB; "
        + moreHeap();
  }

  /**
   * {@code code}, unless what the command printed could not all be written (a full disk, a closed
   * pipe): then a line on standard error and {@link #EXIT_OUTPUT_LOST}. {@link PrintStream} keeps
   * write errors to itself; {@link PrintStream#checkError} flushes and tells.
   */
  private static int outputWritten(String verb, PrintStream out, PrintStream err, int code) {
    if (!out.checkError()) {
      return code;
    }
    err.println(
        "l0 "
            + verb
            + ": the output could not be written (standard output failed: disk full or pipe closed?)");
    return code == EXIT_OK ? EXIT_OUTPUT_LOST : code;
  }
}
