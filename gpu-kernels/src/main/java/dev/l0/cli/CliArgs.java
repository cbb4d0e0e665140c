package dev.l0.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The positional arguments, {@code --name value} options and {@code --flag}s of one command line:
 * the one parser of {@code bin/l0}'s verbs and of the Spark jobs that take the same options ({@code
 * FinparSparkJob}, the risk batch), so all accept the same forms and say the same about a bad one.
 */
public record CliArgs(List<String> positional, Map<String, String> options, Set<String> flags) {

  /** A command line the verb cannot accept. */
  public static final class UsageError extends RuntimeException {
    public UsageError(String message) {
      super(message);
    }
  }

  /**
   * {@code args} split into positional arguments, the options named in {@code knownOptions}, each
   * followed by its value, and the flags named in {@code knownFlags}; any other {@code --name} is
   * an unknown option, an option without a value after it (or followed by another option or flag of
   * this command) lacks one, and an option given twice is ambiguous ({@link UsageError}).
   */
  public static CliArgs parse(String[] args, Set<String> knownOptions, Set<String> knownFlags) {
    List<String> positional = new ArrayList<>();
    Map<String, String> options = new HashMap<>();
    Set<String> flags = new HashSet<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        positional.add(arg);
        continue;
      }
      String name = arg.substring(2);
      if (knownFlags.contains(name)) {
        flags.add(name);
        continue;
      }
      if (!knownOptions.contains(name)) {
        throw new UsageError("unknown option '" + arg + "'");
      }
      if (i + 1 >= args.length || isKnown(args[i + 1], knownOptions, knownFlags)) {
        throw new UsageError("option '" + arg + "' needs a value");
      }
      String value = args[++i];
      String earlier = options.put(name, value);
      if (earlier != null) {
        throw new UsageError(
            "option '" + arg + "' given twice ('" + earlier + "' and '" + value + "')");
      }
    }
    return new CliArgs(List.copyOf(positional), Map.copyOf(options), Set.copyOf(flags));
  }

  /** Whether {@code arg} is {@code --name} of one of the options or flags. */
  private static boolean isKnown(String arg, Set<String> knownOptions, Set<String> knownFlags) {
    return arg.startsWith("--")
        && (knownOptions.contains(arg.substring(2)) || knownFlags.contains(arg.substring(2)));
  }

  /** The only positional argument, the program file. */
  String programFile() {
    if (positional.size() != 1) {
      throw new UsageError(
          "expected one FILE.l0, got " + positional.size() + " arguments " + positional);
    }
    return positional.get(0);
  }

  public Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }

  public boolean flag(String name) {
    return flags.contains(name);
  }
}
