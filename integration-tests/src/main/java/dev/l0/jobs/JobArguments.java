package dev.l0.jobs;

import java.util.List;

/**
 * The one optional count argument of a benchmark job ({@code bin/l0-job parquet-benchmark
 * [OPTIONS]}, {@code paths-benchmark [ROWS]}, {@code risk-benchmark [POSITIONS]}): a whole number
 * from 1 to a bound, read before Spark starts so that a bad one is a usage error (exit 2) that
 * names it, not a {@code NumberFormatException} or a run over no rows.
 */
public final class JobArguments {
  /** A command line the job cannot accept. */
  public static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private JobArguments() {}

  /**
   * The count {@code args} give ({@code absent} where none), named {@code name} in errors: at most
   * one argument, a whole number from 1 to {@code max}.
   */
  public static long count(String[] args, String name, long absent, long max)
      throws UsageException {
    if (args.length > 1) {
      throw new UsageException(
          "expected at most one " + name + ", got " + args.length + " arguments " + List.of(args));
    }
    if (args.length == 0) {
      return absent;
    }
    try {
      long n = Long.parseLong(args[0].strip());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new UsageException(
        name + " takes a whole number from 1 to " + max + ", got '" + args[0] + "'");
  }
}
