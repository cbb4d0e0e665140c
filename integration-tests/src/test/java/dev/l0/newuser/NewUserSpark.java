package dev.l0.newuser;

import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * The session a new user's job starts, as "Running pipelines in Spark" in README.md shows it (the
 * SQL extension on a local master), with the test-only settings the other end-to-end tests use (no
 * UI, loopback host).
 */
final class NewUserSpark {
  private NewUserSpark() {}

  static SparkSession start(Class<?> owner) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(owner.getSimpleName())
        .config("spark.sql.extensions", "dev.l0.spark.L0Extensions")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate();
  }

  /**
   * The message of what {@code action} throws, with its causes', for asserting what a user reads.
   */
  static String failure(Supplier<?> action) {
    try {
      action.get();
    } catch (Exception e) { // Spark rethrows its checked SparkException undeclared
      StringBuilder all = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        all.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
      }
      return all.toString();
    }
    throw new AssertionError("expected a failure, but it ran");
  }
}
