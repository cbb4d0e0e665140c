package dev.l0.jobs.risk;

import java.io.PrintStream;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/**
 * The job's progress: each stage sets the Spark job description (so the Spark UI names it) and
 * prints one line when it ends, {@code risk-batch: STAGE: WHAT in S.SSs}.
 */
final class StageLog {
  private final SparkContext context;
  private final PrintStream out;
  private final long start = System.nanoTime();

  StageLog(SparkContext context, PrintStream out) {
    this.context = context;
    this.out = out;
  }

  <T> T stage(String name, Supplier<T> work, Function<T, String> counts) {
    context.setJobDescription("risk-batch: " + name);
    long begin = System.nanoTime();
    try {
      T result = work.get();
      line(
          name
              + ": "
              + counts.apply(result)
              + String.format(" in %.2fs", (System.nanoTime() - begin) / 1e9));
      return result;
    } finally {
      context.setJobDescription(null);
    }
  }

  void line(String text) {
    out.println("risk-batch: " + text);
    out.flush();
  }

  /** {@code n} and {@code noun}, plural unless {@code n} is 1: {@code 1 book}, {@code 8 books}. */
  static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  double elapsedSeconds() {
    return (System.nanoTime() - start) / 1e9;
  }
}
